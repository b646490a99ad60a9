#include "store/engine/migrate.h"

#include <fmt/format.h>

#include <map>
#include <string>

#include "store/engine/sqlite/transaction.h"
#include "store/schema/ddl.h"
#include "store/schema/fts.h"
#include "store/schema/migration_plan.h"
#include "store/schema/names.h"

namespace quarry::engine {
namespace {

using ontology::OntologyFile;

Result<bool> HasTable(Database& db, std::string_view table) {
  QUARRY_ASSIGN_OR_RETURN(Statement statement,
                          db.Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1"));
  QUARRY_TRY(statement.Bind(1, table));
  return statement.Step();
}

// Schema steps, once, when a writer opens an older database, in the transaction that records
// the new version. 1 -> 2: indexes on single-valued columns made before they were partial are
// rebuilt as partial ones (schema::PartialIndexUpgradeSql). 2 -> 3: rowid multi-valued tables
// are rebuilt WITHOUT ROWID with their rows, indexes and triggers
// (schema::WithoutRowidUpgradeSql). Both look at what is stored, so each is a no-op on a
// database that already has the newer layout.
Result<void> UpgradeSchema(Database& db, const ontology::Ontology& ontology, int version) {
  QUARRY_ASSIGN_OR_RETURN(
      Statement select,
      db.Prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL"));
  std::map<std::string, std::string> indexes;
  std::map<std::string, std::string> tables;
  std::multimap<std::string, std::string> dependents;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, select.Step());
    if (!has_row) break;
    const std::string type(select.ColumnText(0));
    std::string name(select.ColumnText(1));
    std::string sql(select.ColumnText(3));
    if (type == "table") {
      tables.emplace(std::move(name), std::move(sql));
    } else if (type == "index" || type == "trigger") {
      dependents.emplace(std::string(select.ColumnText(2)), sql);
      if (type == "index") indexes.emplace(std::move(name), std::move(sql));
    }
  }
  select.Reset();
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction, Transaction::Begin(db, TransactionMode::kImmediate));
  if (version < 2) {
    // Only indexes on class tables: the multi-valued tables' dependents below stay as read.
    for (const std::string& sql : schema::PartialIndexUpgradeSql(ontology, indexes)) {
      QUARRY_TRY(db.Exec(sql));
    }
  }
  if (version < 3) {
    for (const std::string& sql : schema::WithoutRowidUpgradeSql(ontology, tables, dependents)) {
      auto done = db.Exec(sql);
      if (!done) return std::move(done).error().WithContext("schema step to version 3");
    }
  }
  QUARRY_TRY(db.Exec(fmt::format("UPDATE {} SET value = '{}' WHERE key = 'schema_version'",
                                 schema::kMetaTable, schema::kSchemaVersion)));
  return transaction.Commit();
}

Result<bool> LacksFtsMergeSettings(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(const bool has_fts, HasTable(db, schema::FtsConfigTable()));
  if (!has_fts) return false;
  QUARRY_ASSIGN_OR_RETURN(Statement lacks, db.Prepare(schema::FtsLacksMergeSettingsSql()));
  return lacks.Step();
}

// A database made before the FTS5 merge settings (schema/fts.h) gets them when a writer opens
// it: a read at each open, a write once.
Result<void> EnsureFtsMergeSettings(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(const bool missing, LacksFtsMergeSettings(db));
  if (!missing) return Ok();
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction,
                          Transaction::Begin(db, TransactionMode::kImmediate));
  for (const std::string& sql : schema::FtsMergeSettingsSql()) QUARRY_TRY(db.Exec(sql));
  return transaction.Commit();
}

Result<std::vector<OntologyFile>> StoredOntology(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(
      Statement statement,
      db.Prepare(fmt::format("SELECT file, text FROM {} ORDER BY file", schema::kOntologyTable)));
  std::vector<OntologyFile> files;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
    if (!has_row) break;
    files.push_back({std::string(statement.ColumnText(0)), std::string(statement.ColumnText(1))});
  }
  return files;
}

