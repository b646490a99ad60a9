// Connection's graph queries (CONSTRUCT, DESCRIBE): the backend's triples, as public values or
// as text written by the store's serializer (store/engine/results/graph_writer.h).
#include <sstream>

#include "quarry/connection.h"
#include "store/client/backend.h"
#include "store/engine/results/graph_writer.h"

namespace quarry {
namespace {

Term PublicTerm(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri:
      return {Term::Kind::kIri, term.value, {}, {}};
    case schema::RdfTerm::Kind::kBlank:
      return {Term::Kind::kBlankNode, term.value, {}, {}};
    case schema::RdfTerm::Kind::kLiteral:
      break;
  }
  return {Term::Kind::kLiteral, term.value, term.datatype, term.lang};
}

}  // namespace

Result<std::vector<Triple>> Connection::QueryTriples(std::string_view sparql) {
  QUARRY_ASSIGN_OR_RETURN(const GraphAnswer answer, impl_->QueryGraph(sparql));
  std::vector<Triple> triples;
  triples.reserve(answer.triples.size());
  for (const engine::Triple& triple : answer.triples.triples()) {
    triples.push_back({PublicTerm(triple.subject), triple.predicate, PublicTerm(triple.object)});
  }
  return triples;
}

Result<std::string> Connection::QueryRdf(std::string_view sparql, RdfSyntax syntax) {
  QUARRY_ASSIGN_OR_RETURN(const GraphAnswer answer, impl_->QueryGraph(sparql));
  std::ostringstream text;
  QUARRY_TRY(engine::results::WriteGraph(answer.triples,
                                         syntax == RdfSyntax::kTurtle
                                             ? engine::results::GraphFormat::kTurtle
                                             : engine::results::GraphFormat::kNTriples,
                                         answer.prefixes, text));
  return text.str();
}

}  // namespace quarry
