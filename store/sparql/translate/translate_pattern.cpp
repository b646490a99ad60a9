// Group graph patterns: triple patterns → class/property tables, OPTIONAL, GRAPH, BIND, groups.
#include <fmt/format.h>

#include <algorithm>

#include "store/sparql/parser_impl.h"
#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

using ontology::Class;
using ontology::Property;
using schema::Quote;

Kind KindOf(const Property& property) {
  return property.type == ontology::ValueType::kResource ? Kind::kResource : Kind::kLiteral;
}

const Iri* AsIri(const Term& term) { return std::get_if<Iri>(&term); }

bool IsTypeTriple(const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  const Iri* iri = predicate ? AsIri(*predicate) : nullptr;
  return iri && iri->iri == kRdfType;
}

}  // namespace

// Kinds that can never be equal give a false condition. A dynamic value holds a resource as its
// IRI text and a dateTime in its lexical form (UNION, VALUES), so the typed side is converted.
std::string Equal(const SqlExpr& a, const SqlExpr& b) {
  if (a.kind == Kind::kTerm || b.kind == Kind::kTerm) return TermEqual(a, b);
  if ((a.kind == Kind::kResource) != (b.kind == Kind::kResource) &&
      a.kind != Kind::kDynamic && b.kind != Kind::kDynamic) {
    return "0";
  }
  if ((a.kind == Kind::kDynamic) != (b.kind == Kind::kDynamic)) {
    const SqlExpr& typed = a.kind == Kind::kDynamic ? b : a;
    const SqlExpr& dynamic = a.kind == Kind::kDynamic ? a : b;
    if (typed.kind == Kind::kResource) {
      return fmt::format("{} = {}", Translator::UriOf(typed.sql), dynamic.sql);
    }
    if (typed.type == ontology::ValueType::kDateTime) {
      return fmt::format("quarry_datetime({}) = {}", typed.sql, dynamic.sql);
    }
  }
  return fmt::format("{} = {}", a.sql, b.sql);
}

Error Unsupported(std::string_view what) {
  return Error(Errc::kUnsupported,
               fmt::format("{} is not supported yet by Quarry's SPARQL compiler", what));
}

std::string SubjectKey(const Term& term) {
  if (const auto* variable = std::get_if<Variable>(&term)) return "?" + variable->name;
  if (const auto* blank = std::get_if<BlankNode>(&term)) return "_:" + blank->label;
  if (const auto* iri = std::get_if<Iri>(&term)) return "<" + iri->iri;
  if (const auto* parameter = std::get_if<Parameter>(&term)) return "~" + parameter->name;
  return {};
}

std::string VariableKey(const Term& term) {
  if (const auto* variable = std::get_if<Variable>(&term)) return variable->name;
  if (const auto* blank = std::get_if<BlankNode>(&term)) return "_:" + blank->label;
  return {};
}

std::string Translator::NewAlias(std::string_view prefix) {
  return fmt::format("{}{}", prefix, ++alias_counter_);
}

std::string Translator::BindValue(schema::SqlValue value) {
  output_.binds.push_back(std::move(value));
  return fmt::format("?{}", output_.binds.size());
}

std::string Translator::BindParameter(const std::string& name, bool as_resource,
                                      ontology::ValueType type) {
  // One SQL parameter per use: the same ~name may be a resource in one place and a literal of
  // some type in another, and each use is encoded for its place. It takes the next number of
  // the constants' ?1..?N (a NULL there until bound): a named :pN would take whatever number
  // SQLite gives it where it first appears, which a constant after it may use too.
  const std::string sql = BindValue(std::monostate{});
  output_.parameters.push_back({static_cast<int>(output_.binds.size()), name, as_resource, type});
  return sql;
}

std::string Translator::IriId(const std::string& iri) {
  return fmt::format("(SELECT ID FROM Resource WHERE Uri = {})", BindValue(iri));
}

std::string Translator::UriOf(const std::string& id_sql) {
  return fmt::format("(SELECT coalesce(Uri, '_:b' || ID) FROM Resource WHERE ID = {})", id_sql);
}

