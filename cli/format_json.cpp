// SPARQL 1.1 Query Results JSON Format (https://www.w3.org/TR/sparql11-results-json/), one
// solution per line. Unbound variables are left out of their solution.
#include <fmt/format.h>

#include "cli/result_writers.h"

namespace quarry::cli {
namespace {

std::string JsonString(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\r': quoted += "\\r"; break;
      case '\t': quoted += "\\t"; break;
      case '\b': quoted += "\\b"; break;
      case '\f': quoted += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          quoted += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          quoted += c;
        }
    }
  }
  return quoted + "\"";
}

std::string JsonTerm(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri:
      return fmt::format("{{\"type\": \"uri\", \"value\": {}}}", JsonString(term.value));
    case schema::RdfTerm::Kind::kBlank:
      return fmt::format("{{\"type\": \"bnode\", \"value\": {}}}", JsonString(term.value));
    case schema::RdfTerm::Kind::kLiteral: break;
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
  void Row(engine::Cursor& cursor) override {
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

}  // namespace quarry::cli
