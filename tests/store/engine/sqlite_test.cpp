// Database, Statement and StatementCache: opening, settings, binding, column views, caching.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "store/engine/sqlite/database.h"
#include "tests/store/engine/sqlite_test_util.h"

namespace quarry::engine {
namespace {

using testing::Check;
using testing::QueryInt;
using testing::QueryText;
using testing::TempDir;
using testing::Unwrap;

TEST_CASE("Database: Open creates the file with WAL and the writer's settings") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  CHECK(std::filesystem::exists(dir / "meta.db"));
  CHECK(db.file() == dir / "meta.db");
  CHECK(db.mode() == OpenMode::kReadWrite);
  CHECK(QueryText(db, "PRAGMA journal_mode") == "wal");
  CHECK(QueryInt(db, "PRAGMA synchronous") == 1);  // NORMAL
  CHECK(QueryInt(db, "PRAGMA foreign_keys") == 0);
  CHECK(QueryInt(db, "PRAGMA temp_store") == 2);  // MEMORY
  CHECK(QueryInt(db, "PRAGMA cache_size") == -2048);  // 2 MiB of heap
  CHECK(QueryInt(db, "PRAGMA mmap_size") == 0);  // the writer reads through its cache
  CHECK(QueryInt(db, "PRAGMA wal_autocheckpoint") == 10000);  // quarry-store folds it when idle
  CHECK(db.busy_budget() == std::chrono::seconds(10));
  CHECK_FALSE(db.InTransaction());
}

TEST_CASE("Database: QUARRY_MMAP_SIZE and QUARRY_WRITER_MMAP_SIZE override mmap_size") {
  const TempDir dir;
  ::setenv("QUARRY_WRITER_MMAP_SIZE", "1048576", 1);
  ::setenv("QUARRY_MMAP_SIZE", "2097152", 1);
  Database writer = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(writer.Exec("CREATE TABLE t(x)"));
  Database reader = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadOnly));
  CHECK(QueryInt(writer, "PRAGMA mmap_size") == 1048576);
  CHECK(QueryInt(reader, "PRAGMA mmap_size") == 2097152);
  // A value that is not a byte count is ignored: the default (a reader maps 256 MiB) stays.
  ::setenv("QUARRY_MMAP_SIZE", "lots", 1);
  Database other = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadOnly));
  CHECK(QueryInt(other, "PRAGMA mmap_size") == 268435456);
  ::unsetenv("QUARRY_WRITER_MMAP_SIZE");
  ::unsetenv("QUARRY_MMAP_SIZE");
}

TEST_CASE("Database: QUARRY_CACHE_KIB and QUARRY_WRITER_CACHE_KIB override cache_size") {
  const TempDir dir;
  ::setenv("QUARRY_WRITER_CACHE_KIB", "3000", 1);
  ::setenv("QUARRY_CACHE_KIB", "700", 1);
  Database writer = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(writer.Exec("CREATE TABLE t(x)"));
  Database reader = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadOnly));
  CHECK(QueryInt(writer, "PRAGMA cache_size") == -3000);
  CHECK(QueryInt(reader, "PRAGMA cache_size") == -700);
  // Not a positive KiB count: ignored, the defaults stay.
  ::setenv("QUARRY_WRITER_CACHE_KIB", "0", 1);
  ::setenv("QUARRY_CACHE_KIB", "big", 1);
  Database writer2 = Unwrap(Database::Open(dir / "other.db", OpenMode::kReadWrite));
  Check(writer2.Exec("CREATE TABLE t(x)"));
  Database reader2 = Unwrap(Database::Open(dir / "other.db", OpenMode::kReadOnly));
  CHECK(QueryInt(writer2, "PRAGMA cache_size") == -2048);
  CHECK(QueryInt(reader2, "PRAGMA cache_size") == -2048);
  ::unsetenv("QUARRY_WRITER_CACHE_KIB");
  ::unsetenv("QUARRY_CACHE_KIB");
}