Result<void> Translator::BindTerm(Fragment& fragment, const Term& term, const std::string& sql,
                                  Kind kind, ontology::ValueType type, bool table_column) {
  const std::string key = VariableKey(term);
  if (!key.empty()) {
    SqlExpr value{sql, kind, type};
    value.table_column = table_column;
    if (const auto found = fragment.vars.find(key); found != fragment.vars.end()) {
      if (fragment.nullable.count(key) && kind != Kind::kDynamic) {
        // Bound only by an OPTIONAL or BIND so far: an unbound value is compatible with this
        // table column, which is never NULL and so becomes the variable's value.
        fragment.conditions.push_back(
            fmt::format("({} IS NULL OR {})", found->second.sql, Equal(found->second, value)));
        found->second = value;
        fragment.nullable.erase(key);
      } else {
        fragment.conditions.push_back(Equal(found->second, value));
      }
    } else {
      fragment.vars.emplace(key, value);
      fragment.var_order.push_back(key);
    }
    return Ok();
  }
  if (const auto* iri = std::get_if<Iri>(&term)) {
    // A dynamic column (UNION, VALUES, paths mixing kinds) holds a resource as its IRI text.
    fragment.conditions.push_back(kind == Kind::kResource ? fmt::format("{} = {}", sql, IriId(iri->iri))
                                  : kind == Kind::kDynamic ? fmt::format("{} = {}", sql, BindValue(iri->iri))
                                                           : "0");
    return Ok();
  }
  if (const auto* literal = std::get_if<Literal>(&term)) {
    if (kind == Kind::kDynamic) {
      QUARRY_ASSIGN_OR_RETURN(const SqlExpr constant, TermExpr(term, fragment));
      fragment.conditions.push_back(Equal(SqlExpr{sql, kind, type}, constant));
      return Ok();
    }
    if (kind != Kind::kLiteral) {
      fragment.conditions.push_back("0");
      return Ok();
    }
    auto encoded = schema::EncodeLiteral(
        schema::RdfTerm::Literal(literal->lexical,
                                 literal->datatype_iri == kRdfLangString ? "" : literal->datatype_iri,
                                 literal->lang),
        type);
    fragment.conditions.push_back(encoded ? fmt::format("{} = {}", sql, BindValue(*encoded)) : "0");
    return Ok();
  }
  if (const auto* parameter = std::get_if<Parameter>(&term)) {
    const bool as_resource = kind == Kind::kResource;
    const std::string bound = BindParameter(parameter->name, as_resource, type);
    fragment.conditions.push_back(
        as_resource ? fmt::format("{} = (SELECT ID FROM Resource WHERE Uri = {})", sql, bound)
                    : fmt::format("{} = {}", sql, bound));
    return Ok();
  }
  return Error(Errc::kInternal, "unknown term kind");
}

Result<void> Translator::BindGraph(Fragment& fragment, const std::string& graph_column,
                                   const GraphContext& graph) {
  switch (graph.mode) {
    case GraphContext::Mode::kAny:
      if (dataset_.restricts_default) fragment.conditions.push_back(GraphFilter(graph_column, graph));
      return Ok();
    case GraphContext::Mode::kIri:
      if (const auto* iri = std::get_if<Iri>(&graph.graph)) {
        fragment.conditions.push_back(fmt::format("{} = {}", graph_column, IriId(iri->iri)));
        if (dataset_.restricts_named) fragment.conditions.push_back(GraphFilter(graph_column, graph));
        return Ok();
      }
      fragment.conditions.push_back(fmt::format("{} = 0", graph_column));  // the default graph
      return Ok();
    case GraphContext::Mode::kVariable:
      // GRAPH ?g ranges over named graphs only: the default graph (0) has no name.
      fragment.conditions.push_back(fmt::format("{} > 0", graph_column));
      if (dataset_.restricts_named) fragment.conditions.push_back(GraphFilter(graph_column, graph));
      return BindTerm(fragment, graph.graph, graph_column, Kind::kResource,
                      ontology::ValueType::kResource);
  }
  return Ok();
}

