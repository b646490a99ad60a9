// Database: the one owner of a sqlite3* connection, its busy policy and its statement cache.
//
// Read-write connections run in WAL mode (readers never block the writer and the writer never
// blocks readers) with synchronous=NORMAL (a power cut may lose the last transactions, never
// corrupt the file), foreign_keys=OFF, temp_store=MEMORY and a 16 MiB page cache + 256 MiB
// mmap. Read-only connections (SQLITE_OPEN_READONLY) are WAL readers of the same file.
// Extended result codes are on; errors.h maps them to Errc.
//
// Lock conflicts are retried with backoff (busy.h) for up to busy_budget() (default 10 s); only
// then does an operation fail, with kBusy "database <file> stayed locked for 10 s (…)".
// Thread-safety: one thread at a time (SQLITE_OPEN_NOMUTEX); every Statement and Transaction
// of a Database must be destroyed before it.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/sqlite/statement.h"
#include "store/engine/sqlite/statement_cache.h"

namespace quarry::engine {

enum class OpenMode {
  kReadWrite,  // creates the file when missing
  kReadOnly,   // the file must exist
};

class Database {
 public:
  // Errors: kNotFound (read-only and no file), kIo (cannot open or create), kCorrupt (not a
  // database), kBusy (locked past the budget while setting up).
  static Result<Database> Open(const std::filesystem::path& file, OpenMode mode);

  // SQLite's soft heap limit for the whole process (sqlite3_soft_heap_limit64): above it, the
  // connections' page caches give pages back before taking new ones. QUARRY_SQLITE_HEAP_KIB
  // (a KiB count; 0 for none) overrides `default_kib`. Returns the limit set, in bytes.
  static int64_t LimitProcessHeap(int64_t default_kib);

  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // Runs every statement in `sql` in order, discarding rows; stops at the first error.
  Result<void> Exec(std::string_view sql);
  // Compiles one statement. `persistent` hints SQLite that it will be reused many times.
  Result<Statement> Prepare(std::string_view sql, bool persistent = false);
  StatementCache& cache();

  int64_t LastInsertRowId() const;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  int Changes() const;
  // True inside BEGIN … COMMIT (or a SAVEPOINT), false in autocommit mode.
  bool InTransaction() const;

  // For registering SQL functions and similar; do not close it.
  sqlite3* handle() const;
  const std::filesystem::path& file() const;
  OpenMode mode() const;

  // Folds the whole WAL into the database file and truncates the WAL to zero bytes, without
  // waiting for anyone: false (and nothing lost) when a reader of this or another process still
  // needs part of the WAL, which then stays for a later checkpoint. Writer connections only.
  Result<bool> TruncateWal();

  // How long lock conflicts are retried before kBusy.
  void SetBusyBudget(std::chrono::milliseconds budget);
  std::chrono::milliseconds busy_budget() const;

 private:
  struct State;
  explicit Database(std::unique_ptr<State> state);
  Result<void> Configure();
  Result<std::string> QueryText(std::string_view sql);

  std::unique_ptr<State> state_;
};

}  // namespace quarry::engine
