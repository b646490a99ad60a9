// UpdateExecutor in open mode: template triples whose predicate the ontology does not know (or
// rdf:type with an unknown class) go to the quad table through the QuadWriter.
#include <fmt/format.h>

#include "store/engine/update_executor.h"

namespace quarry::engine {

Result<UpdateExecutor::OpenPredicate> UpdateExecutor::ResolveOpenPredicate(
    const sparql::TriplePattern& triple, const std::optional<Object>& variable_value) {
  OpenPredicate predicate;
  const sparql::Term* term = std::get_if<sparql::Term>(&triple.predicate);
  if (const auto* iri = term ? std::get_if<sparql::Iri>(term) : nullptr) {
    predicate.property = ontology_.FindProperty(iri->iri);
    if (!predicate.property) {
      QUARRY_ASSIGN_OR_RETURN(predicate.id, quads_->PredicateId(iri->iri));
    }
    return predicate;
  }
  if (!term || !std::holds_alternative<sparql::Variable>(*term)) {
    return Error(Errc::kUnsupported,
                 "a parameter or path as predicate of an update template is not supported yet");
  }
  // A variable: its solution value must be an IRI (a blank node or literal makes no triple).
  const auto* ref = variable_value ? std::get_if<ResourceRef>(&*variable_value) : nullptr;
  if (!ref || ref->id <= 0) {
    predicate.unbound = true;
    return predicate;
  }
  QUARRY_ASSIGN_OR_RETURN(const std::optional<std::string> iri, quads_->UriOf(ref->id));
  if (!iri) {
    predicate.unbound = true;
    return predicate;
  }
  predicate.property = ontology_.FindProperty(*iri);
  predicate.id = ref->id;
  return predicate;
}

Result<void> UpdateExecutor::ApplyQuad(const OpenPredicate& predicate, int64_t subject,
                                       const Object& object, bool insert,
                                       std::optional<int64_t> graph, BlankScope& blanks) {
  if (subject <= 0) return Ok();  // a literal term ID cannot be a subject
  int64_t predicate_id = predicate.id;
  if (predicate.property) {
    QUARRY_ASSIGN_OR_RETURN(predicate_id, quads_->PredicateId(predicate.property->iri));
  }
  // Open mode follows SPARQL's dataset: a template without GRAPH is the default graph (0) for
  // deletes too, not "whichever graph holds it" as with an ontology (update_executor.h).
  if (insert)
    return quads_->Insert(graph.value_or(kDefaultGraph), subject, predicate_id, object, blanks);
  return quads_->Delete(graph.value_or(kDefaultGraph), subject, predicate_id, object);
}

}  // namespace quarry::engine
