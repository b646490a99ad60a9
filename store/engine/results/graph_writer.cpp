#include "store/engine/results/graph_writer.h"

#include "store/engine/rdf_io/rdf_writer.h"
#include "store/ontology/ontology.h"

namespace quarry::engine::results {
namespace {

using schema::RdfTerm;

void NoteIri(std::string_view iri, const std::map<std::string, std::string>& prefixes,
             std::map<std::string, std::string>& used) {
  for (const auto& [prefix, namespace_iri] : prefixes) {
    if (iri.size() > namespace_iri.size() && iri.substr(0, namespace_iri.size()) == namespace_iri) {
      used.emplace(prefix, namespace_iri);
    }
  }
}

// serd writes xsd:integer and xsd:boolean literals, and xsd:decimal ones holding an inner '.',
// bare: their datatype needs no prefix.
bool WrittenBare(const RdfTerm& literal) {
  const std::string xsd(ontology::iri::kXsd);
  if (literal.datatype == xsd + "integer" || literal.datatype == xsd + "boolean") return true;
  return literal.datatype == xsd + "decimal" && literal.value.find('.') != std::string::npos &&
         literal.value.back() != '.';
}

void NoteTerm(const RdfTerm& term, const std::map<std::string, std::string>& prefixes,
              std::map<std::string, std::string>& used) {
  if (term.kind == RdfTerm::Kind::kIri) NoteIri(term.value, prefixes, used);
  if (term.kind == RdfTerm::Kind::kLiteral && !term.datatype.empty() && !WrittenBare(term)) {
    NoteIri(term.datatype, prefixes, used);
  }
}

// The prefixes a Turtle text of `triples` can use: an @prefix line nobody needs is noise.
std::map<std::string, std::string> UsedPrefixes(
    const TripleSet& triples, const std::map<std::string, std::string>& prefixes) {
  std::map<std::string, std::string> used;
  for (const Triple& triple : triples.triples()) {
    NoteTerm(triple.subject, prefixes, used);
    if (triple.predicate != ontology::iri::kRdfType)
      NoteIri(triple.predicate, prefixes, used);  // "a"
    NoteTerm(triple.object, prefixes, used);
  }
  return used;
}

}  // namespace

std::optional<GraphFormat> GraphFormatFromName(std::string_view name) {
  if (name == "turtle") return GraphFormat::kTurtle;
  if (name == "ntriples") return GraphFormat::kNTriples;
  return std::nullopt;
}

Result<void> WriteGraph(const TripleSet& triples, GraphFormat format,
                        const std::map<std::string, std::string>& prefixes, std::ostream& out) {
  const bool turtle = format == GraphFormat::kTurtle;
  rdf_io::RdfWriter writer(
      out, turtle ? rdf_io::WriteSyntax::kTurtle : rdf_io::WriteSyntax::kNTriples,
      turtle ? UsedPrefixes(triples, prefixes) : std::map<std::string, std::string>());
  for (const Triple& triple : triples.triples()) {
    QUARRY_TRY(writer.Write(std::nullopt, triple.subject, triple.predicate, triple.object));
  }
  return writer.Finish();
}

}  // namespace quarry::engine::results
