#include "store/ipc/database_recovery.h"

#include <fmt/format.h>

#include <ctime>
#include <string>
#include <string_view>
#include <system_error>

#include "store/ipc/log.h"
#include "store/schema/ddl.h"
#include "store/schema/names.h"

namespace quarry::ipc {
namespace {

std::string UtcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

// A problem that makes the file unusable (moved aside), as opposed to a reason to stop.
bool IsBrokenDatabase(const Error& error) {
  return error.code() == Errc::kCorrupt || error.code() == Errc::kIncompatible;
}

// Store::Open plus the checks Store::Open does not make. `broken` tells a broken file (to move
// aside) from a failure to report.
Result<std::unique_ptr<engine::Store>> OpenChecked(const engine::StoreOptions& options,
                                                   bool* broken) {
  *broken = false;
  auto version = CheckSchemaVersion(options.directory / kDatabaseFileName, false);
  if (!version) {
    *broken = IsBrokenDatabase(version.error());
    return std::move(version).error();
  }
  auto store = engine::Store::Open(options);
  if (!store) {
    *broken = store.error().code() == Errc::kCorrupt;
    return std::move(store).error();
  }
  if (!(*store)->writable()) {
    return Error(Errc::kBusy, fmt::format("another process writes {} (it holds {})",
                                          options.directory.string(), engine::LockFile::kFileName));
  }
  auto checked = CheckIntegrity((*store)->database(), "quick_check");
  if (!checked) {
    *broken = true;
    return std::move(checked).error();
  }
  return store;
}

}  // namespace

Result<void> CheckIntegrity(engine::Database& db, std::string_view pragma) {
  QUARRY_ASSIGN_OR_RETURN(engine::Statement check, db.Prepare(fmt::format("PRAGMA {}", pragma)));
  std::string findings;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, check.Step());
    if (!has_row) break;
    const std::string_view line = check.ColumnText(0);
    if (line == "ok") continue;
    if (!findings.empty()) findings += "; ";
    findings += line;
    if (findings.size() > 400) break;  // enough to tell what is wrong
  }
  if (findings.empty()) return Ok();
  return Error(Errc::kCorrupt,
               fmt::format("{} failed {}: {}", db.file().string(), pragma, findings));
}

Result<void> CheckSchemaVersion(const std::filesystem::path& database_file, bool schema_required) {
  std::error_code error;
  if (!schema_required && !std::filesystem::exists(database_file, error)) return Ok();
  QUARRY_ASSIGN_OR_RETURN(engine::Database db,
                          engine::Database::Open(database_file, engine::OpenMode::kReadOnly));
  QUARRY_ASSIGN_OR_RETURN(
      engine::Statement has_meta,
      db.Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1"));
  QUARRY_TRY(has_meta.Bind(1, schema::kMetaTable));
  QUARRY_ASSIGN_OR_RETURN(const bool has_schema, has_meta.Step());
  if (!has_schema && schema_required) {
    return Error(Errc::kIncompatible,
                 fmt::format("{} is not a Quarry database (it has no {} table)",
                             database_file.string(), schema::kMetaTable));
  }
  if (!has_schema) return Ok();
  QUARRY_ASSIGN_OR_RETURN(
      engine::Statement version,
      db.Prepare(fmt::format("SELECT value FROM \"{}\" WHERE key = 'schema_version'",
                             schema::kMetaTable)));
  QUARRY_ASSIGN_OR_RETURN(const bool has_version, version.Step());
  const std::string found = has_version ? std::string(version.ColumnText(0)) : "none";
  if (schema::KnownSchemaVersion(found)) return Ok();
  return Error(Errc::kIncompatible,
               fmt::format("{} has schema version {}, unknown to this build (it knows {})",
                           database_file.string(), found, schema::kSchemaVersion));
}

Result<std::filesystem::path> MoveAside(const std::filesystem::path& database_file) {
  const std::string suffix = ".broken-" + UtcTimestamp();
  const std::filesystem::path target = database_file.string() + suffix;
  std::error_code error;
  std::filesystem::rename(database_file, target, error);
  if (error) {
    return Error(Errc::kIo, fmt::format("cannot move {} aside to {}: {}", database_file.string(),
                                        target.string(), error.message()));
  }
  for (const char* companion : {"-wal", "-shm"}) {
    const std::filesystem::path file = database_file.string() + companion;
    if (!std::filesystem::exists(file, error)) continue;
    std::filesystem::rename(file, target.string() + companion, error);
    if (error) {
      return Error(Errc::kIo,
                   fmt::format("cannot move {} aside: {}", file.string(), error.message()));
    }
  }
  return target;
}

Result<OpenedStore> OpenServiceStore(const engine::StoreOptions& options) {
  const std::filesystem::path file = options.directory / kDatabaseFileName;
  bool broken = false;
  auto store = OpenChecked(options, &broken);
  if (store) return OpenedStore{std::move(*store), {}};
  if (!broken) return std::move(store).error();
  const std::string reason = store.error().ToString();
  QUARRY_ASSIGN_OR_RETURN(const std::filesystem::path moved, MoveAside(file));
  std::string note = fmt::format(
      "database {} was unusable ({}); moved aside to {}; a fresh "
      "database was created",
      file.string(), reason, moved.string());
  LogWarning(note);
  auto fresh = OpenChecked(options, &broken);
  if (!fresh) return std::move(fresh).error().WithContext("fresh database after moving one aside");
  return OpenedStore{std::move(*fresh), std::move(note)};
}

}  // namespace quarry::ipc
