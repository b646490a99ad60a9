#include "store/engine/sqlite/database.h"

#include <fmt/format.h>

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "store/engine/sqlite/busy.h"
#include "store/engine/sqlite/errors.h"

namespace quarry::engine {
namespace {

// Settings every connection gets.
constexpr std::string_view kCommonPragmas =
    "PRAGMA foreign_keys=OFF;"
    "PRAGMA temp_store=MEMORY;";

// mmap_size lets reads skip a copy for the first N bytes of the file: those pages are
// file-backed (the kernel's page cache, shared by every connection and process, dropped first
// under memory pressure), not heap, but each connection's mapping counts them in the
// process's RSS again. QUARRY_MMAP_SIZE (read-only connections) and QUARRY_WRITER_MMAP_SIZE
// (bytes) override the defaults, to measure them (bench/index/README.md "mmap_size"). The
// writer maps nothing: while indexing it touches every page of the file, and mapped they made
// quarry-store's peak RSS at 20,000 files 168 MiB, read through its cache 86 MiB, at no cost
// in indexing time. Readers keep their mapping (query rows without a copy): without it
// quarry-store's Pss under 4 query threads was 64-67 MiB instead of 92-100 (Tracker 3.4: 460)
// with the same times for the index bench's queries, but direct contact reads became 1.4-3x
// slower (bench/phonebook at 12,800: fetch_one 54 -> 88 us, prefix_short 12.4 -> 20.0 ms,
// prefix_short_uids 0.6 -> 1.9 ms; bench/index/README.md "Heap trimmer, no reader mapping").
constexpr int64_t kReaderMmapSize = 268435456;
constexpr int64_t kWriterMmapSize = 0;

int64_t MmapSize(bool is_writer) {
  const char* text = std::getenv(is_writer ? "QUARRY_WRITER_MMAP_SIZE" : "QUARRY_MMAP_SIZE");
  if (text && *text) {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (*end == '\0' && value >= 0) return value;
  }
  return is_writer ? kWriterMmapSize : kReaderMmapSize;
}

// QUARRY_CACHE_KIB (read-only connections) and QUARRY_WRITER_CACHE_KIB override cache_size
// (KiB of heap per connection), to measure them (bench/index/README.md "Memory"); unset or
// not a positive KiB count: the pragmas below decide.
// QUARRY_WAL_AUTOCHECKPOINT (pages) overrides the writer's wal_autocheckpoint the same way.
std::optional<int64_t> PositiveOverride(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value <= 0) return std::nullopt;
  return value;
}

std::optional<int64_t> CacheKibOverride(bool is_writer) {
  return PositiveOverride(is_writer ? "QUARRY_WRITER_CACHE_KIB" : "QUARRY_CACHE_KIB");
}

// The writer's extra settings. In WAL mode synchronous=NORMAL syncs only at checkpoints: a
// power cut may lose the last commits but never corrupts the file. journal_size_limit trims
// the WAL back to 64 MiB after a checkpoint so one huge import does not leave a huge file.
// cache_size (KiB when negative) is heap per connection: the writer's holds the pages a
// transaction changes (2 MiB; a page spilled to the WAL mid-transaction is read back through
// the OS cache); a reader's the pages its queries read (no mapping), 2 MiB each. quarry-store
// has a writer and 4 readers: 10 MiB of cache, not 80 (16 MiB each until 2026-12-01; peak RSS
// at 20,000 files in bench/index was 176 MiB; the writer's 8 MiB until Dec 2 session 21: the
// 12,800-contact batch save's quarry-store peak, bench/phonebook/RESULTS.md "rss, session 21").
// wal_autocheckpoint: the commit that takes the WAL past 10,000 pages (~40 MiB, under
// journal_size_limit) checkpoints it. At SQLite's default of 1,000, one-contact saves paid a
// checkpoint and its fsyncs every few dozen commits (bench/phonebook save_one at 800 contacts
// 1.1 -> 1.7 ms). quarry-store folds and truncates the WAL once its writer has been idle for a
// moment (ipc/backend.cpp), so an idle database does not keep up to 40 MiB of WAL beside it.
constexpr std::string_view kWriterPragmas =
    "PRAGMA synchronous=NORMAL;"
    "PRAGMA journal_size_limit=67108864;"
    "PRAGMA cache_size=-2048;"
    "PRAGMA wal_autocheckpoint=10000;";
constexpr std::string_view kReaderPragmas = "PRAGMA cache_size=-2048;";

struct ConnectionCloser {
  // close_v2: should a Statement outlive us by mistake, SQLite keeps the connection as a
  // zombie until it is finalized instead of failing to close.
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};

}  // namespace

struct Database::State {
  State(sqlite3* db, std::filesystem::path path, OpenMode open_mode)
      : connection(db), cache(db, &busy), file(std::move(path)), mode(open_mode) {}

  // Declared first so it is destroyed last, after the cached statements.
  std::unique_ptr<sqlite3, ConnectionCloser> connection;
  BusyPolicy busy;
  StatementCache cache;
  std::filesystem::path file;
  OpenMode mode;
};

int64_t Database::LimitProcessHeap(int64_t default_kib) {
  int64_t kib = default_kib;
  if (const char* text = std::getenv("QUARRY_SQLITE_HEAP_KIB"); text != nullptr && *text) {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (*end == '\0' && value >= 0) kib = value;
  }
  sqlite3_soft_heap_limit64(kib * 1024);
  return sqlite3_soft_heap_limit64(-1);
}

