// SQL DDL generated from an ontology (SCHEMA.md). Pure: returns statements, touches nothing.
// Thread-safety: free functions over const data.
#pragma once

#include <string>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::schema {

inline constexpr int kSchemaVersion = 1;

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
// CREATE INDEX for an nrl:indexed property (empty when it is not indexed).
std::vector<std::string> PropertyIndexSql(const ontology::Ontology& ontology,
                                          const ontology::Property& property);
std::vector<std::string> DropPropertyIndexSql(const ontology::Ontology& ontology,
                                              const ontology::Property& property);
// INSERT OR IGNORE of the Resource rows of every class and property (their IDs are public).
std::vector<std::string> OntologyResourcesSql(const ontology::Ontology& ontology);

}  // namespace quarry::schema