TEST_CASE("Database: LimitProcessHeap sets SQLite's soft heap limit, QUARRY_SQLITE_HEAP_KIB wins") {
  const int64_t before = sqlite3_soft_heap_limit64(-1);
  CHECK(Database::LimitProcessHeap(12288) == int64_t{12288} * 1024);
  CHECK(sqlite3_soft_heap_limit64(-1) == int64_t{12288} * 1024);
  ::setenv("QUARRY_SQLITE_HEAP_KIB", "0", 1);  // none
  CHECK(Database::LimitProcessHeap(12288) == 0);
  ::setenv("QUARRY_SQLITE_HEAP_KIB", "4096", 1);
  CHECK(Database::LimitProcessHeap(12288) == int64_t{4096} * 1024);
  ::setenv("QUARRY_SQLITE_HEAP_KIB", "-5", 1);  // not a KiB count: the default
  CHECK(Database::LimitProcessHeap(12288) == int64_t{12288} * 1024);
  ::unsetenv("QUARRY_SQLITE_HEAP_KIB");
  sqlite3_soft_heap_limit64(before);
}

TEST_CASE("Database: a read-only connection reads the writer's data but cannot write") {
  const TempDir dir;
  Database writer = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(writer.Exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);"));

  Database reader = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadOnly));
  CHECK(reader.mode() == OpenMode::kReadOnly);
  // A reader maps the file (direct reads 1.4-3x faster than through its 2 MiB cache).
  CHECK(QueryInt(reader, "PRAGMA cache_size") == -2048);
  CHECK(QueryInt(reader, "PRAGMA mmap_size") == 268435456);
  CHECK(QueryInt(reader, "SELECT count(*) FROM t") == 2);
  Check(writer.Exec("INSERT INTO t VALUES (3)"));
  CHECK(QueryInt(reader, "SELECT count(*) FROM t") == 3);  // WAL reader sees new commits

  const Result<void> written = reader.Exec("INSERT INTO t VALUES (4)");
  REQUIRE_FALSE(written.ok());
  CHECK(written.error().code() == Errc::kIo);
  CHECK(written.error().message().find("readonly") != std::string::npos);
  CHECK(written.error().message().find("open read-only") != std::string::npos);
  CHECK(written.error().message().find((dir / "meta.db").string()) != std::string::npos);
  CHECK(QueryInt(writer, "SELECT count(*) FROM t") == 3);
}

TEST_CASE("Database: open failures are kNotFound or kIo and name the file") {
  const TempDir dir;
  SUBCASE("read-only open of a missing file") {
    const Result<Database> db = Database::Open(dir / "missing.db", OpenMode::kReadOnly);
    REQUIRE_FALSE(db.ok());
    CHECK(db.error().code() == Errc::kNotFound);
    CHECK(db.error().message().find("missing.db") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "missing.db"));
  }
  SUBCASE("read-write open in a missing directory") {
    const Result<Database> db =
        Database::Open(dir / "no" / "such" / "meta.db", OpenMode::kReadWrite);
    REQUIRE_FALSE(db.ok());
    CHECK(db.error().code() == Errc::kIo);
    CHECK(db.error().message().find("no/such/meta.db") != std::string::npos);
  }
}

TEST_CASE("Database: a moved Database keeps its connection and statements") {
  const TempDir dir;
  Database first = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(first.Exec("CREATE TABLE t(x)"));
  Statement* insert = Unwrap(first.cache().Get("INSERT INTO t VALUES (?1)"));
  Database second = std::move(first);
  Check(insert->Bind(1, 7));
  CHECK_FALSE(Unwrap(insert->Step()));
  CHECK(QueryInt(second, "SELECT x FROM t") == 7);
}

