#include "store/ipc/backup.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <memory>
#include <system_error>

#include "store/engine/sqlite/errors.h"
#include "store/engine/store.h"
#include "store/ipc/database_recovery.h"

namespace quarry::ipc {
namespace {

struct BackupFinisher {
  void operator()(sqlite3_backup* backup) const noexcept { sqlite3_backup_finish(backup); }
};
using BackupHandle = std::unique_ptr<sqlite3_backup, BackupFinisher>;

// Copies every page of `source` into `destination` in one step: one read transaction on the
// source, so concurrent commits cannot make the copy restart.
Result<void> CopyPages(engine::Database& source, engine::Database& destination) {
  BackupHandle backup(sqlite3_backup_init(destination.handle(), "main", source.handle(), "main"));
  if (!backup) {
    return engine::SqliteError(destination.handle(), sqlite3_errcode(destination.handle()))
        .WithContext("backup");
  }
  const int rc = sqlite3_backup_step(backup.get(), -1);
  if (rc != SQLITE_DONE) return engine::SqliteError(destination.handle(), rc).WithContext("backup");
  const int finished = sqlite3_backup_finish(backup.release());
  if (finished != SQLITE_OK) {
    return engine::SqliteError(destination.handle(), finished).WithContext("backup");
  }
  return Ok();
}

Result<void> RemoveIfPresent(const std::filesystem::path& file) {
  std::error_code error;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::filesystem::remove(file.string() + suffix, error);
    if (error) {
      return Error(Errc::kIo,
                   fmt::format("cannot remove {}{}: {}", file.string(), suffix, error.message()));
    }
  }
  return Ok();
}

}  // namespace

Result<void> SaveBackup(engine::Database& source, const std::filesystem::path& destination) {
  if (destination.empty() || !destination.is_absolute()) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("backup path '{}' must be absolute", destination.string()));
  }
  const std::filesystem::path partial = destination.string() + ".partial";
  QUARRY_TRY(RemoveIfPresent(partial));
  {
    QUARRY_ASSIGN_OR_RETURN(engine::Database target,
                            engine::Database::Open(partial, engine::OpenMode::kReadWrite));
    auto copied = CopyPages(source, target);
    if (!copied) {
      (void)RemoveIfPresent(partial);
      return copied;
    }
  }  // closing the last connection folds the WAL into the file
  std::error_code error;
  std::filesystem::rename(partial, destination, error);
  if (error) {
    return Error(Errc::kIo, fmt::format("cannot rename {} to {}: {}", partial.string(),
                                        destination.string(), error.message()));
  }
  return Ok();
}

Result<std::filesystem::path> StageRestore(const std::filesystem::path& backup,
                                           const std::filesystem::path& staging_dir,
                                           const std::filesystem::path& ontology_dir) {
  if (backup.empty() || !backup.is_absolute()) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("backup path '{}' must be absolute", backup.string()));
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(backup, error)) {
    return Error(Errc::kNotFound, fmt::format("backup file {} does not exist", backup.string()));
  }
  std::filesystem::remove_all(staging_dir, error);
  std::filesystem::create_directories(staging_dir, error);
  if (error) {
    return Error(Errc::kIo, fmt::format("cannot create staging folder {}: {}", staging_dir.string(),
                                        error.message()));
  }
  const std::filesystem::path staged = staging_dir / kDatabaseFileName;
  {
    QUARRY_ASSIGN_OR_RETURN(engine::Database source,
                            engine::Database::Open(backup, engine::OpenMode::kReadOnly));
    QUARRY_ASSIGN_OR_RETURN(engine::Database copy,
                            engine::Database::Open(staged, engine::OpenMode::kReadWrite));
    QUARRY_TRY(CopyPages(source, copy));
    QUARRY_TRY(CheckIntegrity(copy, "integrity_check"));
  }
  QUARRY_TRY(CheckSchemaVersion(staged, true));
  // The engine's open migrates the copy to the current ontology, or says why it cannot.
  QUARRY_ASSIGN_OR_RETURN(std::unique_ptr<engine::Store> store,
                          engine::Store::Open({staging_dir, ontology_dir, false}));
  return staged;
}

}  // namespace quarry::ipc
