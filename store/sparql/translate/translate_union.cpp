// UNION and MINUS (SPARQL 1.1 §18.5): UNION branches become one UNION ALL derived table, MINUS a
// correlated NOT EXISTS on the variables it shares with the group so far.
#include <fmt/format.h>

#include <algorithm>

#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

using ontology::ValueType;

bool IsBlankKey(const std::string& name) { return name.rfind("_:", 0) == 0; }

std::string Column(const std::string& alias, const std::string& name) {
  return fmt::format("{}.{}", alias, schema::Quote("v_" + name));
}

std::string JoinWith(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : std::string(separator)) + part;
  return text;
}

}  // namespace

SqlExpr CommonKind(const std::vector<SqlExpr>& values) {
  SqlExpr common;
  bool first = true;
  const auto is_id = [](Kind kind) { return kind == Kind::kResource || kind == Kind::kTerm; };
  for (const SqlExpr& value : values) {
    if (value.sql == "NULL") continue;  // an unbound cell says nothing about the kind
    if (first) {
      common = {"", value.kind, value.type};
      first = false;
    } else if (is_id(common.kind) && is_id(value.kind)) {
      // Resource IDs are term IDs (quad_table.h): a column mixing both holds term IDs.
      if (common.kind != value.kind) common = {"", Kind::kTerm, ValueType::kResource};
    } else if (common.kind != value.kind || common.type != value.type) {
      return SqlExpr{"", Kind::kDynamic};
    }
  }
  return common;
}

std::string Convert(const SqlExpr& value, const SqlExpr& target) {
  if (target.kind == Kind::kTerm) return value.sql;  // from a resource or term ID (CommonKind)
  if (target.kind != Kind::kDynamic || value.kind == Kind::kDynamic) return value.sql;
  if (value.kind == Kind::kTerm) return Translator::TermValue(value).sql;  // open mode
  if (value.kind == Kind::kResource) return Translator::UriOf(value.sql);
  if (value.type == ValueType::kDateTime) return fmt::format("quarry_datetime({})", value.sql);
  return value.sql;
}

std::string UnionAll(std::vector<std::string> selects) {
  constexpr size_t kMaxTerms = 200;
  while (selects.size() > kMaxTerms) {
    std::vector<std::string> grouped;
    for (size_t first = 0; first < selects.size(); first += kMaxTerms) {
      const size_t last = std::min(selects.size(), first + kMaxTerms);
      const std::vector<std::string> chunk(selects.begin() + first, selects.begin() + last);
      grouped.push_back(fmt::format("SELECT * FROM ({})", JoinWith(chunk, " UNION ALL ")));
    }
    selects = std::move(grouped);
  }
  return JoinWith(selects, " UNION ALL ");
}

std::string Translator::DerivedSelect(const Fragment& fragment, const std::vector<std::string>& names,
                                      const std::vector<SqlExpr>& kinds) {
  std::vector<std::string> columns;
  for (size_t i = 0; i < names.size(); ++i) {
    const auto found = fragment.vars.find(names[i]);
    const std::string value = found == fragment.vars.end() ? "NULL" : Convert(found->second, kinds[i]);
    columns.push_back(fmt::format("{} AS {}", value, schema::Quote("v_" + names[i])));
  }
  if (columns.empty()) columns.push_back("1 AS one");
  std::string sql = "SELECT " + JoinWith(columns, ", ");
  if (!fragment.from.empty()) sql += " FROM " + fragment.from;
  if (!fragment.conditions.empty()) sql += " WHERE " + JoinWith(fragment.conditions, " AND ");
  return sql;
}