std::string Translator::AliasFor(Fragment& fragment, const Term& subject, const std::string& table,
                                 bool* is_new) {
  std::map<std::string, std::string>& tables = fragment.subject_tables[SubjectKey(subject)];
  if (const auto found = tables.find(table); found != tables.end()) {
    *is_new = false;
    return found->second;
  }
  const std::string alias = NewAlias();
  if (!fragment.from.empty()) fragment.from += ", ";
  fragment.from += fmt::format("{} AS {}", Quote(table), alias);
  tables.emplace(table, alias);
  *is_new = true;
  return alias;
}

Result<void> Translator::AddTypeTriple(Fragment& fragment, const TriplePattern& triple,
                                       const GraphContext& graph) {
  const Iri* class_iri = AsIri(triple.object);
  const Class* cls = class_iri ? ontology_.FindClass(class_iri->iri) : nullptr;
  if (class_iri && !cls) {
    return Error(Errc::kConstraint, fmt::format("unknown class <{}>", class_iri->iri));
  }
  const std::string key = SubjectKey(triple.subject);
  if (cls && SeesAllGraphs(graph)) {
    // A superclass of a class the subject already has adds nothing: skip the join.
    for (const auto& [known, alias] : fragment.subject_classes[key]) {
      if (ontology_.IsSubClassOf(known->iri, cls->iri)) return Ok();
    }
    bool is_new = false;
    const std::string alias = AliasFor(fragment, triple.subject, names_.ClassTable(*cls), &is_new);
    fragment.subject_classes[key].emplace_back(cls, alias);
    if (!is_new) return Ok();
    return BindTerm(fragment, triple.subject, alias + ".ID", Kind::kResource,
                    ontology::ValueType::kResource);
  }
  const schema::PropertyStorage types = names_.TypeStorage();
  const std::string alias = NewAlias();
  if (!fragment.from.empty()) fragment.from += ", ";
  fragment.from += fmt::format("{} AS {}", Quote(types.table), alias);
  QUARRY_TRY(BindTerm(fragment, triple.subject, alias + ".ID", Kind::kResource,
                      ontology::ValueType::kResource));
  QUARRY_TRY(BindTerm(fragment, triple.object, fmt::format("{}.{}", alias, Quote(types.column)),
                      Kind::kResource, ontology::ValueType::kResource));
  return BindGraph(fragment, fmt::format("{}.{}", alias, Quote(types.graph_column)), graph);
}

Result<void> Translator::AddTriple(Fragment& fragment, const TriplePattern& triple,
                                   const GraphContext& graph) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  if (!predicate) return AddPath(fragment, triple, graph);
  if (IsFtsMatch(triple)) return AddFtsMatch(fragment, triple);
  if (UsesQuads(triple)) return AddQuadTriple(fragment, triple, graph);
  const Iri* predicate_iri = AsIri(*predicate);
  if (!predicate_iri) return Unsupported("a variable or parameter in predicate position");
  if (predicate_iri->iri == kRdfType) return AddTypeTriple(fragment, triple, graph);
  const Property* property = ontology_.FindProperty(predicate_iri->iri);
  if (!property) {
    return Error(Errc::kConstraint, fmt::format("unknown property <{}>", predicate_iri->iri));
  }
  if (std::holds_alternative<Literal>(triple.subject)) {
    fragment.conditions.push_back("0");  // a literal subject matches nothing
    return Ok();
  }
  const schema::PropertyStorage storage = names_.StorageOf(*property);
  std::string alias;
  std::string column = Quote(storage.column);
  bool is_new = true;
  if (!storage.multi_valued && SeesAllGraphs(graph)) {
    // The seed's domain index: read the mirror column of a class the subject is known to have.
    for (const auto& [cls, class_alias] : fragment.subject_classes[SubjectKey(triple.subject)]) {
      if (std::find(cls->domain_indexes.begin(), cls->domain_indexes.end(), property->iri) !=
          cls->domain_indexes.end()) {
        alias = class_alias;
        column = Quote(names_.MirrorColumn(*property));
        is_new = false;
        break;
      }
    }
  }
  if (alias.empty()) {
    if (storage.multi_valued) {
      alias = NewAlias();
      if (!fragment.from.empty()) fragment.from += ", ";
      fragment.from += fmt::format("{} AS {}", Quote(storage.table), alias);
    } else {
      alias = AliasFor(fragment, triple.subject, storage.table, &is_new);
    }
  }
  if (is_new) {
    QUARRY_TRY(BindTerm(fragment, triple.subject, alias + ".ID", Kind::kResource,
                        ontology::ValueType::kResource));
  }
  const std::string value = fmt::format("{}.{}", alias, column);
  fragment.conditions.push_back(value + " IS NOT NULL");
  QUARRY_TRY(BindTerm(fragment, triple.object, value, KindOf(*property), property->type,
                      /*table_column=*/true));
  return BindGraph(fragment, fmt::format("{}.{}", alias, Quote(storage.graph_column)), graph);
}

