// SQL DDL generated from an ontology (SCHEMA.md). Pure: returns statements, touches nothing.
// Thread-safety: free functions over const data.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::schema {

// 2: indexes on single-valued columns are partial (WHERE column IS NOT NULL).
// 3: multi-valued tables (rdf:type's included) are WITHOUT ROWID, keyed (ID, value, graph).
// An older database is still read as it is and upgraded once when a writer opens it
// (engine::EnsureSchema, PartialIndexUpgradeSql, WithoutRowidUpgradeSql).
inline constexpr int kSchemaVersion = 3;
inline constexpr int kOldestSchemaVersion = 1;

// The version stored in quarry_meta ("none" when absent) is one this build reads.
bool KnownSchemaVersion(std::string_view version);

// Every statement that creates an empty store for `ontology`, in order: bookkeeping tables,
// Resource and Graph, class tables, multi-valued tables, indexes, domain indexes with their
// mirror triggers, the full-text table, and Resource rows for every class and property.
std::vector<std::string> CreateSchemaSql(const ontology::Ontology& ontology);

// Pieces, reused by migration plans.
std::vector<std::string> BookkeepingSql();
std::string CreateClassTableSql(const ontology::Ontology& ontology, const ontology::Class& cls);
std::vector<std::string> AddSingleValuedColumnSql(const ontology::Ontology& ontology,
                                                  const ontology::Property& property);
std::string CreateMultiValuedTableSql(const ontology::Ontology& ontology,
                                      const ontology::Property& property);
// CREATE INDEX for an nrl:indexed property (empty when it is not indexed). On a class-table
// column the index is partial, `WHERE <column> IS NOT NULL` (SCHEMA.md, Indexes).
std::vector<std::string> PropertyIndexSql(const ontology::Ontology& ontology,
                                          const ontology::Property& property);
std::vector<std::string> DropPropertyIndexSql(const ontology::Ontology& ontology,
                                              const ontology::Property& property);
// CREATE INDEX of an index on a single-valued column: partial, `WHERE <column> IS NOT NULL`.
std::string ValueIndexSql(const std::string& index, const std::string& table,
                          const std::string& column);

// The indexes of `ontology` on single-valued columns (nrl:indexed class-table columns and
// domain-index mirrors), each with its partial CREATE INDEX.
struct ValueIndex {
  std::string name;
  std::string create_sql;
};
std::vector<ValueIndex> SingleValuedIndexes(const ontology::Ontology& ontology);

// A database made before those indexes were partial has full ones (an entry per row, NULL or
// not). `stored`: index name -> its SQL in sqlite_schema. Returns DROP INDEX + CREATE INDEX for
// each of SingleValuedIndexes() that is stored without a WHERE; nothing when all are partial.
std::vector<std::string> PartialIndexUpgradeSql(const ontology::Ontology& ontology,
                                                const std::map<std::string, std::string>& stored);

// A database made before schema version 3 has rowid multi-valued tables with a UNIQUE
// (ID, value, graph). `stored_tables`: table name -> its SQL in sqlite_schema; `dependents`:
// table name -> the SQL of each index and trigger on it. Returns, for each multi-valued table of
// `ontology` stored without WITHOUT ROWID, the statements that rebuild it in the new layout with
// its rows, indexes and triggers; nothing when all are new. Run them in one transaction.
std::vector<std::string> WithoutRowidUpgradeSql(
    const ontology::Ontology& ontology, const std::map<std::string, std::string>& stored_tables,
    const std::multimap<std::string, std::string>& dependents);

// INSERT OR IGNORE of the Resource rows of every class and property (their IDs are public).
std::vector<std::string> OntologyResourcesSql(const ontology::Ontology& ontology);

}  // namespace quarry::schema