TEST_CASE("Statement: every type binds and reads back as a view") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(i INTEGER, r REAL, s TEXT, b BLOB, n, e TEXT, eb BLOB)"));
  Statement insert = Unwrap(db.Prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"));
  const std::string text("h\xC3\xA9llo\0tail", 11);  // UTF-8 and an embedded NUL
  const std::vector<std::byte> bytes = {std::byte{0}, std::byte{0xFF}, std::byte{7}};
  Check(insert.Bind(1, INT64_MAX));
  Check(insert.Bind(2, 2.5));
  Check(insert.Bind(3, std::string_view(text)));
  Check(insert.Bind(4, BlobView{bytes}));
  Check(insert.Bind(5, nullptr));
  Check(insert.Bind(6, std::string_view()));
  Check(insert.Bind(7, BlobView{}));
  CHECK_FALSE(Unwrap(insert.Step()));
  CHECK(db.Changes() == 1);
  CHECK(db.LastInsertRowId() == 1);

  Statement select = Unwrap(db.Prepare("SELECT i, r, s, b, n, e, eb FROM t"));
  REQUIRE(Unwrap(select.Step()));
  REQUIRE(select.ColumnCount() == 7);
  CHECK(select.ColumnName(2) == "s");
  CHECK(select.ColumnType(0) == SQLITE_INTEGER);
  CHECK(select.ColumnInt64(0) == INT64_MAX);
  CHECK(select.ColumnType(1) == SQLITE_FLOAT);
  CHECK(select.ColumnDouble(1) == 2.5);
  CHECK(select.ColumnType(2) == SQLITE_TEXT);
  CHECK(select.ColumnText(2) == text);
  CHECK(select.ColumnType(3) == SQLITE_BLOB);
  const std::span<const std::byte> blob = select.ColumnBlob(3);
  CHECK(std::vector<std::byte>(blob.begin(), blob.end()) == bytes);
  CHECK(select.IsNull(4));
  CHECK(select.ColumnText(4).empty());
  CHECK(select.ColumnType(5) == SQLITE_TEXT);  // the empty string is not NULL
  CHECK(select.ColumnText(5).empty());
  CHECK(select.ColumnType(6) == SQLITE_BLOB);  // nor is the empty blob
  CHECK(select.ColumnBlob(6).empty());
  CHECK_FALSE(Unwrap(select.Step()));
}

TEST_CASE("Statement: named parameters, bad indexes and the SQL in messages") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Statement statement = Unwrap(db.Prepare("SELECT :name, ?7"));
  CHECK(statement.BindParameterIndex(":name") == 1);
  CHECK(statement.BindParameterIndex("?7") == 7);
  CHECK_FALSE(statement.BindParameterIndex(":other").has_value());
  CHECK(statement.BindParameterCount() == 7);
  CHECK(statement.Sql() == "SELECT :name, ?7");

  const Result<void> bound = statement.Bind(9, 1);
  REQUIRE_FALSE(bound.ok());
  CHECK(bound.error().code() == Errc::kInternal);
  CHECK(bound.error().ToString().find("binding parameter 9") != std::string::npos);
  CHECK(bound.error().ToString().find("SELECT :name, ?7") != std::string::npos);
}

TEST_CASE("Prepare: one statement, syntax errors quote the start of the SQL") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  CHECK(db.Prepare("SELECT 1;  \n").ok());
  const Result<Statement> two = db.Prepare("SELECT 1; SELECT 2");
  REQUIRE_FALSE(two.ok());
  CHECK(two.error().message().find("one statement") != std::string::npos);
  CHECK_FALSE(db.Prepare("  -- only a comment").ok());

  const std::string long_sql =
      "SELECT nonsense FROM missing_table WHERE x = '" + std::string(400, 'x') + "'";
  const Result<Statement> bad = db.Prepare(long_sql);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == Errc::kInternal);
  const std::string& message = bad.error().message();
  CHECK(message.find("no such table") != std::string::npos);
  CHECK(message.find("no such table: missing_table") != std::string::npos);
  CHECK(message.find("in \"SELECT nonsense FROM missing_table WHERE x = 'xxx") !=
        std::string::npos);
  CHECK(message.find("…") != std::string::npos);
  CHECK(message.size() < 400);
}

TEST_CASE("Exec: several statements, comments, and stopping at the first error") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(
      db.Exec("-- schema\nCREATE TABLE t(x UNIQUE);\n/* rows */ INSERT INTO t VALUES (1);\n"
              "SELECT * FROM t; INSERT INTO t VALUES (2); -- trailing comment"));
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 2);
  const Result<void> failed = db.Exec(
      "INSERT INTO t VALUES (3); INSERT INTO t VALUES (1); "
      "INSERT INTO t VALUES (4)");
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().code() == Errc::kConstraint);
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 3);  // 3 went in, 4 never ran
  Check(db.Exec(""));
  Check(db.Exec("   "));
}

TEST_CASE("StatementCache: hot SQL is compiled once and handed out clean") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);"));
  StatementCache& cache = db.cache();
  const uint64_t misses = cache.misses();
  const uint64_t hits = cache.hits();
  constexpr std::string_view kSql = "SELECT x FROM t WHERE x >= ?1 ORDER BY x";

  Statement* first = Unwrap(cache.Get(kSql));
  Check(first->Bind(1, 2));
  REQUIRE(Unwrap(first->Step()));
  CHECK(first->ColumnInt64(0) == 2);  // left mid-iteration, with a binding

  Statement* again = Unwrap(cache.Get(kSql));
  CHECK(again == first);
  CHECK(cache.misses() == misses + 1);
  CHECK(cache.hits() == hits + 1);
  // Reset (starts over) and cleared (x >= NULL matches nothing).
  CHECK_FALSE(Unwrap(again->Step()));

  for (int i = 0; i < 1000; ++i) (void)Unwrap(cache.Get(kSql));
  CHECK(cache.misses() == misses + 1);
  CHECK(cache.hits() == hits + 1001);
}

