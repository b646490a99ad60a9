// Sub-SELECT in a group (SPARQL 1.1 §12): a derived table with its own projection, aggregates,
// GROUP BY, ORDER BY and LIMIT, joined to the group on the variables it projects. Values keep
// their stored encoding (resource IDs), so the join compares them without lookups.
#include <fmt/format.h>

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

Result<Fragment> SubQueryBody(Translator& translator, const SubSelect& select, const GraphContext& graph) {
  QUARRY_ASSIGN_OR_RETURN(Fragment where, translator.Group(select.where, graph));
  if (select.values) {
    QUARRY_ASSIGN_OR_RETURN(Fragment data, translator.Values(*select.values));
    QUARRY_TRY(translator.Join(where, std::move(data)));
  }
  QUARRY_TRY(BindGroupAliases(translator, select.modifiers, where));
  QUARRY_ASSIGN_OR_RETURN(const std::vector<ProjectedVar> projected, Projection(translator, select.select, where));
  QUARRY_ASSIGN_OR_RETURN(const std::string tail, SolutionTail(translator, select.modifiers, where));
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