Result<void> Translator::Join(Fragment& into, Fragment other) {
  if (!other.from.empty()) {
    if (!into.from.empty()) into.from += ", ";
    into.from += other.from;
  }
  for (std::string& condition : other.conditions) into.conditions.push_back(std::move(condition));
  for (const std::string& name : other.var_order) {
    const SqlExpr& value = other.vars.at(name);
    const auto found = into.vars.find(name);
    if (found == into.vars.end()) {
      into.vars.emplace(name, value);
      into.var_order.push_back(name);
      if (other.nullable.count(name)) into.nullable.insert(name);
      continue;
    }
    const bool either_nullable = into.nullable.count(name) || other.nullable.count(name);
    if (!either_nullable) {
      into.conditions.push_back(Equal(found->second, value));
      continue;
    }
    into.conditions.push_back(fmt::format("({0} IS NULL OR {1} IS NULL OR {2})", found->second.sql,
                                          value.sql, Equal(found->second, value)));
    // A side that is always bound is the joined value (the other equals it when bound): it
    // keeps its kind, so an open-mode term joined with a VALUES column stays the stored term.
    if (!into.nullable.count(name)) continue;
    if (!other.nullable.count(name)) {
      found->second = value;
      into.nullable.erase(name);
      continue;
    }
    const SqlExpr common = CommonKind({found->second, value});
    found->second = {fmt::format("coalesce({}, {})", Convert(found->second, common), Convert(value, common)),
                     common.kind, common.type};
    if (!(into.nullable.count(name) && other.nullable.count(name))) into.nullable.erase(name);
  }
  return Ok();
}

Result<void> Translator::JoinGraphName(Fragment& fragment, const std::string& hidden,
                                       const std::string& name) {
  const auto found = fragment.vars.find(hidden);
  if (found == fragment.vars.end()) {
    return Error(Errc::kInternal, fmt::format("GRAPH ?{}: the graph column is not bound", name));
  }
  Fragment graph;
  graph.vars.emplace(name, found->second);
  graph.var_order.push_back(name);
  if (fragment.nullable.count(hidden)) graph.nullable.insert(name);
  fragment.vars.erase(found);
  fragment.nullable.erase(hidden);
  std::erase(fragment.var_order, hidden);
  return Join(fragment, std::move(graph));
}

