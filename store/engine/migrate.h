// Creates the schema of a fresh database, or migrates an existing one to changed ontology
// files in one transaction (SCHEMA.md, store/schema/migration_plan.h).
// Thread-safety: the caller's connection, one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/ontology/loader.h"
#include "store/ontology/ontology.h"

namespace quarry::engine {

struct SchemaState {
  std::shared_ptr<const ontology::Ontology> ontology;  // what the database now follows
  std::vector<std::string> changes;                    // "created", or one line per migration step
};

// `files` are the ontology files the caller wants. A read-only caller gets the ontology stored
// in the database (it cannot migrate) and an error when the database has no schema yet.
Result<SchemaState> EnsureSchema(Database& db, const std::vector<ontology::OntologyFile>& files,
                                 bool writable);

}  // namespace quarry::engine
