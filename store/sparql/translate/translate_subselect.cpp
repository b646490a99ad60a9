// Sub-SELECT in a group (SPARQL 1.1 §12): a derived table with its own projection, aggregates,
// GROUP BY, ORDER BY and LIMIT, joined to the group on the variables it projects. Values keep
// their stored encoding (resource IDs), so the join compares them without lookups.
#include <fmt/format.h>

#include "store/sparql/parser_impl.h"
#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

struct ProjectedVar {
  std::string name;
  SqlExpr value;
  bool nullable = false;
};

bool IsBlankKey(const std::string& name) { return name.rfind("_:", 0) == 0; }

Result<std::vector<ProjectedVar>> Projection(Translator& translator, const SelectClause& select,
                                             const Fragment& where) {
  std::vector<ProjectedVar> projected;
  if (select.star) {
    for (const std::string& name : where.var_order) {
      if (!IsBlankKey(name)) projected.push_back({name, where.vars.at(name), where.nullable.count(name) > 0});
    }
    return projected;
  }
  for (const SelectItem& item : select.items) {
    if (!item.variable) {
      return Error(Errc::kParse, "an expression in a sub-select needs a name: (expression AS ?name)");
    }
    const std::string& name = item.variable->name;
    if (!item.expr) {
      // A bound variable keeps its stored encoding (an open-mode term ID stays one, so an IRI
      // is still an IRI outside); Expression() would give a term's comparable value.
      if (const auto found = where.vars.find(name); found != where.vars.end()) {
        projected.push_back({name, found->second, where.nullable.count(name) > 0});
        continue;
      }
      QUARRY_ASSIGN_OR_RETURN(SqlExpr value, translator.Expression(Expr{Term{*item.variable}}, where));
      projected.push_back({name, value, !where.vars.count(name) || where.nullable.count(name) > 0});
      continue;
    }
    QUARRY_ASSIGN_OR_RETURN(SqlExpr value, translator.Expression(*item.expr, where, true));
    translator.projected().emplace(name, value);
    projected.push_back({name, value, true});  // an expression error leaves it unbound
  }
  return projected;
}

bool IsAggregated(const SubSelect& select) {
  if (!select.modifiers.group_by.empty() || !select.modifiers.having.empty()) return true;
  for (const SelectItem& item : select.select.items) {
    if (item.expr && ContainsAggregate(*item.expr)) return true;
  }
  return false;
}

bool HasSliceModifiers(const SolutionModifiers& modifiers) {
  return modifiers.limit || modifiers.offset || modifiers.limit_parameter ||
         modifiers.offset_parameter;
}

// GRAPH ?g { SELECT … } whose projection leaves ?g out: the sub-select is evaluated in each
// named graph (§18.6 Graph), so ?g becomes one more grouping key and projected column. The
// name of ?g's column when that applies; empty when the sub-select projects ?g itself, no
// pattern of it reads a graph, or LIMIT/OFFSET (a slice per graph) would be needed.
std::string PerGraphName(const SubSelect& select, const GraphContext& graph, const Fragment& where,
                         const std::vector<ProjectedVar>& projected) {
  if (graph.mode != GraphContext::Mode::kVariable) return {};
  const std::string name = VariableKey(graph.graph);
  if (name.empty() || where.from.empty() || !where.vars.count(name) || where.nullable.count(name)) {
    return {};
  }
  if (HasSliceModifiers(select.modifiers)) return {};
  for (const ProjectedVar& var : projected) {
    if (var.name == name) return {};
  }
  return name;
}

