// Query forms and solution modifiers: projection, DISTINCT, GROUP BY/HAVING, ORDER BY,
// LIMIT/OFFSET, ASK; and the solution queries of updates.
#include <fmt/format.h>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/translator.h"
#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql {
namespace {

using translate::Fragment;
using translate::GraphContext;
using translate::Kind;
using translate::SqlExpr;
using translate::Translator;

OutputColumn ColumnOf(const std::string& name, const SqlExpr& value, bool resolve_resources) {
  OutputColumn column;
  column.name = name;
  switch (value.kind) {
    case Kind::kResource:
      column.kind = resolve_resources ? ColumnKind::kResource : ColumnKind::kResourceId;
      break;
    case Kind::kLiteral:
      column.kind = ColumnKind::kLiteral;
      column.type = value.type;
      break;
    case Kind::kDynamic:
      // An IRI computed as text (DATATYPE, UUID, BNODE; translate/builtin_helpers.h).
      column.kind = resolve_resources && value.type == ontology::ValueType::kResource
                        ? ColumnKind::kResource
                        : ColumnKind::kDynamic;
      break;
    case Kind::kTerm:  // open mode: update solutions keep the raw term ID
      column.kind = resolve_resources ? ColumnKind::kTerm : ColumnKind::kResourceId;
      break;
  }
  return column;
}

std::string FromWhere(const Fragment& fragment) {
  std::string sql;
  if (!fragment.from.empty()) sql += " FROM " + fragment.from;
  for (size_t i = 0; i < fragment.conditions.size(); ++i) {
    sql += (i == 0 ? " WHERE " : " AND ") + fragment.conditions[i];
  }
  return sql;
}

std::string Modifiers(const SolutionModifiers& modifiers) {
  std::string sql;
  if (modifiers.limit || modifiers.offset) {
    sql += fmt::format(" LIMIT {}", modifiers.limit.value_or(-1));
    if (modifiers.offset) sql += fmt::format(" OFFSET {}", *modifiers.offset);
  }
  return sql;
}

Result<void> Project(Translator& translator, const Query& query, const Fragment& fragment,
                     std::vector<std::string>& select_list) {
  SqlQuery& output = translator.output();
  const auto add = [&](const std::string& name, const SqlExpr& value) {
    if (value.kind == Kind::kDynamic && !value.output.empty()) {  // keeps its datatype
      select_list.push_back(fmt::format("{} AS {}", value.output, schema::Quote(name)));
      output.columns.push_back(OutputColumn{name, ColumnKind::kTerm});
      return;
    }
    const OutputColumn column = ColumnOf(name, value, true);
    std::string sql = value.kind == Kind::kResource ? Translator::UriOf(value.sql) : value.sql;
    if (column.kind == ColumnKind::kTerm) {
      // An aggregate's term ID (MIN/MAX/SAMPLE) cannot sit in TermOutputSql's subqueries.
      sql = value.is_aggregate ? fmt::format("quarry_term_output({})", value.sql)
                               : schema::TermOutputSql(value.sql);
    }
    select_list.push_back(fmt::format("{} AS {}", sql, schema::Quote(name)));
    output.columns.push_back(column);
  };
  if (query.select.star) {
    for (const std::string& name : fragment.var_order) {
      if (name.rfind("_:", 0) != 0) add(name, fragment.vars.at(name));
    }
    return Ok();
  }
  int unnamed = 0;
  for (const SelectItem& item : query.select.items) {
    const std::string name = item.variable ? item.variable->name : fmt::format("_{}", ++unnamed);
    const auto term = item.variable ? fragment.vars.find(item.variable->name) : fragment.vars.end();
    if (!item.expr && term != fragment.vars.end() && term->second.kind == Kind::kTerm) {
      add(name, term->second);  // keeps the datatype and language of an open-mode value
      continue;
    }
    if (!item.expr) {
      QUARRY_ASSIGN_OR_RETURN(SqlExpr value, translator.Expression(Expr{Term{*item.variable}}, fragment));
      add(name, value);
      continue;
    }
    QUARRY_ASSIGN_OR_RETURN(SqlExpr value, translator.Expression(*item.expr, fragment, true));
    QUARRY_ASSIGN_OR_RETURN(const std::optional<std::string> typed, translator.ProjectedTerm(*item.expr, fragment));
    if (typed) {
      select_list.push_back(fmt::format("{} AS {}", *typed, schema::Quote(name)));
      output.columns.push_back(OutputColumn{name, ColumnKind::kTerm});
    } else {
      add(name, value);
    }
    translator.projected().emplace(name, value);
  }
  return Ok();
}

}  // namespace

