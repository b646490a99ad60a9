// VALUES (SPARQL 1.1 §10.2), inline in a group or trailing a query: a derived table over SQL
// VALUES rows, UNDEF as NULL. Constants are encoded like stored values: an IRI as its Resource
// ID, a literal in its datatype's column encoding, so the rows join stored columns directly.
#include <fmt/format.h>

#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

std::string JoinWith(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : std::string(separator)) + part;
  return text;
}

}  // namespace

Result<SqlExpr> Translator::ValueCell(const std::optional<Term>& cell,
                                      std::map<std::string, int>& unknown_iris) {
  if (!cell) return SqlExpr{"NULL", Kind::kDynamic};
  if (const auto* iri = std::get_if<Iri>(&*cell)) {
    // An IRI the store does not know gets an ID of its own below zero: it then matches no
    // stored value, yet stays bound and distinct from other IRIs.
    const int next = static_cast<int>(unknown_iris.size()) + 1;
    const int fallback = -unknown_iris.emplace(iri->iri, next).first->second;
    return SqlExpr{fmt::format("coalesce({}, {})", IriId(iri->iri), fallback), Kind::kResource,
                   ontology::ValueType::kResource};
  }
  return TermExpr(*cell, Fragment{});
}

Result<Fragment> Translator::Values(const InlineData& data) {
  const size_t width = data.variables.size();
  Fragment fragment;
  if (data.rows.empty()) {
    fragment.conditions.push_back("0");  // no solution at all
    return fragment;
  }
  // Cell values in their natural encoding, then one kind per column.
  std::vector<std::vector<SqlExpr>> cells(data.rows.size());
  std::map<std::string, int> unknown_iris;
  for (size_t row = 0; row < data.rows.size(); ++row) {
    if (data.rows[row].size() != width) {
      return Error(Errc::kParse, fmt::format("VALUES row {} has {} values for {} variables", row + 1,
                                             data.rows[row].size(), width));
    }
    for (const std::optional<Term>& cell : data.rows[row]) {
      QUARRY_ASSIGN_OR_RETURN(SqlExpr value, ValueCell(cell, unknown_iris));
      cells[row].push_back(std::move(value));
    }
  }
  std::vector<SqlExpr> kinds;
  for (size_t column = 0; column < width; ++column) {
    std::vector<SqlExpr> values;
    for (const auto& row : cells) values.push_back(row[column]);
    kinds.push_back(CommonKind(values));
  }
  std::vector<std::string> rows;
  for (const auto& row : cells) {
    std::vector<std::string> values;
    for (size_t column = 0; column < width; ++column) values.push_back(Convert(row[column], kinds[column]));
    if (values.empty()) values.push_back("1");
    rows.push_back("(" + JoinWith(values, ", ") + ")");
  }
  const std::string alias = NewAlias("v");
  std::vector<std::string> columns;
  for (size_t column = 0; column < width; ++column) {
    const std::string& name = data.variables[column].name;
    columns.push_back(fmt::format("column{} AS {}", column + 1, schema::Quote("v_" + name)));
    SqlExpr value = kinds[column];
    value.sql = fmt::format("{}.{}", alias, schema::Quote("v_" + name));
    bool all_undef = true;
    for (const auto& row : cells) {
      if (row[column].sql == "NULL") fragment.nullable.insert(name);
      all_undef = all_undef && row[column].sql == "NULL";
    }
    // A column of UNDEF only is NULL itself: joined with a bound variable it then says nothing
    // about that variable's kind (CommonKind), which keeps its own encoding (an IRI stays one).
    if (all_undef) value.sql = "NULL";
    fragment.vars.emplace(name, value);
    fragment.var_order.push_back(name);
  }
  if (columns.empty()) columns.push_back("column1 AS one");
  fragment.from = fmt::format("(SELECT {} FROM (VALUES {})) AS {}", JoinWith(columns, ", "),
                              JoinWith(rows, ", "), alias);
  return fragment;
}

}  // namespace quarry::sparql::translate