Result<void> StoreOntologyTexts(Database& db, const std::vector<OntologyFile>& files) {
  QUARRY_TRY(db.Exec(fmt::format("DELETE FROM {}", schema::kOntologyTable)));
  QUARRY_ASSIGN_OR_RETURN(
      Statement insert,
      db.Prepare(fmt::format("INSERT INTO {} (file, text) VALUES (?1, ?2)", schema::kOntologyTable)));
  for (const OntologyFile& file : files) {
    QUARRY_TRY(insert.Bind(1, std::string_view(file.name)));
    QUARRY_TRY(insert.Bind(2, std::string_view(file.text)));
    QUARRY_TRY(insert.Step());
    insert.Reset();
  }
  return Ok();
}

// The stored schema version, if this build knows it.
Result<int> CheckSchemaVersion(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(
      Statement statement,
      db.Prepare(fmt::format("SELECT value FROM {} WHERE key = 'schema_version'", schema::kMetaTable)));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
  const std::string version = has_row ? std::string(statement.ColumnText(0)) : "none";
  if (!schema::KnownSchemaVersion(version)) {
    return Error(Errc::kIncompatible,
                 fmt::format("schema version {} is unknown to this build (it knows {} to {})",
                             version, schema::kOldestSchemaVersion, schema::kSchemaVersion));
  }
  return std::stoi(version);
}

Result<SchemaState> Create(Database& db, const std::vector<OntologyFile>& files) {
  QUARRY_ASSIGN_OR_RETURN(auto ontology, ontology::LoadOntologyTexts(files));
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction, Transaction::Begin(db, TransactionMode::kImmediate));
  for (const std::string& sql : schema::CreateSchemaSql(*ontology)) QUARRY_TRY(db.Exec(sql));
  QUARRY_TRY(StoreOntologyTexts(db, files));
  QUARRY_TRY(transaction.Commit());
  return SchemaState{std::move(ontology), {"created"}};
}

Result<void> RunPlan(Database& db, const schema::MigrationPlan& plan,
                     const std::vector<OntologyFile>& files) {
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction, Transaction::Begin(db, TransactionMode::kImmediate));
  for (const schema::MigrationCheck& check : plan.checks) {
    QUARRY_ASSIGN_OR_RETURN(Statement statement, db.Prepare(check.sql));
    QUARRY_ASSIGN_OR_RETURN(const bool violated, statement.Step());
    if (violated) {
      return Error(Errc::kIncompatible,
                   check.message + "; the database was left unchanged");
    }
  }
  for (const std::string& sql : plan.statements) {
    auto done = db.Exec(sql);
    if (!done) return std::move(done).error().WithContext("migration step");
  }
  QUARRY_TRY(StoreOntologyTexts(db, files));
  return transaction.Commit();
}

}  // namespace

Result<SchemaState> EnsureSchema(Database& db, const std::vector<OntologyFile>& files,
                                 bool writable) {
  QUARRY_ASSIGN_OR_RETURN(const bool has_schema, HasTable(db, schema::kMetaTable));
  if (!has_schema) {
    if (!writable) return Error(Errc::kNotFound, "the database has no Quarry schema yet");
    return Create(db, files);
  }
  QUARRY_ASSIGN_OR_RETURN(const int version, CheckSchemaVersion(db));
  QUARRY_ASSIGN_OR_RETURN(std::vector<OntologyFile> stored, StoredOntology(db));
  auto old_ontology = ontology::LoadOntologyTexts(stored);
  if (!old_ontology) {
    return std::move(old_ontology).error().WithContext("ontology stored in the database");
  }
  const bool same = stored.size() == files.size() &&
                    std::equal(stored.begin(), stored.end(), files.begin(),
                               [](const OntologyFile& a, const OntologyFile& b) {
                                 return a.name == b.name && a.text == b.text;
                               });
  if (writable && version < schema::kSchemaVersion) {
    QUARRY_TRY(UpgradeSchema(db, **old_ontology, version));
  }
  if (writable) QUARRY_TRY(EnsureFtsMergeSettings(db));
  if (same || !writable) return SchemaState{std::move(*old_ontology), {}};
  QUARRY_ASSIGN_OR_RETURN(auto new_ontology, ontology::LoadOntologyTexts(files));
  const schema::MigrationPlan plan = schema::PlanMigration(**old_ontology, *new_ontology);
  auto ran = RunPlan(db, plan, files);
  if (!ran) return std::move(ran).error().WithContext("ontology migration");
  std::vector<std::string> changes = plan.summary;
  if (changes.empty()) changes.push_back("ontology files changed without schema changes");
  return SchemaState{std::move(new_ontology), std::move(changes)};
}

}  // namespace quarry::engine
