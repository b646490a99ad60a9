// SPARQL Query Results XML Format (https://www.w3.org/TR/rdf-sparql-XMLres/). Characters XML 1.0
// cannot carry (most C0 controls) are replaced by U+FFFD.
#include <fmt/format.h>

#include "store/engine/results/result_writer.h"
#include "store/engine/results/term_syntax.h"

namespace quarry::engine::results {
namespace {

std::string XmlTerm(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri:
      return fmt::format("<uri>{}</uri>", XmlText(term.value));
    case schema::RdfTerm::Kind::kBlank:
      return fmt::format("<bnode>{}</bnode>", XmlText(term.value));
    case schema::RdfTerm::Kind::kLiteral:
      break;
  }
  if (!term.lang.empty()) {
    return fmt::format("<literal xml:lang=\"{}\">{}</literal>", XmlText(term.lang),
                       XmlText(term.value));
  }
  if (!term.datatype.empty()) {
    return fmt::format("<literal datatype=\"{}\">{}</literal>", XmlText(term.datatype),
                       XmlText(term.value));
  }
  return fmt::format("<literal>{}</literal>", XmlText(term.value));
}

constexpr std::string_view kPrologue =
    "<?xml version=\"1.0\"?>\n"
    "<sparql xmlns=\"http://www.w3.org/2005/sparql-results#\">\n";

class XmlWriter final : public ResultWriter {
 public:
  explicit XmlWriter(std::ostream& out) : out_(out) {}

  void Begin(const std::vector<std::string>& variables) override {
    out_ << kPrologue << "  <head>\n";
    for (const std::string& variable : variables) {
      out_ << "    <variable name=\"" << XmlText(variable) << "\"/>\n";
    }
    out_ << "  </head>\n  <results>\n";
  }
  void Row(Solutions& cursor) override {
    out_ << "    <result>\n";
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      const std::optional<schema::RdfTerm> term = cursor.GetTerm(i);
      if (!term) continue;
      out_ << "      <binding name=\"" << XmlText(cursor.VariableName(i)) << "\">" << XmlTerm(*term)
           << "</binding>\n";
    }
    out_ << "    </result>\n";
  }
  void End(uint64_t /*rows*/) override { out_ << "  </results>\n</sparql>\n"; }
  void Boolean(bool answer) override {
    out_ << kPrologue << "  <head/>\n  <boolean>" << (answer ? "true" : "false")
         << "</boolean>\n</sparql>\n";
  }

 private:
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<ResultWriter> MakeXmlWriter(std::ostream& out) {
  return std::make_unique<XmlWriter>(out);
}

}  // namespace quarry::engine::results
