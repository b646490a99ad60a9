// Opening the store's own database at start, and the checks that decide a database file is
// unusable (DESIGN.md, issue 4): a file that is not a database, fails PRAGMA quick_check or
// carries an unknown schema version is moved aside — renamed with a UTC timestamp, never
// deleted, its -wal/-shm with it — and a fresh database is built in its place, once: a fresh
// database that fails too is an error, never a loop.
// An ontology change the data cannot follow is not "broken": it fails without moving anything.
// Thread-safety: plain functions; the caller's thread owns what they return.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/engine/store.h"

namespace quarry::ipc {

// The database file inside a database directory (engine::Store's name for it).
inline constexpr std::string_view kDatabaseFileName = "meta.db";

struct OpenedStore {
  std::unique_ptr<engine::Store> store;
  // Empty, or what happened to a broken database ("… moved aside to …; a fresh one created").
  std::string recovery_note;
};

// The writable Store of `options.directory` for quarry-store. kBusy when another process holds
// the directory's lock.
Result<OpenedStore> OpenServiceStore(const engine::StoreOptions& options);

// kCorrupt unless `pragma` ("quick_check" or "integrity_check") answers "ok".
Result<void> CheckIntegrity(engine::Database& db, std::string_view pragma);
// kIncompatible when the file holds a Quarry schema of another version, or (when
// `schema_required`) none at all; otherwise Ok for a missing file or a database without Quarry
// schema. kCorrupt when it is not a database.
Result<void> CheckSchemaVersion(const std::filesystem::path& database_file, bool schema_required);
// Renames the file and its -wal/-shm to "<name>.broken-<YYYYmmddTHHMMSSZ>"; returns the new path.
Result<std::filesystem::path> MoveAside(const std::filesystem::path& database_file);

}  // namespace quarry::ipc
