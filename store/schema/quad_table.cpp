#include "store/schema/quad_table.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <optional>

#include "store/ontology/ontology.h"
#include "store/schema/names.h"

namespace quarry::schema {
namespace {

std::string Xsd(std::string_view local) {
  return std::string(ontology::iri::kXsd) + std::string(local);
}

bool IsIntegerType(std::string_view datatype) {
  static constexpr std::string_view kIntegers[] = {"integer",
                                                   "int",
                                                   "long",
                                                   "short",
                                                   "byte",
                                                   "nonNegativeInteger",
                                                   "positiveInteger",
                                                   "nonPositiveInteger",
                                                   "negativeInteger",
                                                   "unsignedInt",
                                                   "unsignedLong",
                                                   "unsignedShort",
                                                   "unsignedByte"};
  for (const std::string_view local : kIntegers) {
    if (datatype == Xsd(local)) return true;
  }
  return false;
}

std::optional<int64_t> ParseInteger(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> ParseDouble(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text == "INF" || text == "+INF") return std::strtod("inf", nullptr);
  if (text == "-INF") return std::strtod("-inf", nullptr);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::string> CreateQuadTablesSql() {
  return {
      // Columns in primary-key order: SQLite 3.40.0 to 3.41.0's PRAGMA quick_check reports
      // "NULL value in T.C" for NOT NULL columns of a WITHOUT ROWID table whose columns are
      // declared in another order than its key (integrity_check says ok).
      fmt::format(
          "CREATE TABLE IF NOT EXISTS {} (Subject INTEGER NOT NULL, Predicate INTEGER NOT NULL, "
          "Object INTEGER NOT NULL, Graph INTEGER NOT NULL, "
          "PRIMARY KEY (Subject, Predicate, Object, Graph)) WITHOUT ROWID",
          kQuadTable),
      fmt::format("CREATE INDEX IF NOT EXISTS {0}_po ON {0} (Predicate, Object, Subject)",
                  kQuadTable),
      fmt::format("CREATE INDEX IF NOT EXISTS {0}_graph ON {0} (Graph)", kQuadTable),
      fmt::format("CREATE TABLE IF NOT EXISTS {} (ID INTEGER PRIMARY KEY, Lexical TEXT NOT NULL, "
                  "Datatype TEXT NOT NULL, Lang TEXT NOT NULL, Value, "
                  "UNIQUE (Lexical, Datatype, Lang))",
                  kLiteralTable),
  };
}

std::vector<std::string> RebuildQuadTableSql() {
  std::vector<std::string> statements = {
      // The indexes go first: renamed with their table, they would keep the names the new
      // table's indexes need.
      fmt::format("DROP INDEX IF EXISTS {}_po", kQuadTable),
      fmt::format("DROP INDEX IF EXISTS {}_graph", kQuadTable),
      fmt::format("ALTER TABLE {0} RENAME TO {0}_old", kQuadTable),
  };
  for (std::string& create : CreateQuadTablesSql()) statements.push_back(std::move(create));
  statements.push_back(fmt::format(
      "INSERT INTO {0} (Subject, Predicate, Object, Graph) "
      "SELECT Subject, Predicate, Object, Graph FROM {0}_old",
      kQuadTable));
  statements.push_back(fmt::format("DROP TABLE {}_old", kQuadTable));
  return statements;
}

std::string LiteralDatatype(const RdfTerm& literal) {
  if (!literal.lang.empty()) return std::string(ontology::iri::kRdf) + "langString";
  return literal.datatype.empty() ? Xsd("string") : literal.datatype;
}

SqlValue LiteralValue(const RdfTerm& literal) {
  if (!literal.lang.empty()) return EncodeLangString(literal.value, literal.lang);
  const std::string datatype = LiteralDatatype(literal);
  if (IsIntegerType(datatype)) {
    if (const auto value = ParseInteger(literal.value)) return *value;
  } else if (datatype == Xsd("decimal") || datatype == Xsd("double") || datatype == Xsd("float")) {
    if (const auto value = ParseDouble(literal.value)) return *value;
  } else if (datatype == Xsd("boolean")) {
    if (literal.value == "true" || literal.value == "1") return int64_t{1};
    if (literal.value == "false" || literal.value == "0") return int64_t{0};
  }
  return literal.value;
}

std::string TermValueSql(std::string_view id_sql) {
  return fmt::format(
      "(CASE WHEN {0} < 0 THEN (SELECT Value FROM {1} WHERE ID = {0}) "
      "WHEN typeof({0}) = 'text' THEN substr({0}, 2) "
      "ELSE (SELECT coalesce(Uri, '_:b' || ID) FROM {2} WHERE ID = {0}) END)",
      id_sql, kLiteralTable, kResourceTable);
}

std::string TermOutputSql(std::string_view id_sql) {
  return fmt::format(
      "(CASE WHEN {0} < 0 THEN (SELECT CASE WHEN Lang <> '' THEN Value WHEN Datatype = {2} "
      "THEN 'S' || Lexical ELSE 'L' || Datatype || char(31) || Lexical END FROM {1} WHERE ID = "
      "{0}) "
      "WHEN typeof({0}) = 'text' THEN {0} "
      "ELSE (SELECT coalesce('I' || Uri, 'B_:b' || ID) FROM {3} WHERE ID = {0}) END)",
      id_sql, kLiteralTable, QuoteLiteral(Xsd("string")), kResourceTable);
}

std::string UnstoredIriSql(std::string_view iri_sql) {
  return fmt::format("coalesce((SELECT ID FROM {1} WHERE Uri = {0}), 'I' || {0})", iri_sql,
                     kResourceTable);
}

}  // namespace quarry::schema
