// DELETE WHERE with a variable predicate on a store with an ontology: `DELETE WHERE { <a> ?p ?o }`
// removes every property of <a>. The compiler has no variable predicates outside open mode
// (values of different properties live in differently typed columns), so the request runs once
// per property of the ontology with ?p bound to it; each instance reads its solutions from the
// class tables and multi-valued tables of that property. All instances are evaluated before any
// triple is deleted (SPARQL 1.1 Update §3.1.3.3: the pattern is matched once, then deleted), and
// rdf:type goes last so the removal of a type (which the writer applies to the class rows and
// their properties, SCHEMA.md) cannot hide another property's match. Open mode does not come
// here: its compiler reads variable predicates from the quad table directly.
#include <fmt/format.h>

#include <set>

#include "store/engine/query_executor.h"
#include "store/engine/update_executor.h"
#include "store/engine/update_executor_text.h"
#include "store/schema/names.h"
#include "store/sparql/translate/translator.h"

namespace quarry::engine {
namespace {

using sparql::Term;

const sparql::Variable* PredicateVariable(const sparql::TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  return predicate ? std::get_if<sparql::Variable>(predicate) : nullptr;
}

Term Bind(const Term& term, const std::string& name, const std::string& iri) {
  const auto* variable = std::get_if<sparql::Variable>(&term);
  return variable && variable->name == name ? Term(sparql::Iri{iri}) : term;
}

// `quads` with the variable `name` replaced by `iri` wherever it stands.
sparql::Quads BindVariable(const sparql::Quads& quads, const std::string& name,
                           const std::string& iri) {
  sparql::Quads bound = quads;
  for (sparql::QuadsBlock& block : bound) {
    if (block.graph) block.graph = Bind(*block.graph, name, iri);
    for (sparql::TriplePattern& triple : block.triples) {
      triple.subject = Bind(triple.subject, name, iri);
      triple.object = Bind(triple.object, name, iri);
      if (const Term* predicate = std::get_if<Term>(&triple.predicate)) {
        triple.predicate = Bind(*predicate, name, iri);
      }
    }
  }
  return bound;
}

void CollectVariable(const Term& term, std::set<std::string>& names) {
  if (const auto* variable = std::get_if<sparql::Variable>(&term)) names.insert(variable->name);
}

std::vector<std::string> VariablesOf(const sparql::Quads& quads) {
  std::set<std::string> names;
  for (const sparql::QuadsBlock& block : quads) {
    if (block.graph) CollectVariable(*block.graph, names);
    for (const sparql::TriplePattern& triple : block.triples) {
      CollectVariable(triple.subject, names);
      CollectVariable(triple.object, names);
      if (const Term* predicate = std::get_if<Term>(&triple.predicate)) CollectVariable(*predicate, names);
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace

// `?s ?p <x>` with ?p = rdf:type: the compiler refuses a type that is no class of the ontology,
// which no stored resource can have.
bool UpdateExecutor::NamesUnknownClass(const sparql::Quads& quads) const {
  for (const sparql::QuadsBlock& block : quads) {
    for (const sparql::TriplePattern& triple : block.triples) {
      const auto* object = std::get_if<sparql::Iri>(&triple.object);
      if (IsType(triple) && object && !ontology_.FindClass(object->iri)) return true;
    }
  }
  return false;
}

// When every triple with the variable predicate has one IRI as subject (`<a> ?p ?o`), the
// classes of <a> and their superclasses: only properties with one of them as domain can have a
// value there (the writer checks domains), so the other few hundred need no query.
Result<std::optional<std::set<std::string>>> UpdateExecutor::SubjectClasses(
    const sparql::Quads& quads, const std::string& variable) {
  const sparql::Iri* subject = nullptr;
  for (const sparql::QuadsBlock& block : quads) {
    for (const sparql::TriplePattern& triple : block.triples) {
      const sparql::Variable* predicate = PredicateVariable(triple);
      if (!predicate || predicate->name != variable) continue;
      const auto* iri = std::get_if<sparql::Iri>(&triple.subject);
      if (!iri || (subject && subject->iri != iri->iri)) return std::optional<std::set<std::string>>();
      subject = iri;
    }
  }
  std::set<std::string> classes{std::string(ontology::iri::kRdfsResource)};
  if (!subject) return std::optional<std::set<std::string>>(std::move(classes));
  QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, writer_.FindId(subject->iri));
  if (!id) return std::optional<std::set<std::string>>(std::move(classes));
  const schema::PropertyStorage types = schema::Names(ontology_).TypeStorage();
  QUARRY_ASSIGN_OR_RETURN(
      Statement statement,
      db_.Prepare(fmt::format("SELECT Uri FROM Resource WHERE ID IN (SELECT {} FROM {} WHERE ID = ?1)",
                              schema::Quote(types.column), schema::Quote(types.table))));
  QUARRY_TRY(statement.Bind(1, *id));
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
    if (!has_row) break;
    const std::string iri(statement.ColumnText(0));
    classes.insert(iri);
    for (const std::string& super : ontology_.SuperClassesOf(iri)) classes.insert(super);
  }
  return std::optional<std::set<std::string>>(std::move(classes));
}

sparql::GroupGraphPattern UpdateExecutor::DeleteWherePattern(const sparql::Quads& quads) {
  sparql::GroupGraphPattern where;
  for (const sparql::QuadsBlock& block : quads) {
    sparql::TriplesBlock triples{block.triples};
    if (block.graph) {
      sparql::GraphPattern graph{*block.graph, {}};
      graph.pattern.elements.push_back(sparql::PatternElement{std::move(triples)});
      where.elements.push_back(sparql::PatternElement{std::move(graph)});
    } else {
      where.elements.push_back(sparql::PatternElement{std::move(triples)});
    }
  }
  return where;
}

std::optional<std::string> UpdateExecutor::VariablePredicateOf(const sparql::Quads& quads) {
  for (const sparql::QuadsBlock& block : quads) {
    for (const sparql::TriplePattern& triple : block.triples) {
      if (const sparql::Variable* variable = PredicateVariable(triple)) return variable->name;
    }
  }
  return std::nullopt;
}

Result<void> UpdateExecutor::DeleteWhereEachProperty(const sparql::DeleteWhere& operation,
                                                     const std::string& variable) {
  QUARRY_ASSIGN_OR_RETURN(const std::optional<std::set<std::string>> domains,
                          SubjectClasses(operation.quads, variable));
  std::vector<std::string> iris;
  for (const ontology::Property& property : ontology_.properties()) {
    if (property.iri == sparql::kRdfType) continue;
    if (domains && !domains->count(property.domain)) continue;  // the subject cannot have it
    iris.push_back(property.iri);
  }
  iris.emplace_back(sparql::kRdfType);
  struct Match {
    sparql::Quads quads;
    std::vector<std::string> variables;
    Solutions solutions;
  };
  std::vector<Match> matches;
  QUARRY_TRY(writer_.Flush());  // earlier operations of the request are visible to the pattern
  for (const std::string& iri : iris) {
    Match match{BindVariable(operation.quads, variable, iri), {}, {}};
    if (const std::optional<std::string> other = VariablePredicateOf(match.quads)) {
      return Error(Errc::kUnsupported,
                   fmt::format("DELETE WHERE with two variable predicates (?{} and ?{}) needs an "
                               "open-mode store",
                               variable, *other));
    }
    if (iri == sparql::kRdfType && NamesUnknownClass(match.quads)) continue;  // cannot match
    match.variables = VariablesOf(match.quads);
    QUARRY_ASSIGN_OR_RETURN(const sparql::SqlQuery query,
                            sparql::TranslateSolutions(DeleteWherePattern(match.quads),
                                                       match.variables, ontology_, std::nullopt));
    auto solutions = ReadSolutions(db_, query);
    if (!solutions) return std::move(solutions).error().WithContext(fmt::format("WHERE, ?{} = <{}>", variable, iri));
    if (solutions->rows.empty()) continue;
    match.solutions = std::move(*solutions);
    matches.push_back(std::move(match));
  }
  for (const Match& match : matches) {
    QUARRY_TRY(DeleteSolutions(match.quads, match.variables, match.solutions));
  }
  return Ok();
}

}  // namespace quarry::engine
