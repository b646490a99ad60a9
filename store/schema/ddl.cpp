#include "store/schema/ddl.h"

#include <fmt/format.h>

#include "store/schema/domain_index.h"
#include "store/schema/fts.h"
#include "store/schema/names.h"

namespace quarry::schema {
namespace {

std::string ColumnDefinitions(const ontology::Ontology& ontology, const ontology::Class& cls) {
  std::string columns = "ID INTEGER PRIMARY KEY";
  for (const ontology::Property* property : ontology.PropertiesOfDomain(cls.iri)) {
    if (property->multi_valued()) continue;
    columns += fmt::format(", {} {}, {} INTEGER", Quote(property->name),
                           SqlTypeOf(property->type), Quote(property->name + ":graph"));
  }
  for (const std::string& indexed_iri : cls.domain_indexes) {
    const ontology::Property* property = ontology.FindProperty(indexed_iri);
    if (!property) continue;  // Build() rejects this; stay total anyway.
    columns += fmt::format(", {} {}", Quote(property->name), SqlTypeOf(property->type));
  }
  return columns;
}

}  // namespace

std::vector<std::string> BookkeepingSql() {
  return {
      fmt::format("CREATE TABLE IF NOT EXISTS {} (key TEXT PRIMARY KEY, value TEXT)",
                  kMetaTable),
      fmt::format("CREATE TABLE IF NOT EXISTS {} (file TEXT PRIMARY KEY, text TEXT NOT NULL)",
                  kOntologyTable),
      fmt::format("CREATE TABLE IF NOT EXISTS {} (ID INTEGER PRIMARY KEY, Uri TEXT UNIQUE)",
                  kResourceTable),
      fmt::format("CREATE TABLE IF NOT EXISTS {} (ID INTEGER PRIMARY KEY)", kGraphTable),
  };
}

std::string CreateClassTableSql(const ontology::Ontology& ontology, const ontology::Class& cls) {
  return fmt::format("CREATE TABLE {} ({})", Quote(cls.name), ColumnDefinitions(ontology, cls));
}

std::vector<std::string> AddSingleValuedColumnSql(const ontology::Ontology& ontology,
                                                  const ontology::Property& property) {
  const PropertyStorage storage = Names(ontology).StorageOf(property);
  return {
      fmt::format("ALTER TABLE {} ADD COLUMN {} {}", Quote(storage.table), Quote(storage.column),
                  SqlTypeOf(property.type)),
      fmt::format("ALTER TABLE {} ADD COLUMN {} INTEGER", Quote(storage.table),
                  Quote(storage.graph_column)),
  };
}

std::string CreateMultiValuedTableSql(const ontology::Ontology& ontology,
                                      const ontology::Property& property) {
  const PropertyStorage storage = Names(ontology).StorageOf(property);
  return fmt::format(
      "CREATE TABLE {0} (ID INTEGER NOT NULL, {1} {2} NOT NULL, {3} INTEGER NOT NULL DEFAULT 0, "
      "PRIMARY KEY (ID, {1}, {3})) WITHOUT ROWID",
      Quote(storage.table), Quote(storage.column), SqlTypeOf(property.type),
      Quote(storage.graph_column));
}

std::string ValueIndexSql(const std::string& index, const std::string& table,
                          const std::string& column) {
  return fmt::format("CREATE INDEX IF NOT EXISTS {0} ON {1} ({2}) WHERE {2} IS NOT NULL",
                     Quote(index), Quote(table), Quote(column));
}

std::vector<std::string> PropertyIndexSql(const ontology::Ontology& ontology,
                                          const ontology::Property& property) {
  if (!property.indexed) return {};
  const PropertyStorage storage = Names(ontology).StorageOf(property);
  const std::string index = IndexName(storage.table, storage.column);
  if (!storage.multi_valued) return {ValueIndexSql(index, storage.table, storage.column)};
  // A multi-valued table has a row only where there is a value (the column is NOT NULL).
  return {fmt::format("CREATE INDEX IF NOT EXISTS {} ON {} ({})", Quote(index),
                      Quote(storage.table), Quote(storage.column))};
}

std::vector<ValueIndex> SingleValuedIndexes(const ontology::Ontology& ontology) {
  const Names names(ontology);
  std::vector<ValueIndex> indexes;
  for (const ontology::Property& property : ontology.properties()) {
    if (!property.indexed || property.multi_valued()) continue;
    const PropertyStorage storage = names.StorageOf(property);
    const std::string index = IndexName(storage.table, storage.column);
    indexes.push_back({index, ValueIndexSql(index, storage.table, storage.column)});
  }
  for (const ontology::Class& cls : ontology.classes()) {
    for (const std::string& property_iri : cls.domain_indexes) {
      const ontology::Property* property = ontology.FindProperty(property_iri);
      if (!property) continue;
      const std::string index = IndexName(names.ClassTable(cls), property->name);
      indexes.push_back(
          {index, ValueIndexSql(index, names.ClassTable(cls), names.MirrorColumn(*property))});
    }
  }
  return indexes;
}

bool KnownSchemaVersion(std::string_view version) {
  for (int known = kOldestSchemaVersion; known <= kSchemaVersion; ++known) {
    if (version == std::to_string(known)) return true;
  }
  return false;
}

std::vector<std::string> PartialIndexUpgradeSql(
    const ontology::Ontology& ontology, const std::map<std::string, std::string>& stored) {
  std::vector<std::string> statements;
  for (const ValueIndex& index : SingleValuedIndexes(ontology)) {
    const auto found = stored.find(index.name);
    if (found == stored.end() || found->second.find(" WHERE ") != std::string::npos) continue;
    statements.push_back(fmt::format("DROP INDEX IF EXISTS {}", Quote(index.name)));
    statements.push_back(index.create_sql);
  }
  return statements;
}

std::vector<std::string> WithoutRowidUpgradeSql(
    const ontology::Ontology& ontology, const std::map<std::string, std::string>& stored_tables,
    const std::multimap<std::string, std::string>& dependents) {
  std::vector<std::string> statements;
  const Names names(ontology);
  for (const ontology::Property& property : ontology.properties()) {
    if (!property.multi_valued()) continue;
    const PropertyStorage storage = names.StorageOf(property);
    const auto found = stored_tables.find(storage.table);
    if (found == stored_tables.end() || found->second.find("WITHOUT ROWID") != std::string::npos) {
      continue;
    }
    // Through a temporary copy, not CREATE + RENAME: the full-text view and the domain-index
    // triggers name the table, and a RENAME would check (or rewrite) them.
    const std::string columns = fmt::format("ID, {}, {}", Quote(storage.column),
                                            Quote(storage.graph_column));
    statements.push_back("DROP TABLE IF EXISTS temp.quarry_rebuild");
    statements.push_back(fmt::format("CREATE TEMP TABLE quarry_rebuild AS SELECT {} FROM {}",
                                     columns, Quote(storage.table)));
    statements.push_back(fmt::format("DROP TABLE {}", Quote(storage.table)));
    statements.push_back(CreateMultiValuedTableSql(ontology, property));
    statements.push_back(fmt::format("INSERT INTO {0} ({1}) SELECT {1} FROM temp.quarry_rebuild "
                                     "ORDER BY {1}",
                                     Quote(storage.table), columns));
    statements.push_back("DROP TABLE temp.quarry_rebuild");
    const auto [first, last] = dependents.equal_range(storage.table);
    for (auto it = first; it != last; ++it) statements.push_back(it->second);
  }
  return statements;
}

std::vector<std::string> DropPropertyIndexSql(const ontology::Ontology& ontology,
                                              const ontology::Property& property) {
  const PropertyStorage storage = Names(ontology).StorageOf(property);
  return {fmt::format("DROP INDEX IF EXISTS {}",
                      Quote(IndexName(storage.table, storage.column)))};
}

std::vector<std::string> OntologyResourcesSql(const ontology::Ontology& ontology) {
  std::vector<std::string> statements;
  const auto add = [&](const std::string& iri) {
    statements.push_back(fmt::format("INSERT OR IGNORE INTO {} (Uri) VALUES ({})",
                                     kResourceTable, QuoteLiteral(iri)));
  };
  for (const ontology::Class& cls : ontology.classes()) add(cls.iri);
  for (const ontology::Property& property : ontology.properties()) add(property.iri);
  return statements;
}

std::vector<std::string> CreateSchemaSql(const ontology::Ontology& ontology) {
  std::vector<std::string> statements = BookkeepingSql();
  for (const ontology::Class& cls : ontology.classes()) {
    statements.push_back(CreateClassTableSql(ontology, cls));
  }
  for (const ontology::Property& property : ontology.properties()) {
    if (property.multi_valued()) {
      statements.push_back(CreateMultiValuedTableSql(ontology, property));
    }
    for (std::string& sql : PropertyIndexSql(ontology, property)) {
      statements.push_back(std::move(sql));
    }
  }
  for (const ontology::Class& cls : ontology.classes()) {
    for (const std::string& property_iri : cls.domain_indexes) {
      const ontology::Property* property = ontology.FindProperty(property_iri);
      if (!property) continue;
      for (std::string& sql : DomainIndexSql(ontology, cls, *property, /*copy_values=*/false)) {
        statements.push_back(std::move(sql));
      }
    }
  }
  for (std::string& sql : CreateFtsSql(ontology)) statements.push_back(std::move(sql));
  for (std::string& sql : OntologyResourcesSql(ontology)) statements.push_back(std::move(sql));
  statements.push_back(fmt::format("INSERT OR REPLACE INTO {} VALUES ('schema_version', '{}')",
                                   kMetaTable, kSchemaVersion));
  return statements;
}

}  // namespace quarry::schema