Result<std::string> translate::SolutionTail(Translator& translator, const SolutionModifiers& modifiers,
                                            const Fragment& fragment) {
  std::string sql;
  for (size_t i = 0; i < modifiers.group_by.size(); ++i) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr key, translator.Expression(modifiers.group_by[i].expr, fragment));
    sql += (i == 0 ? " GROUP BY " : ", ") + key.sql;
  }
  for (size_t i = 0; i < modifiers.having.size(); ++i) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr condition, translator.Expression(modifiers.having[i], fragment, true));
    sql += (i == 0 ? " HAVING " : " AND ") + condition.sql;
  }
  for (size_t i = 0; i < modifiers.order_by.size(); ++i) {
    const OrderCondition& order = modifiers.order_by[i];
    QUARRY_ASSIGN_OR_RETURN(SqlExpr key, translator.Expression(order.expr, fragment, true));
    const std::string key_sql = key.kind == Kind::kResource ? Translator::UriOf(key.sql) : key.sql;
    sql += fmt::format("{}{}{}", i == 0 ? " ORDER BY " : ", ", key_sql, order.descending ? " DESC" : "");
  }
  return sql + Modifiers(modifiers);
}

Result<void> translate::BindGroupAliases(Translator& translator, const SolutionModifiers& modifiers,
                                         Fragment& fragment) {
  for (const GroupCondition& condition : modifiers.group_by) {
    if (!condition.variable || fragment.vars.count(condition.variable->name)) continue;
    QUARRY_ASSIGN_OR_RETURN(SqlExpr key, translator.Expression(condition.expr, fragment));
    fragment.vars.emplace(condition.variable->name, std::move(key));
    fragment.var_order.push_back(condition.variable->name);
  }
  return Ok();
}

namespace {

bool HasAggregate(const Expr& expr);

bool AnyAggregate(const std::vector<Expr>& exprs) {
  for (const Expr& expr : exprs) {
    if (HasAggregate(expr)) return true;
  }
  return false;
}

bool HasAggregate(const Expr& expr) {
  if (std::holds_alternative<Aggregate>(expr.node)) return true;
  if (const auto* binary = std::get_if<BinaryExpr>(&expr.node)) {
    return HasAggregate(*binary->left) || HasAggregate(*binary->right);
  }
  if (const auto* unary = std::get_if<UnaryExpr>(&expr.node)) return HasAggregate(*unary->operand);
  if (const auto* call = std::get_if<BuiltinCall>(&expr.node)) return AnyAggregate(call->args);
  if (const auto* call = std::get_if<FunctionCall>(&expr.node)) return AnyAggregate(call->args);
  if (const auto* in = std::get_if<In>(&expr.node)) return HasAggregate(*in->operand) || AnyAggregate(in->list);
  return false;
}

Result<void> CheckSupported(const Query& query) {
  if (query.form == QueryForm::kConstruct) return translate::Unsupported("CONSTRUCT");
  if (query.form == QueryForm::kDescribe) return translate::Unsupported("DESCRIBE");
  bool grouped = !query.modifiers.group_by.empty();
  for (const SelectItem& item : query.select.items) grouped = grouped || (item.expr && HasAggregate(*item.expr));
  if (query.values && grouped) {
    // §18.2.4.3 joins trailing VALUES after grouping; inside the WHERE clause it would join
    // before, which counts differently.
    return translate::Unsupported("trailing VALUES with GROUP BY or aggregates (write it inside WHERE)");
  }
  return Ok();
}

translate::Dataset DatasetOf(const std::vector<DatasetClause>& clauses, bool open_mode) {
  translate::Dataset dataset;
  for (const DatasetClause& clause : clauses) {
    if (clause.named) {
      dataset.restricts_named = true;
      dataset.named_graphs.push_back(clause.iri);
    } else {
      dataset.default_graphs.push_back(clause.iri);
    }
  }
  // A dataset description replaces the whole dataset (§13.2): only FROM NAMED leaves the
  // default graph empty, only FROM leaves no named graphs.
  dataset.restricts_default = dataset.restricts_named = !clauses.empty();
  if (open_mode && clauses.empty()) {
    dataset.restricts_default = true;
    dataset.default_is_graph0 = true;
  }
  return dataset;
}

// The WHERE clause with the trailing VALUES joined to it.
Result<Fragment> Where(Translator& translator, const Query& query) {
  QUARRY_ASSIGN_OR_RETURN(Fragment fragment, translator.Group(query.where, GraphContext{}));
  if (!query.values) return fragment;
  QUARRY_ASSIGN_OR_RETURN(Fragment data, translator.Values(*query.values));
  QUARRY_TRY(translator.Join(fragment, std::move(data)));
  return fragment;
}

}  // namespace