Database::Database(std::unique_ptr<State> state) : state_(std::move(state)) {}
Database::Database(Database&& other) noexcept = default;
Database& Database::operator=(Database&& other) noexcept = default;
Database::~Database() = default;

Result<Database> Database::Open(const std::filesystem::path& file, OpenMode mode) {
  if (mode == OpenMode::kReadOnly) {
    std::error_code error;
    if (!std::filesystem::exists(file, error)) {
      return Error(Errc::kNotFound, fmt::format("database {} does not exist", file.string()));
    }
  }
  const int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE |
                    (mode == OpenMode::kReadWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                                  : SQLITE_OPEN_READONLY);
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(file.c_str(), &raw, flags, nullptr);
  // Owns the handle even when opening failed: SQLite allocates one to carry the message.
  auto state = std::make_unique<State>(raw, file, mode);
  if (rc != SQLITE_OK) {
    return SqliteError(file.string(), rc,
                       raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
  }
  sqlite3_extended_result_codes(raw, 1);
  InstallBusyHandler(raw, &state->busy);
  Database db(std::move(state));
  QUARRY_TRY(db.Configure());
  return db;
}

Result<void> Database::Configure() {
  if (mode() == OpenMode::kReadWrite) {
    // Also the first read of the file: a file that is not a database fails here (kCorrupt).
    QUARRY_ASSIGN_OR_RETURN(const std::string journal, QueryText("PRAGMA journal_mode=WAL"));
    if (journal != "wal") {
      return Error(Errc::kIo, fmt::format("database {}: cannot switch to WAL mode (journal mode "
                                          "stays \"{}\")",
                                          file().string(), journal));
    }
    QUARRY_TRY(Exec(kWriterPragmas));
    if (const auto kib = CacheKibOverride(true)) {
      QUARRY_TRY(Exec(fmt::format("PRAGMA cache_size=-{};", *kib)));
    }
    if (const auto pages = PositiveOverride("QUARRY_WAL_AUTOCHECKPOINT")) {
      QUARRY_TRY(Exec(fmt::format("PRAGMA wal_autocheckpoint={};", *pages)));
    }
    QUARRY_TRY(Exec(fmt::format("PRAGMA mmap_size={};", MmapSize(true))));
    return Exec(kCommonPragmas);
  }
  QUARRY_TRY(Exec(kCommonPragmas));
  QUARRY_TRY(Exec(kReaderPragmas));
  if (const auto kib = CacheKibOverride(false)) {
    QUARRY_TRY(Exec(fmt::format("PRAGMA cache_size=-{};", *kib)));
  }
  QUARRY_TRY(Exec(fmt::format("PRAGMA mmap_size={};", MmapSize(false))));
  // Read the header now, so a damaged file is reported by Open(), not by the first query.
  QUARRY_TRY(QueryText("SELECT count(*) FROM sqlite_schema"));
  return Ok();
}

Result<std::string> Database::QueryText(std::string_view sql) {
  QUARRY_ASSIGN_OR_RETURN(Statement statement, Prepare(sql));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
  return has_row ? std::string(statement.ColumnText(0)) : std::string();
}

Result<void> Database::Exec(std::string_view sql) {
  std::string_view rest = sql;
  while (!rest.empty()) {
    std::string_view next;
    QUARRY_ASSIGN_OR_RETURN(Statement statement,
                            Statement::CompileFirst(handle(), state_->busy, rest, 0, &next));
    if (next.size() >= rest.size()) break;  // nothing consumed: only trailing whitespace
    rest = next;
    if (!statement.valid()) continue;  // a comment
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
      if (!has_row) break;
    }
  }
  return Ok();
}

Result<Statement> Database::Prepare(std::string_view sql, bool persistent) {
  return Statement::Compile(handle(), state_->busy, sql,
                            persistent ? SQLITE_PREPARE_PERSISTENT : 0);
}

StatementCache& Database::cache() {
  assert(state_ != nullptr);
  return state_->cache;
}

int64_t Database::LastInsertRowId() const { return sqlite3_last_insert_rowid(handle()); }

int Database::Changes() const { return sqlite3_changes(handle()); }

bool Database::InTransaction() const { return sqlite3_get_autocommit(handle()) == 0; }

sqlite3* Database::handle() const {
  assert(state_ != nullptr && "use of a moved-from Database");
  return state_->connection.get();
}

const std::filesystem::path& Database::file() const { return state_->file; }

OpenMode Database::mode() const { return state_->mode; }

Result<bool> Database::TruncateWal() {
  const std::chrono::milliseconds budget = busy_budget();
  SetBusyBudget(std::chrono::milliseconds(0));  // no retry: a busy reader means "later"
  const int rc = sqlite3_wal_checkpoint_v2(handle(), nullptr, SQLITE_CHECKPOINT_TRUNCATE,
                                           nullptr, nullptr);
  SetBusyBudget(budget);
  if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) return false;
  if (rc != SQLITE_OK) return SqliteError(handle(), rc, "PRAGMA wal_checkpoint(TRUNCATE)");
  return true;
}

void Database::SetBusyBudget(std::chrono::milliseconds budget) { state_->busy.budget = budget; }

std::chrono::milliseconds Database::busy_budget() const { return state_->busy.budget; }

}  // namespace quarry::engine
