// The table format: what a person reads in a terminal. Values are shown by their lexical form
// (a language tag is appended as @lang); unbound values are empty.
#include <fmt/format.h>

#include "cli/result_format.h"
#include "cli/text_table.h"

namespace quarry::cli {
namespace {

class TableWriter final : public engine::results::ResultWriter {
 public:
  explicit TableWriter(std::ostream& out) : out_(out) {}

  void Begin(const std::vector<std::string>& variables) override {
    table_ = std::make_unique<TextTable>(variables);
  }
  void Row(engine::results::Solutions& cursor) override {
    std::vector<std::string> cells;
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      std::string cell(cursor.GetString(i));
      const std::string_view lang = cursor.GetLanguage(i);
      if (!lang.empty()) cell += fmt::format("@{}", lang);
      cells.push_back(std::move(cell));
    }
    table_->AddRow(std::move(cells));
  }
  void End(uint64_t rows) override {
    table_->Print(out_);
    out_ << rows << (rows == 1 ? " row\n" : " rows\n");
  }
  void Boolean(bool answer) override { out_ << (answer ? "true\n" : "false\n"); }

 private:
  std::ostream& out_;
  std::unique_ptr<TextTable> table_;
};

}  // namespace

std::unique_ptr<engine::results::ResultWriter> MakeTableWriter(std::ostream& out) {
  return std::make_unique<TableWriter>(out);
}

}  // namespace quarry::cli
