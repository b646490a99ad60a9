// SPARQL 1.1 Query Results JSON Format (https://www.w3.org/TR/sparql11-results-json/).
#include <fmt/format.h>

#include "store/engine/results/result_writer.h"
#include "store/engine/results/term_syntax.h"

namespace quarry::engine::results {
namespace {

std::string JsonTerm(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri:
      return fmt::format("{{\"type\": \"uri\", \"value\": {}}}", JsonString(term.value));
    case schema::RdfTerm::Kind::kBlank:
      return fmt::format("{{\"type\": \"bnode\", \"value\": {}}}", JsonString(term.value));
    case schema::RdfTerm::Kind::kLiteral:
      break;
  }
  std::string json = fmt::format("{{\"type\": \"literal\", \"value\": {}", JsonString(term.value));
  if (!term.lang.empty()) {
    json += fmt::format(", \"xml:lang\": {}", JsonString(term.lang));
  } else if (!term.datatype.empty()) {
    json += fmt::format(", \"datatype\": {}", JsonString(term.datatype));
  }
  return json + "}";
}

class JsonWriter final : public ResultWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void Begin(const std::vector<std::string>& variables) override {
    out_ << "{\n  \"head\": {\"vars\": [";
    for (size_t i = 0; i < variables.size(); ++i) {
      out_ << (i ? ", " : "") << JsonString(variables[i]);
    }
    out_ << "]},\n  \"results\": {\"bindings\": [";
  }
  void Row(Solutions& cursor) override {
    out_ << (rows_++ ? ",\n    {" : "\n    {");
    bool first = true;
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      const std::optional<schema::RdfTerm> term = cursor.GetTerm(i);
      if (!term) continue;
      out_ << (first ? "" : ", ") << JsonString(cursor.VariableName(i)) << ": " << JsonTerm(*term);
      first = false;
    }
    out_ << "}";
  }
  void End(uint64_t rows) override { out_ << (rows ? "\n  ]}\n}\n" : "]}\n}\n"); }
  void Boolean(bool answer) override {
    out_ << "{\n  \"head\": {},\n  \"boolean\": " << (answer ? "true" : "false") << "\n}\n";
  }

 private:
  std::ostream& out_;
  uint64_t rows_ = 0;
};

}  // namespace

std::unique_ptr<ResultWriter> MakeJsonWriter(std::ostream& out) {
  return std::make_unique<JsonWriter>(out);
}

}  // namespace quarry::engine::results