Result<void> Translator::LeftJoin(Fragment& into, Fragment optional) {
  const std::string alias = NewAlias("o");
  std::string columns;
  Fragment merged_scope = into;  // outer variables plus the optional's, for its filters
  std::vector<std::string> on;
  for (const std::string& name : optional.var_order) {
    const SqlExpr& inner = optional.vars.at(name);
    const std::string column = fmt::format("{}.{}", alias, Quote("v_" + name));
    columns += fmt::format("{}{} AS {}", columns.empty() ? "" : ", ", inner.sql, Quote("v_" + name));
    const SqlExpr outer_value{column, inner.kind, inner.type};
    if (const auto found = into.vars.find(name); found != into.vars.end()) {
      on.push_back(into.nullable.count(name)
                       ? fmt::format("({} IS NULL OR {})", found->second.sql,
                                     Equal(found->second, outer_value))
                       : Equal(found->second, outer_value));
      if (into.nullable.count(name)) {
        into.vars[name].sql = fmt::format("coalesce({}, {})", found->second.sql, column);
      }
    } else {
      into.vars.emplace(name, outer_value);
      into.var_order.push_back(name);
      into.nullable.insert(name);
      merged_scope.vars.emplace(name, outer_value);
    }
  }
  for (const Expr* filter : optional.filters) {
    QUARRY_ASSIGN_OR_RETURN(std::string condition, Condition(*filter, merged_scope));
    on.push_back(std::move(condition));
  }
  if (columns.empty()) columns = "1 AS one";
  std::string where;
  for (const std::string& condition : optional.conditions) {
    where += (where.empty() ? " WHERE " : " AND ") + condition;
  }
  std::string on_sql;
  for (const std::string& condition : on) on_sql += (on_sql.empty() ? "" : " AND ") + condition;
  if (on_sql.empty()) on_sql = "1";
  if (into.from.empty()) into.from = fmt::format("(SELECT 1) AS {}", NewAlias("unit"));
  into.from += fmt::format(" LEFT JOIN (SELECT {} {}{}) AS {} ON {}", columns,
                           optional.from.empty() ? "" : "FROM " + optional.from, where, alias,
                           on_sql);
  return Ok();
}

Result<void> Translator::AddBind(Fragment& fragment, const sparql::Bind& bind) {
  if (fragment.vars.count(bind.variable.name)) {
    return Error(Errc::kParse, fmt::format("BIND assigns ?{}, which is already bound in the group",
                                           bind.variable.name));
  }
  QUARRY_ASSIGN_OR_RETURN(SqlExpr value, Expression(bind.expr, fragment));
  fragment.vars.emplace(bind.variable.name, std::move(value));
  fragment.var_order.push_back(bind.variable.name);
  fragment.nullable.insert(bind.variable.name);  // an expression error leaves it unbound
  return Ok();
}

