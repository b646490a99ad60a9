// SPARQL 1.1 Query Results CSV and TSV Formats (https://www.w3.org/TR/sparql11-results-csv-tsv/).
// CSV: lexical forms only (lossy), RFC 4180 quoting, CRLF line ends. TSV: '?'-prefixed header
// and every term in Turtle/N-Triples syntax (integers and booleans in their bare form), LF.
// Unbound values are empty fields. An ASK answer is one line "true" or "false".
#include <fmt/format.h>

#include "cli/result_writers.h"
#include "store/ontology/ontology.h"

namespace quarry::cli {
namespace {

std::string CsvField(std::string_view value) {
  if (value.find_first_of("\",\r\n") == std::string_view::npos) return std::string(value);
  std::string quoted = "\"";
  for (const char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string TurtleString(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\r': quoted += "\\r"; break;
      case '\t': quoted += "\\t"; break;
      default: quoted += c;
    }
  }
  return quoted + "\"";
}

std::string TurtleIri(std::string_view iri) {
  std::string text = "<";
  for (const char c : iri) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || std::string_view("<>\"{}|^`\\").find(c) != std::string_view::npos) {
      text += fmt::format("\\u{:04X}", byte);
    } else {
      text += c;
    }
  }
  return text + ">";
}

bool IsBareInteger(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string TsvTerm(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri: return TurtleIri(term.value);
    case schema::RdfTerm::Kind::kBlank: return "_:" + term.value;
    case schema::RdfTerm::Kind::kLiteral: break;
  }
  const std::string xsd(ontology::iri::kXsd);
  if (term.datatype == xsd + "integer" && IsBareInteger(term.value)) return term.value;
  if (term.datatype == xsd + "boolean" && (term.value == "true" || term.value == "false")) {
    return term.value;
  }
  if (!term.lang.empty()) return TurtleString(term.value) + "@" + term.lang;
  if (!term.datatype.empty() && term.datatype != xsd + "string") {
    return TurtleString(term.value) + "^^" + TurtleIri(term.datatype);
  }
  return TurtleString(term.value);
}

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
  void Row(engine::Cursor& cursor) override {
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

}  // namespace quarry::cli
