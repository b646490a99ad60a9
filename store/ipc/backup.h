// Backup.Save and the checking half of Backup.Restore.
//
// Save copies the live database with SQLite's online backup API from a read connection (a WAL
// reader: updates go on meanwhile) into "<path>.partial", then renames it to `path`, so a
// failed save never leaves a half file under the asked name.
// StageRestore copies a backup into a staging folder and proves it usable before anything
// live is touched: PRAGMA integrity_check, a Quarry schema of the known version, and the
// engine's own open (which migrates it to the current ontology files or refuses with
// kIncompatible). The caller then swaps the staged file in (Backend::ReplaceDatabase).
// Thread-safety: plain functions; `source` belongs to the calling thread.
#pragma once

#include <filesystem>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"

namespace quarry::ipc {

Result<void> SaveBackup(engine::Database& source, const std::filesystem::path& destination);

// Returns the staged database file (inside `staging_dir`, created fresh).
Result<std::filesystem::path> StageRestore(const std::filesystem::path& backup,
                                           const std::filesystem::path& staging_dir,
                                           const std::filesystem::path& ontology_dir);

}  // namespace quarry::ipc