TEST_CASE("StatementCache: long texts that differ only between the hashed samples stay apart") {
  // The cache hashes a sample of a long text (issue 7: contact reads run 10-40 KB of SQL per
  // execution); texts alike in every sampled byte must still be different statements.
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  StatementCache& cache = db.cache();
  // 400 terms "+ 0" with one "+ 1" at term `at`: same length, same ends.
  const auto sum_text = [](size_t at) {
    std::string sql = "SELECT 0";
    for (size_t i = 0; i < 400; ++i) sql += i == at ? " + 1" : " + 0";
    return sql;
  };
  const uint64_t misses = cache.misses();
  for (size_t at = 100; at < 300; ++at) {
    CAPTURE(at);
    Statement borrowed = Unwrap(cache.Borrow(sum_text(at)));
    REQUIRE(Unwrap(borrowed.Step()));
    CHECK(borrowed.ColumnInt64(0) == 1);
  }
  for (const size_t at : {size_t{401}, size_t{150}}) {
    Statement again = Unwrap(cache.Borrow(sum_text(at)));
    REQUIRE(Unwrap(again.Step()));
    CHECK(again.ColumnInt64(0) == (at < 400 ? 1 : 0));
  }
  CHECK(cache.misses() == misses + 201);  // each text compiled once: 200, then "no + 1"
}

TEST_CASE("StatementCache: least recently used entries go, busy and borrowed ones stay") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);"));
  StatementCache& cache = db.cache();
  cache.Clear();
  cache.SetCapacity(2);
  CHECK(cache.capacity() == 2);

  SUBCASE("eviction order") {
    (void)Unwrap(cache.Get("SELECT 1"));
    (void)Unwrap(cache.Get("SELECT 2"));
    (void)Unwrap(cache.Get("SELECT 1"));  // now most recent
    (void)Unwrap(cache.Get("SELECT 3"));  // evicts SELECT 2
    CHECK(cache.size() == 2);
    const uint64_t misses = cache.misses();
    (void)Unwrap(cache.Get("SELECT 1"));
    CHECK(cache.misses() == misses);
    (void)Unwrap(cache.Get("SELECT 2"));
    CHECK(cache.misses() == misses + 1);
  }
  SUBCASE("a statement mid-step is not finalized under its user") {
    Statement* reading = Unwrap(cache.Get("SELECT x FROM t ORDER BY x"));
    REQUIRE(Unwrap(reading->Step()));
    (void)Unwrap(cache.Get("SELECT 1"));
    (void)Unwrap(cache.Get("SELECT 2"));
    (void)Unwrap(cache.Get("SELECT 3"));
    REQUIRE(Unwrap(reading->Step()));
    CHECK(reading->ColumnInt64(0) == 2);
    reading->Reset();
  }
  SUBCASE("a borrowed statement is pinned, then returned reset and cleared") {
    {
      Statement borrowed = Unwrap(cache.Borrow("SELECT x FROM t WHERE x = ?1"));
      CHECK(borrowed.borrowed());
      (void)Unwrap(cache.Get("SELECT 1"));
      (void)Unwrap(cache.Get("SELECT 2"));
      (void)Unwrap(cache.Get("SELECT 3"));
      Check(borrowed.Bind(1, 2));
      REQUIRE(Unwrap(borrowed.Step()));
      CHECK(borrowed.ColumnInt64(0) == 2);
    }
    const uint64_t misses = cache.misses();
    Statement* returned = Unwrap(cache.Get("SELECT x FROM t WHERE x = ?1"));
    CHECK(cache.misses() == misses);
    CHECK_FALSE(sqlite3_stmt_busy(returned->handle()));
    CHECK_FALSE(Unwrap(returned->Step()));  // binding cleared
  }
}