// An aggregated sub-select without GROUP BY under GRAPH ?g (PerGraphName; ?g projected last):
// its solutions form one group even when empty (COUNT 0, §18.5.1), so each named graph without
// a solution still gets a row, the aggregates of an empty group.
Result<std::string> EmptyGraphRows(Translator& translator, const SubSelect& select,
                                   const GraphContext& graph, const Fragment& where,
                                   const std::vector<ProjectedVar>& projected) {
  const ProjectedVar& graph_var = projected.back();
  std::string columns;
  for (size_t i = 0; i + 1 < projected.size(); ++i) {
    columns += fmt::format("{}{} AS {}", columns.empty() ? "" : ", ", projected[i].value.sql,
                           schema::Quote("v_" + projected[i].name));
  }
  QUARRY_ASSIGN_OR_RETURN(const std::string tail,
                          SolutionTail(translator, select.modifiers, where));
  std::string matched = fmt::format("SELECT {} FROM {}", graph_var.value.sql, where.from);
  for (size_t i = 0; i < where.conditions.size(); ++i) {
    matched += (i == 0 ? " WHERE " : " AND ") + where.conditions[i];
  }
  const std::string graphs = translator.NewAlias("g"), empty = translator.NewAlias("e");
  return fmt::format(
      "SELECT {0}.*, {1}.ID AS {2} FROM {3} AS {1}, (SELECT {4} FROM {5} WHERE 0{6}) AS {0} "
      "WHERE {7} AND {1}.ID NOT IN ({8})",
      empty, graphs, schema::Quote("v_" + graph_var.name), schema::Quote(schema::kGraphTable),
      columns.empty() ? "1 AS one" : columns, where.from, tail,
      translator.EdgeGraph(graphs + ".ID", graph), matched);
}

Result<Fragment> SubQueryBody(Translator& translator, const SubSelect& select, const GraphContext& graph) {
  QUARRY_ASSIGN_OR_RETURN(Fragment where, translator.Group(select.where, graph));
  if (select.values) {
    QUARRY_ASSIGN_OR_RETURN(Fragment data, translator.Values(*select.values));
    QUARRY_TRY(translator.Join(where, std::move(data)));
  }
  QUARRY_TRY(BindGroupAliases(translator, select.modifiers, where));
  QUARRY_ASSIGN_OR_RETURN(std::vector<ProjectedVar> projected,
                          Projection(translator, select.select, where));
  const std::string graph_name = PerGraphName(select, graph, where, projected);
  const bool aggregated = IsAggregated(select);
  QUARRY_ASSIGN_OR_RETURN(std::string tail, SolutionTail(translator, select.modifiers, where));
  if (!graph_name.empty()) {
    projected.push_back({graph_name, where.vars.at(graph_name), false});
    if (aggregated) {  // the graph is the first grouping key; the tail starts with GROUP BY
      constexpr std::string_view kGroupBy = " GROUP BY ";
      const std::string rest =
          select.modifiers.group_by.empty() ? tail : ", " + tail.substr(kGroupBy.size());
      tail = std::string(kGroupBy) + where.vars.at(graph_name).sql + rest;
    }
  }
  const std::string alias = translator.NewAlias("s");
  Fragment fragment;
  std::string columns;
  for (const ProjectedVar& var : projected) {
    const std::string column = schema::Quote("v_" + var.name);
    columns += fmt::format("{}{} AS {}", columns.empty() ? "" : ", ", var.value.sql, column);
    if (fragment.vars.count(var.name)) continue;  // projected twice: one column is enough
    fragment.vars.emplace(var.name, SqlExpr{fmt::format("{}.{}", alias, column), var.value.kind, var.value.type});
    fragment.var_order.push_back(var.name);
    if (var.nullable) fragment.nullable.insert(var.name);
  }
  std::string sql = select.select.distinct ? "SELECT DISTINCT " : "SELECT ";
  sql += columns.empty() ? "1 AS one" : columns;
  if (!where.from.empty()) sql += " FROM " + where.from;
  for (size_t i = 0; i < where.conditions.size(); ++i) {
    sql += (i == 0 ? " WHERE " : " AND ") + where.conditions[i];
  }
  if (!graph_name.empty() && aggregated && select.modifiers.group_by.empty()) {
    QUARRY_ASSIGN_OR_RETURN(const std::string empty_graphs,
                            EmptyGraphRows(translator, select, graph, where, projected));
    fragment.from = fmt::format("(SELECT * FROM ({}{}) UNION ALL {}) AS {}", sql, tail,
                                empty_graphs, alias);
    return fragment;
  }
  fragment.from = fmt::format("({}{}) AS {}", sql, tail, alias);
  return fragment;
}

}  // namespace

Result<Fragment> Translator::SubQuery(const SubSelect& select, const GraphContext& graph) {
  // The outer query's projected names must not leak in, nor the sub-select's out.
  std::map<std::string, SqlExpr> outer_projected = std::move(projected_);
  projected_.clear();
  Result<Fragment> fragment = SubQueryBody(*this, select, graph);
  projected_ = std::move(outer_projected);
  return fragment;
}

}  // namespace quarry::sparql::translate