Result<SqlQuery> TranslateQuery(const Query& query, const ontology::Ontology& ontology,
                                bool open_mode) {
  QUARRY_TRY(CheckSupported(query));
  Translator translator(ontology);
  translator.set_open_mode(open_mode);
  translator.set_base_iri(query.base_iri);
  translator.SetDataset(DatasetOf(query.dataset, open_mode));
  QUARRY_ASSIGN_OR_RETURN(Fragment fragment, Where(translator, query));
  if (query.form == QueryForm::kAsk) {
    translator.output().sql = fmt::format("SELECT EXISTS (SELECT 1{}) AS ask", FromWhere(fragment));
    translator.output().columns.push_back({"ask", ColumnKind::kLiteral, ontology::ValueType::kBoolean});
    return std::move(translator.output());
  }
  QUARRY_TRY(translate::BindGroupAliases(translator, query.modifiers, fragment));
  std::vector<std::string> select_list;
  QUARRY_TRY(Project(translator, query, fragment, select_list));
  QUARRY_ASSIGN_OR_RETURN(std::string tail, translate::SolutionTail(translator, query.modifiers, fragment));
  std::string sql = query.select.distinct ? "SELECT DISTINCT " : "SELECT ";
  for (size_t i = 0; i < select_list.size(); ++i) sql += (i ? ", " : "") + select_list[i];
  if (select_list.empty()) sql += "1";
  translator.output().sql = sql + FromWhere(fragment) + tail;
  return std::move(translator.output());
}

Result<SqlQuery> TranslateSolutions(const GroupGraphPattern& where,
                                    const std::vector<std::string>& variables,
                                    const ontology::Ontology& ontology,
                                    const std::optional<std::string>& default_graph,
                                    bool open_mode,
                                    const std::vector<DatasetClause>& using_clauses) {
  Translator translator(ontology);
  translator.set_open_mode(open_mode);
  GraphContext graph;
  if (!using_clauses.empty()) {  // USING / USING NAMED: a dataset as FROM / FROM NAMED make
    translator.SetDataset(DatasetOf(using_clauses, open_mode));
  } else if (default_graph) {
    graph.mode = GraphContext::Mode::kIri;
    graph.graph = Iri{*default_graph};
  } else {
    translator.SetDataset(DatasetOf({}, open_mode));  // open mode: graph 0
  }
  QUARRY_ASSIGN_OR_RETURN(Fragment fragment, translator.Group(where, graph));
  std::string sql = "SELECT ";
  for (size_t i = 0; i < variables.size(); ++i) {
    const auto found = fragment.vars.find(variables[i]);
    const SqlExpr value = found != fragment.vars.end() ? found->second : SqlExpr{"NULL"};
    sql += fmt::format("{}{}", i ? ", " : "", value.sql);
    translator.output().columns.push_back(ColumnOf(variables[i], value, false));
  }
  if (variables.empty()) sql += "1";
  translator.output().sql = sql + FromWhere(fragment);
  return std::move(translator.output());
}

}  // namespace quarry::sparql
