#include "store/engine/construct_executor.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "store/engine/query_executor.h"

namespace quarry::engine {
namespace {

using schema::RdfTerm;
using sparql::Term;

// The template's variables, in first-use order (the SELECT's columns).
void AddVariable(const Term& term, std::vector<std::string>& names) {
  const auto* variable = std::get_if<sparql::Variable>(&term);
  if (!variable) return;
  for (const std::string& name : names) {
    if (name == variable->name) return;
  }
  names.push_back(variable->name);
}

Result<std::vector<std::string>> TemplateVariables(
    const std::vector<sparql::TriplePattern>& triples) {
  std::vector<std::string> names;
  for (const sparql::TriplePattern& triple : triples) {
    const Term* predicate = std::get_if<Term>(&triple.predicate);
    if (!predicate) {
      return Error(Errc::kInvalidArgument, "a CONSTRUCT template cannot hold a property path");
    }
    AddVariable(triple.subject, names);
    AddVariable(*predicate, names);
    AddVariable(triple.object, names);
  }
  return names;
}

// A query literal as the cursor returns literals: plain strings and language-tagged strings
// carry no datatype IRI, so equal terms compare equal whichever way they came.
RdfTerm LiteralTerm(const sparql::Literal& literal) {
  const bool implicit =
      literal.datatype_iri == sparql::kXsdString || literal.datatype_iri == sparql::kRdfLangString;
  return RdfTerm::Literal(literal.lexical, implicit ? std::string() : literal.datatype_iri,
                          literal.lang);
}

// One solution's view of the template: variables → values, blank node labels → fresh labels.
class Instantiation {
 public:
  Instantiation(const std::map<std::string, std::optional<RdfTerm>>& values,
                const QueryParameters& parameters, uint64_t& blank_counter)
      : values_(values), parameters_(parameters), blank_counter_(blank_counter) {}

  // nullopt: unbound in this solution.
  Result<std::optional<RdfTerm>> Of(const Term& term) {
    if (const auto* iri = std::get_if<sparql::Iri>(&term))
      return std::optional(RdfTerm::Iri(iri->iri));
    if (const auto* literal = std::get_if<sparql::Literal>(&term))
      return std::optional(LiteralTerm(*literal));
    if (const auto* variable = std::get_if<sparql::Variable>(&term)) {
      const auto found = values_.find(variable->name);
      return found == values_.end() ? std::nullopt : found->second;
    }
    if (const auto* blank = std::get_if<sparql::BlankNode>(&term)) {
      auto [label, added] = blanks_.try_emplace(blank->label);
      if (added) label->second = fmt::format("c{}", ++blank_counter_);
      return std::optional(RdfTerm::Blank(label->second));
    }
    const auto& parameter = std::get<sparql::Parameter>(term);
    const auto found = parameters_.find(parameter.name);
    if (found == parameters_.end()) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("parameter ~{} has no value", parameter.name));
    }
    return std::optional(found->second);
  }

 private:
  const std::map<std::string, std::optional<RdfTerm>>& values_;
  const QueryParameters& parameters_;
  uint64_t& blank_counter_;
  std::map<std::string, std::string> blanks_;
};

Result<void> Instantiate(const std::vector<sparql::TriplePattern>& triples, Instantiation& solution,
                         TripleSet& graph) {
  for (const sparql::TriplePattern& triple : triples) {
    QUARRY_ASSIGN_OR_RETURN(std::optional<RdfTerm> subject, solution.Of(triple.subject));
    QUARRY_ASSIGN_OR_RETURN(std::optional<RdfTerm> predicate,
                            solution.Of(std::get<Term>(triple.predicate)));
    QUARRY_ASSIGN_OR_RETURN(std::optional<RdfTerm> object, solution.Of(triple.object));
    if (!subject || !predicate || !object) continue;
    if (!subject->is_resource() || predicate->kind != RdfTerm::Kind::kIri) continue;
    graph.Add({std::move(*subject), std::move(predicate->value), std::move(*object)});
  }
  return Ok();
}

}  // namespace

Result<Cursor> RunSolutionQuery(Database& db, const SelectCompiler& compile, sparql::Query& query,
                                const std::vector<std::string>& variables, bool star,
                                const QueryParameters& parameters) {
  sparql::Query select;
  select.form = sparql::QueryForm::kSelect;
  select.base_iri = query.base_iri;
  select.prefixes = query.prefixes;
  select.select.star = star;
  for (const std::string& name : variables) {
    select.select.items.push_back({sparql::Variable{name}, nullptr});
  }
  select.dataset = std::move(query.dataset);
  select.has_where = query.has_where;
  select.where = std::move(query.where);
  select.modifiers = std::move(query.modifiers);
  select.values = std::move(query.values);
  QUARRY_ASSIGN_OR_RETURN(const sparql::SqlQuery compiled, compile(select));
  QUARRY_ASSIGN_OR_RETURN(Statement statement, PrepareQuery(db, compiled, parameters));
  return Cursor(std::move(statement), compiled.columns);
}

Result<TripleSet> RunConstruct(Database& db, const SelectCompiler& compile, sparql::Query query,
                               const QueryParameters& parameters) {
  const std::vector<sparql::TriplePattern> triples = std::move(query.construct_template);
  QUARRY_ASSIGN_OR_RETURN(const std::vector<std::string> variables, TemplateVariables(triples));
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor,
                          RunSolutionQuery(db, compile, query, variables, false, parameters));
  TripleSet graph;
  uint64_t blank_counter = 0;
  std::map<std::string, std::optional<RdfTerm>> values;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    for (int i = 0; i < cursor.ColumnCount(); ++i)
      values[cursor.VariableName(i)] = cursor.GetTerm(i);
    Instantiation solution(values, parameters, blank_counter);
    QUARRY_TRY(Instantiate(triples, solution, graph));
  }
  return graph;
}

}  // namespace quarry::engine
