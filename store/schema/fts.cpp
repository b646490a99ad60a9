#include "store/schema/fts.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "store/schema/names.h"

namespace quarry::schema {
namespace {

struct FtsSetting {
  const char* key;
  int value;
};
// FtsMergeSettingsSql writes them, FtsLacksMergeSettingsSql checks them (fts.h).
constexpr FtsSetting kFtsSettings[] = {
    {"automerge", 0},
    // FTS5 keeps a transaction's terms in memory up to this many bytes (its default 1 MiB),
    // then writes them as a segment: room for a write batch of text files (128,
    // extract/service/extractor_workers.cpp) before COMMIT (issue 5).
    {"hashsize", 4 << 20},
};

std::string ColumnList(const std::vector<const ontology::Property*>& properties,
                       std::string_view prefix) {
  std::string list;
  for (const ontology::Property* property : properties) {
    list += fmt::format(", {}{}", prefix, Quote(property->name));
  }
  return list;
}

std::string ValueExpression(const Names& names, const ontology::Property& property) {
  const PropertyStorage storage = names.StorageOf(property);
  if (storage.multi_valued) {
    return fmt::format("(SELECT group_concat(V.{}, ' ') FROM {} AS V WHERE V.ID = R.ID)",
                       Quote(storage.column), Quote(storage.table));
  }
  return fmt::format("(SELECT V.{} FROM {} AS V WHERE V.ID = R.ID)", Quote(storage.column),
                     Quote(storage.table));
}

}  // namespace

std::vector<const ontology::Property*> FulltextProperties(const ontology::Ontology& ontology) {
  std::vector<const ontology::Property*> properties;
  for (const ontology::Property& property : ontology.properties()) {
    if (property.fulltext) properties.push_back(&property);
  }
  return properties;
}

std::vector<std::string> CreateFtsSql(const ontology::Ontology& ontology) {
  const auto properties = FulltextProperties(ontology);
  if (properties.empty()) return {};
  const Names names(ontology);
  std::string select = "R.ID AS ID";
  std::string any_value = "coalesce(NULL";
  for (const ontology::Property* property : properties) {
    const std::string value = ValueExpression(names, *property);
    select += fmt::format(", {} AS {}", value, Quote(property->name));
    any_value += ", " + value;
  }
  any_value += ")";
  std::string columns;
  for (const ontology::Property* property : properties) {
    if (!columns.empty()) columns += ", ";
    columns += Quote(property->name);
  }
  std::vector<std::string> statements = {
      fmt::format("CREATE VIEW {} AS SELECT {} FROM {} AS R WHERE {} IS NOT NULL", kFtsView,
                  select, Quote(ontology.Compact(ontology::iri::kRdfsResource)), any_value),
      fmt::format("CREATE VIRTUAL TABLE {} USING fts5({}, content={}, content_rowid='ID', "
                  "tokenize='unicode61 remove_diacritics 2')",
                  kFtsTable, columns, QuoteLiteral(kFtsView)),
  };
  for (std::string& sql : FtsMergeSettingsSql()) statements.push_back(std::move(sql));
  return statements;
}

std::vector<std::string> FtsMergeSettingsSql() {
  std::vector<std::string> statements;
  for (const FtsSetting& setting : kFtsSettings) {
    statements.push_back(fmt::format("INSERT INTO {0}({0}, rank) VALUES ('{1}', {2})", kFtsTable,
                                     setting.key, setting.value));
  }
  return statements;
}

std::string FtsConfigTable() { return std::string(kFtsTable) + "_config"; }

std::string FtsLacksMergeSettingsSql() {
  std::string matches;
  for (const FtsSetting& setting : kFtsSettings) {
    matches += fmt::format("{}(k = '{}' AND v = {})", matches.empty() ? "" : " OR ", setting.key,
                           setting.value);
  }
  return fmt::format("SELECT 1 WHERE (SELECT count(*) FROM {} WHERE {}) < {}",
                     Quote(FtsConfigTable()), matches, std::size(kFtsSettings));
}

std::string FtsMergeStepSql(int pages) {
  return fmt::format("INSERT INTO {0}({0}, rank) VALUES ('merge', {1})", kFtsTable, pages);
}

std::vector<std::string> DropFtsSql() {
  return {fmt::format("DROP TABLE IF EXISTS {}", kFtsTable),
          fmt::format("DROP VIEW IF EXISTS {}", kFtsView)};
}

std::vector<std::string> RebuildFtsSql(const ontology::Ontology& ontology) {
  std::vector<std::string> statements = DropFtsSql();
  const std::vector<std::string> create = CreateFtsSql(ontology);
  if (create.empty()) return statements;
  statements.insert(statements.end(), create.begin(), create.end());
  statements.push_back(fmt::format("INSERT INTO {0}({0}) VALUES ('rebuild')", kFtsTable));
  return statements;
}

namespace {

// One resource's full-text values, computed once (MATERIALIZED: SQLite would otherwise inline
// the view and evaluate every value subquery twice, once for the row and once for the
// "has any text" test), then kept only when some value is present.
// `applicable`: the properties that can hold values for these resources (their classes are
// the properties' domains); the others are NULL without a look-up. Empty = all of them.
std::string RowValuesCte(const ontology::Ontology& ontology,
                         const std::vector<const ontology::Property*>& properties,
                         std::string_view rows,
                         const std::vector<const ontology::Property*>& applicable = {}) {
  const Names names(ontology);
  std::string select = "R.ID AS ID";
  std::string any_value = "coalesce(NULL";
  for (const ontology::Property* property : properties) {
    const bool used = applicable.empty() ||
                      std::find(applicable.begin(), applicable.end(), property) != applicable.end();
    select += fmt::format(", {} AS {}", used ? ValueExpression(names, *property) : "NULL",
                          Quote(property->name));
    if (used) any_value += ", " + Quote(property->name);
  }
  return fmt::format(
      "WITH row_values AS MATERIALIZED (SELECT {} FROM {} AS R WHERE {}), "
      "indexed AS (SELECT * FROM row_values WHERE {}) IS NOT NULL) ",
      select, Quote(ontology.Compact(ontology::iri::kRdfsResource)), rows, any_value);
}

}  // namespace

std::string FtsSelectRowsSql(const ontology::Ontology& ontology, std::string_view rows,
                             const std::vector<const ontology::Property*>& applicable) {
  const auto properties = FulltextProperties(ontology);
  if (properties.empty()) return {};
  return fmt::format("{}SELECT ID{} FROM indexed ORDER BY ID",
                     RowValuesCte(ontology, properties, rows, applicable),
                     ColumnList(properties, ""));
}

std::string FtsWriteValuesSql(const ontology::Ontology& ontology, bool remove) {
  const auto properties = FulltextProperties(ontology);
  if (properties.empty()) return {};
  std::string parameters = "?1";
  for (size_t i = 0; i < properties.size(); ++i) parameters += fmt::format(", ?{}", i + 2);
  if (remove) {
    return fmt::format("INSERT INTO {0}({0}, rowid{1}) VALUES ('delete', {2})", kFtsTable,
                       ColumnList(properties, ""), parameters);
  }
  return fmt::format("INSERT INTO {}(rowid{}) VALUES ({})", kFtsTable, ColumnList(properties, ""),
                     parameters);
}

}  // namespace quarry::schema
