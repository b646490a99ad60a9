// SPARQL 1.1 Query Results CSV and TSV Formats (https://www.w3.org/TR/sparql11-results-csv-tsv/).
#include "store/engine/results/result_writer.h"
#include "store/engine/results/term_syntax.h"

namespace quarry::engine::results {
namespace {

class DelimitedWriter final : public ResultWriter {
 public:
  DelimitedWriter(std::ostream& out, bool tsv) : out_(out), tsv_(tsv) {}

  void Begin(const std::vector<std::string>& variables) override {
    for (size_t i = 0; i < variables.size(); ++i) {
      if (i) out_ << Separator();
      out_ << (tsv_ ? "?" + variables[i] : CsvField(variables[i]));
    }
    out_ << LineEnd();
  }
  void Row(Solutions& cursor) override {
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      if (i) out_ << Separator();
      if (!cursor.IsBound(i)) continue;
      if (tsv_) {
        out_ << TsvTerm(*cursor.GetTerm(i));
      } else {
        out_ << CsvField(cursor.GetString(i));
      }
    }
    out_ << LineEnd();
  }
  void End(uint64_t /*rows*/) override {}
  void Boolean(bool answer) override { out_ << (answer ? "true" : "false") << LineEnd(); }

 private:
  char Separator() const { return tsv_ ? '\t' : ','; }
  std::string_view LineEnd() const { return tsv_ ? "\n" : "\r\n"; }

  std::ostream& out_;
  const bool tsv_;
};

}  // namespace

std::unique_ptr<ResultWriter> MakeCsvWriter(std::ostream& out) {
  return std::make_unique<DelimitedWriter>(out, false);
}
std::unique_ptr<ResultWriter> MakeTsvWriter(std::ostream& out) {
  return std::make_unique<DelimitedWriter>(out, true);
}

}  // namespace quarry::engine::results