Result<void> Translator::AddUnion(Fragment& fragment, const UnionPattern& pattern,
                                  const GraphContext& graph) {
  std::vector<Fragment> branches;
  for (const GroupGraphPattern& branch : pattern.branches) {
    QUARRY_ASSIGN_OR_RETURN(Fragment inner, Group(branch, graph));
    branches.push_back(std::move(inner));
  }
  // Variables in first-binding order; blank nodes stay inside their branch.
  std::vector<std::string> names;
  for (const Fragment& branch : branches) {
    for (const std::string& name : branch.var_order) {
      if (!IsBlankKey(name) && std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  Fragment combined;
  const std::string alias = NewAlias("u");
  std::vector<SqlExpr> kinds;
  for (const std::string& name : names) {
    std::vector<SqlExpr> values;
    bool nullable = false;
    for (const Fragment& branch : branches) {
      const auto found = branch.vars.find(name);
      nullable = nullable || found == branch.vars.end() || branch.nullable.count(name);
      if (found != branch.vars.end()) values.push_back(found->second);
    }
    SqlExpr kind = CommonKind(values);
    kinds.push_back(kind);
    kind.sql = Column(alias, name);
    combined.vars.emplace(name, kind);
    combined.var_order.push_back(name);
    if (nullable) combined.nullable.insert(name);
  }
  std::vector<std::string> selects;
  for (const Fragment& branch : branches) selects.push_back(DerivedSelect(branch, names, kinds));
  combined.from = fmt::format("({}) AS {}", UnionAll(std::move(selects)), alias);
  return Join(fragment, std::move(combined));
}

// P MINUS Q drops a solution of P when some solution of Q is compatible with it and shares at
// least one bound variable; with no variable in common nothing is removed (§18.5).
Result<void> Translator::AddMinus(Fragment& fragment, const MinusPattern& minus,
                                  const GraphContext& graph) {
  const size_t binds_before = output_.binds.size();
  const size_t parameters_before = output_.parameters.size();
  QUARRY_ASSIGN_OR_RETURN(Fragment inner, Group(minus.pattern, graph));
  std::vector<std::string> conditions = inner.conditions;
  std::vector<std::string> both_bound;
  bool always_shares = false;
  for (const std::string& name : inner.var_order) {
    const auto outer = fragment.vars.find(name);
    if (IsBlankKey(name) || outer == fragment.vars.end()) continue;
    const SqlExpr& value = inner.vars.at(name);
    if (graph.mode == GraphContext::Mode::kVariable && name == VariableKey(graph.graph)) {
      // GRAPH ?g { P MINUS Q }: Q is matched in P's graph, but ?g is no variable of P's or Q's
      // solutions there (§18.5 evaluates the MINUS before GRAPH binds ?g): it is no shared one.
      conditions.push_back(Equal(outer->second, value));
      continue;
    }
    const bool outer_nullable = fragment.nullable.count(name) > 0;
    const bool inner_nullable = inner.nullable.count(name) > 0;
    if (!outer_nullable && !inner_nullable) {
      conditions.push_back(Equal(outer->second, value));
      always_shares = true;
      continue;
    }
    std::vector<std::string> compatible;
    std::vector<std::string> bound;
    const std::pair<const SqlExpr*, bool> sides[] = {{&outer->second, outer_nullable},
                                                     {&value, inner_nullable}};
    for (const auto& [side, nullable] : sides) {
      if (!nullable) continue;
      compatible.push_back(side->sql + " IS NULL");
      bound.push_back(side->sql + " IS NOT NULL");
    }
    compatible.push_back(Equal(outer->second, value));
    conditions.push_back("(" + JoinWith(compatible, " OR ") + ")");
    both_bound.push_back("(" + JoinWith(bound, " AND ") + ")");
  }
  if (!always_shares && both_bound.empty()) {
    // Q's SQL is dropped: so are its constants and ~parameters, numbered ?1..?N in order.
    output_.binds.resize(binds_before);
    output_.parameters.resize(parameters_before);
    return Ok();
  }
  if (!always_shares) conditions.push_back("(" + JoinWith(both_bound, " OR ") + ")");
  std::string sql = "NOT EXISTS (SELECT 1";
  if (!inner.from.empty()) sql += " FROM " + inner.from;
  fragment.conditions.push_back(sql + " WHERE " + JoinWith(conditions, " AND ") + ")");
  return Ok();
}

}  // namespace quarry::sparql::translate