Result<Fragment> Translator::Group(const GroupGraphPattern& group, const GraphContext& graph,
                                   bool defer_filters) {
  // EXISTS in this group's FILTERs matches in the same graph (§18.6: evaluated in the active
  // graph); restored when the group is done.
  struct ActiveGraph {
    GraphContext& slot;
    GraphContext saved;
    ~ActiveGraph() { slot = saved; }
  } active{active_graph_, active_graph_};
  active_graph_ = graph;
  Fragment fragment;
  for (const PatternElement& element : group.elements) {
    if (const auto* block = std::get_if<TriplesBlock>(&element.node)) {
      // rdf:type first, most specific class first, so later patterns can use what they imply.
      std::vector<const TriplePattern*> ordered;
      for (const TriplePattern& triple : block->triples) ordered.push_back(&triple);
      std::stable_sort(ordered.begin(), ordered.end(), [&](const TriplePattern* a, const TriplePattern* b) {
        const auto rank = [&](const TriplePattern* t) -> size_t {
          if (!IsTypeTriple(*t)) return 0;
          const Iri* iri = AsIri(t->object);
          return 1 + (iri ? ontology_.SuperClassesOf(iri->iri).size() : 0);
        };
        return rank(a) > rank(b);
      });
      for (const TriplePattern* triple : ordered) QUARRY_TRY(AddTriple(fragment, *triple, graph));
    } else if (const auto* filter = std::get_if<Filter>(&element.node)) {
      fragment.filters.push_back(&filter->expr);
    } else if (const auto* optional = std::get_if<OptionalPattern>(&element.node)) {
      if (OptionalFromJoinedRow(fragment, optional->pattern, graph)) continue;
      QUARRY_ASSIGN_OR_RETURN(Fragment inner, Group(optional->pattern, graph, /*defer_filters=*/true));
      QUARRY_TRY(LeftJoin(fragment, std::move(inner)));
    } else if (const auto* nested = std::get_if<NestedGroup>(&element.node)) {
      QUARRY_ASSIGN_OR_RETURN(Fragment inner, Group(nested->pattern, graph));
      QUARRY_TRY(Join(fragment, std::move(inner)));
    } else if (const auto* graph_pattern = std::get_if<GraphPattern>(&element.node)) {
      GraphContext inner_graph;
      inner_graph.graph = graph_pattern->graph;
      inner_graph.mode = std::holds_alternative<Iri>(graph_pattern->graph)
                             ? GraphContext::Mode::kIri
                             : GraphContext::Mode::kVariable;
      if (std::holds_alternative<Parameter>(graph_pattern->graph)) {
        return Unsupported("a parameter as graph name");
      }
      // GRAPH ?g { P } where P binds ?g itself (?s ?p ?g, OPTIONAL { … ?g }): P is evaluated
      // in each named graph with ?g an ordinary variable of P, then joined with ?g = that
      // graph (§18.6 Graph). The graph then goes by a name no query can write, so P's own ?g
      // (unbound where an OPTIONAL did not match) is joined afterwards, not forced to it.
      const std::string graph_name = VariableKey(graph_pattern->graph);
      std::vector<std::string> pattern_names;
      if (!graph_name.empty()) AddInScopeVariables(graph_pattern->pattern, pattern_names);
      const bool binds_graph_name =
          std::find(pattern_names.begin(), pattern_names.end(), graph_name) != pattern_names.end();
      if (binds_graph_name) inner_graph.graph = Variable{" graph" + NewAlias("")};
      QUARRY_ASSIGN_OR_RETURN(Fragment inner, Group(graph_pattern->pattern, inner_graph));
      if (graph_pattern->pattern.elements.empty()) {
        // GRAPH g {}: one empty solution per named graph that exists (and g is one of them).
        const std::string alias = NewAlias("g");
        inner.from = fmt::format("{} AS {}", Quote(schema::kGraphTable), alias);
        QUARRY_TRY(BindGraph(inner, alias + ".ID", inner_graph));
      } else if (const std::string name = VariableKey(inner_graph.graph);
                 !name.empty() && (!inner.vars.count(name) || inner.nullable.count(name))) {
        // GRAPH ?g { VALUES … } (no triple binds ?g, or only an UNDEF may): each solution is
        // still one of a named graph, so ?g ranges over the named graphs.
        Fragment graphs;
        const std::string alias = NewAlias("g");
        graphs.from = fmt::format("{} AS {}", Quote(schema::kGraphTable), alias);
        QUARRY_TRY(BindGraph(graphs, alias + ".ID", inner_graph));
        QUARRY_TRY(Join(inner, std::move(graphs)));
      }
      if (binds_graph_name) {
        QUARRY_TRY(JoinGraphName(inner, VariableKey(inner_graph.graph), graph_name));
      }
      QUARRY_TRY(Join(fragment, std::move(inner)));
    } else if (const auto* bind = std::get_if<sparql::Bind>(&element.node)) {
      QUARRY_TRY(AddBind(fragment, *bind));
    } else if (const auto* union_pattern = std::get_if<UnionPattern>(&element.node)) {
      QUARRY_TRY(AddUnion(fragment, *union_pattern, graph));
    } else if (const auto* minus = std::get_if<MinusPattern>(&element.node)) {
      QUARRY_TRY(AddMinus(fragment, *minus, graph));
    } else if (const auto* data = std::get_if<InlineData>(&element.node)) {
      QUARRY_ASSIGN_OR_RETURN(Fragment inner, Values(*data));
      QUARRY_TRY(Join(fragment, std::move(inner)));
    } else if (std::holds_alternative<ServicePattern>(element.node)) {
      return Unsupported("SERVICE");
    } else {
      const auto& sub_select = std::get<std::unique_ptr<SubSelect>>(element.node);
      QUARRY_ASSIGN_OR_RETURN(Fragment inner, SubQuery(*sub_select, graph));
      QUARRY_TRY(Join(fragment, std::move(inner)));
    }
  }
  if (!defer_filters) {
    for (const Expr* filter : fragment.filters) {
      QUARRY_ASSIGN_OR_RETURN(std::string condition, Condition(*filter, fragment));
      fragment.conditions.push_back(std::move(condition));
    }
    fragment.filters.clear();
  }
  return fragment;
}

}  // namespace quarry::sparql::translate
