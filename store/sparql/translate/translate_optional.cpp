// OPTIONAL { ?s <p> ?o } read from a row the group has already joined, instead of a LEFT JOIN.
#include <fmt/format.h>

#include <algorithm>

#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {

// The column holding `property` (single-valued) in a row of the subject `key` that `fragment`
// joined: its table's own, or (as AddTriple reads it) the domain-index mirror of a class the
// subject has; empty when there is none.
std::string Translator::JoinedColumn(const Fragment& fragment, const std::string& key,
                                     const ontology::Property& property) const {
  const schema::PropertyStorage storage = names_.StorageOf(property);
  if (const auto tables = fragment.subject_tables.find(key);
      tables != fragment.subject_tables.end()) {
    if (const auto row = tables->second.find(storage.table); row != tables->second.end()) {
      return fmt::format("{}.{}", row->second, schema::Quote(storage.column));
    }
  }
  const auto classes = fragment.subject_classes.find(key);
  if (classes == fragment.subject_classes.end()) return {};
  for (const auto& [cls, class_alias] : classes->second) {
    if (std::find(cls->domain_indexes.begin(), cls->domain_indexes.end(), property.iri) !=
        cls->domain_indexes.end()) {
      return fmt::format("{}.{}", class_alias, schema::Quote(names_.MirrorColumn(property)));
    }
  }
  return {};
}

// The LEFT JOIN would be `(SELECT t.ID, t.p FROM table AS t WHERE t.p IS NOT NULL) ON ?s = ID`:
// ID is the table's primary key, so it finds the very row of ?s the group joined already, or
// nothing when that row's column is NULL. That column is then the answer, NULL when absent,
// and SQLite saves one b-tree search per solution (the miner's children query reads
// nfo:fileSize this way beside nfo:fileName: issue 5, a no-change restart).
// Only where the two are the same by construction: a single-valued property; ?s bound (never
// NULL) in the group before the OPTIONAL, with a row of p's table (or, as AddTriple reads it, a
// class whose domain-index mirror holds p); ?o a variable bound nowhere before; no graph
// condition (no GRAPH, FROM or open-mode default graph), as class table columns keep p's graph
// apart; nothing else in the OPTIONAL (no FILTER, which would see the outer variables).
bool Translator::OptionalFromJoinedRow(Fragment& fragment, const GroupGraphPattern& optional,
                                       const GraphContext& graph) {
  if (optional.elements.size() != 1 || !SeesAllGraphs(graph) || open_mode_) return false;
  const auto* block = std::get_if<TriplesBlock>(&optional.elements.front().node);
  if (!block || block->triples.size() != 1) return false;
  const TriplePattern& triple = block->triples.front();
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  const Iri* predicate_iri = predicate ? std::get_if<Iri>(predicate) : nullptr;
  const auto* subject = std::get_if<Variable>(&triple.subject);
  const auto* object = std::get_if<Variable>(&triple.object);
  if (!predicate_iri || !subject || !object || subject->name == object->name ||
      predicate_iri->iri == kRdfType || IsFtsMatch(triple)) {
    return false;
  }
  const ontology::Property* property = ontology_.FindProperty(predicate_iri->iri);
  if (!property) return false;  // AddTriple's error, through the LEFT JOIN
  const schema::PropertyStorage storage = names_.StorageOf(*property);
  if (storage.multi_valued || !fragment.vars.count(subject->name) ||
      fragment.nullable.count(subject->name) || fragment.vars.count(object->name)) {
    return false;
  }
  std::string column = JoinedColumn(fragment, SubjectKey(triple.subject), *property);
  if (column.empty()) return false;
  const Kind kind =
      property->type == ontology::ValueType::kResource ? Kind::kResource : Kind::kLiteral;
  SqlExpr value{std::move(column), kind, property->type};
  value.table_column = true;
  fragment.vars.emplace(object->name, std::move(value));
  fragment.var_order.push_back(object->name);
  fragment.nullable.insert(object->name);
  return true;
}

}  // namespace quarry::sparql::translate