TEST_CASE("StatementCache: a Borrow slot finds its entry again, and nothing once it is gone") {
  // Store::Run keeps a Slot per prepared query instead of hashing its SQL on every run
  // (issue 7). A slot naming an evicted, cleared or other cache's entry must fall back to the
  // text, never hand out another statement.
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);"));
  StatementCache& cache = db.cache();
  cache.Clear();
  cache.SetCapacity(2);
  constexpr std::string_view kSql = "SELECT x FROM t WHERE x >= ?1 ORDER BY x";
  const auto first_at_least = [&](StatementCache::Slot& slot, int64_t low) {
    Statement statement = Unwrap(cache.Borrow(kSql, slot));
    Check(statement.Bind(1, low));
    REQUIRE(Unwrap(statement.Step()));
    return statement.ColumnInt64(0);
  };
  StatementCache::Slot slot;
  const uint64_t misses = cache.misses();
  CHECK(first_at_least(slot, 2) == 2);
  CHECK(cache.misses() == misses + 1);
  REQUIRE(slot.serial != 0);
  const uint64_t serial = slot.serial;
  sqlite3_stmt* const handle = Unwrap(cache.Get(kSql))->handle();

  SUBCASE("found by its slot: no compile, the same handle, reset and cleared") {
    const uint64_t hits = cache.hits();
    {
      Statement again = Unwrap(cache.Borrow(kSql, slot));
      CHECK(again.handle() == handle);
      CHECK_FALSE(Unwrap(again.Step()));  // binding cleared: x >= NULL
    }
    CHECK(first_at_least(slot, 3) == 3);
    CHECK(cache.misses() == misses + 1);
    CHECK(cache.hits() == hits + 2);
    CHECK(slot.serial == serial);
  }
  SUBCASE("pinned: a second borrower through the slot gets its own statement") {
    Statement held = Unwrap(cache.Borrow(kSql, slot));
    Check(held.Bind(1, 1));
    REQUIRE(Unwrap(held.Step()));
    CHECK(first_at_least(slot, 3) == 3);
    CHECK(slot.serial == serial);
    REQUIRE(Unwrap(held.Step()));
    CHECK(held.ColumnInt64(0) == 2);  // the holder's rows went on undisturbed
  }
  SUBCASE("evicted: the slot finds nothing, the text is compiled again") {
    (void)Unwrap(cache.Get("SELECT 1"));
    (void)Unwrap(cache.Get("SELECT 2"));  // capacity 2: kSql goes
    CHECK(first_at_least(slot, 2) == 2);
    CHECK(cache.misses() == misses + 4);
    CHECK(slot.serial != serial);
    // The new entry is found by the slot again.
    CHECK(first_at_least(slot, 1) == 1);
    CHECK(cache.misses() == misses + 4);
  }
  SUBCASE("cleared (e.g. before a schema change): compiled again against the new schema") {
    cache.Clear();
    Check(db.Exec("DROP TABLE t; CREATE TABLE t(y, x); INSERT INTO t VALUES (0, 7);"));
    CHECK(first_at_least(slot, 2) == 7);
    CHECK(cache.misses() == misses + 2);
    CHECK(slot.serial != serial);
  }
  SUBCASE("another cache's slot: that cache's own statement, from its own database") {
    const TempDir other_dir;
    Database other = Unwrap(Database::Open(other_dir / "meta.db", OpenMode::kReadWrite));
    Check(other.Exec("CREATE TABLE t(x); INSERT INTO t VALUES (40), (50);"));
    StatementCache::Slot shared = slot;
    Statement statement = Unwrap(other.cache().Borrow(kSql, shared));
    Check(statement.Bind(1, 45));
    REQUIRE(Unwrap(statement.Step()));
    CHECK(statement.ColumnInt64(0) == 50);
    CHECK(shared.serial != serial);
  }
}

TEST_CASE("Database: Prepare(persistent) and cached statements survive schema changes") {
  const TempDir dir;
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(x); INSERT INTO t VALUES (1);"));
  Statement persistent = Unwrap(db.Prepare("SELECT * FROM t", /*persistent=*/true));
  Statement* cached = Unwrap(db.cache().Get("SELECT * FROM t"));
  Check(db.Exec("ALTER TABLE t ADD COLUMN y DEFAULT 5"));
  REQUIRE(Unwrap(persistent.Step()));
  CHECK(persistent.ColumnCount() == 2);  // SQLite recompiles after the schema change
  REQUIRE(Unwrap(cached->Step()));
  CHECK(cached->ColumnInt64(1) == 5);
  cached->Reset();
}

}  // namespace
}  // namespace quarry::engine
