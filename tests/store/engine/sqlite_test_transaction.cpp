// Transactions, savepoints, and SQLite errors mapped to Errc.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <fstream>
#include <string>

#include "store/engine/sqlite/database.h"
#include "store/engine/sqlite/errors.h"
#include "store/engine/sqlite/transaction.h"
#include "tests/store/engine/sqlite_test_util.h"

namespace quarry::engine {
namespace {

using testing::Check;
using testing::QueryInt;
using testing::QueryText;
using testing::Since;
using testing::TempDir;
using testing::Unwrap;

Database OpenWithTable(const TempDir& dir) {
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(x INTEGER UNIQUE)"));
  return db;
}

void Insert(Database& db, int64_t value) {
  Statement* insert = Unwrap(db.cache().Get("INSERT INTO t VALUES (?1)"));
  Check(insert->Bind(1, value));
  CHECK_FALSE(Unwrap(insert->Step()));
}

std::string Values(Database& db) {
  return QueryText(db,
                   "SELECT coalesce(group_concat(x, ','), '') FROM (SELECT x FROM t ORDER BY x)");
}

TEST_CASE("Transaction: rolls back when it goes out of scope uncommitted") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  for (const TransactionMode mode : {TransactionMode::kImmediate, TransactionMode::kDeferred}) {
    {
      Transaction transaction = Unwrap(Transaction::Begin(db, mode));
      CHECK(transaction.active());
      CHECK(db.InTransaction());
      Insert(db, 1);
      CHECK(Values(db) == "1");
    }
    CHECK_FALSE(db.InTransaction());
    CHECK(Values(db) == "");
  }
}

TEST_CASE("Transaction: Commit keeps the changes, a finished transaction refuses more") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Transaction transaction = Unwrap(Transaction::Begin(db));
  Insert(db, 1);
  Insert(db, 2);
  Check(transaction.Commit());
  CHECK_FALSE(transaction.active());
  CHECK_FALSE(db.InTransaction());
  const Result<void> again = transaction.Commit();
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().code() == Errc::kInternal);
  Check(transaction.Rollback());  // a no-op now
  CHECK(Values(db) == "1,2");

  Transaction moved_from = Unwrap(Transaction::Begin(db));
  Insert(db, 3);
  Transaction moved = std::move(moved_from);
  CHECK_FALSE(moved_from.active());
  Check(moved.Commit());
  CHECK(Values(db) == "1,2,3");
}

TEST_CASE("Transaction: a nested Begin is refused and the outer one still works") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Transaction outer = Unwrap(Transaction::Begin(db));
  const Result<Transaction> inner = Transaction::Begin(db);
  REQUIRE_FALSE(inner.ok());
  CHECK(inner.error().message().find("within a transaction") != std::string::npos);
  Insert(db, 1);
  Check(outer.Commit());
  CHECK(Values(db) == "1");
}

TEST_CASE("Savepoint: rolling back undoes one update, not the whole batch") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Transaction transaction = Unwrap(Transaction::Begin(db));
  Insert(db, 1);
  {
    Savepoint update = Unwrap(Savepoint::Begin(db, "update"));
    Insert(db, 2);
    Check(update.Rollback());
    CHECK_FALSE(update.active());
  }
  {
    Savepoint update = Unwrap(Savepoint::Begin(db, "update"));
    Insert(db, 3);
    Check(update.Release());
  }
  {
    Savepoint update = Unwrap(Savepoint::Begin(db, "odd \"name\""));
    Insert(db, 4);
    // Destroyed without Release(): rolled back.
  }
  {
    Savepoint outer = Unwrap(Savepoint::Begin(db, "s"));
    Insert(db, 5);
    Savepoint inner = Unwrap(Savepoint::Begin(db, "s"));  // the same name nests
    Insert(db, 6);
    Check(inner.Rollback());
    Check(outer.Release());
  }
  CHECK(db.InTransaction());
  Check(transaction.Commit());
  CHECK(Values(db) == "1,3,5");
}

TEST_CASE("Savepoint: a failed statement inside is undone with its savepoint") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Transaction transaction = Unwrap(Transaction::Begin(db));
  Insert(db, 1);
  Savepoint update = Unwrap(Savepoint::Begin(db, "update"));
  Insert(db, 2);
  const Result<void> duplicate = db.Exec("INSERT INTO t VALUES (1)");
  REQUIRE_FALSE(duplicate.ok());
  CHECK(duplicate.error().code() == Errc::kConstraint);
  Check(update.Rollback());
  Check(transaction.Commit());
  CHECK(Values(db) == "1");
}

TEST_CASE("Errors: every SQLite result code maps to one Errc") {
  CHECK(ErrcFromSqlite(SQLITE_FULL) == Errc::kNoSpace);
  CHECK(ErrcFromSqlite(SQLITE_CORRUPT) == Errc::kCorrupt);
  CHECK(ErrcFromSqlite(SQLITE_CORRUPT_INDEX) == Errc::kCorrupt);
  CHECK(ErrcFromSqlite(SQLITE_NOTADB) == Errc::kCorrupt);
  CHECK(ErrcFromSqlite(SQLITE_BUSY) == Errc::kBusy);
  CHECK(ErrcFromSqlite(SQLITE_BUSY_SNAPSHOT) == Errc::kBusy);
  CHECK(ErrcFromSqlite(SQLITE_LOCKED) == Errc::kBusy);
  CHECK(ErrcFromSqlite(SQLITE_LOCKED_SHAREDCACHE) == Errc::kBusy);
  CHECK(ErrcFromSqlite(SQLITE_CONSTRAINT_UNIQUE) == Errc::kConstraint);
  CHECK(ErrcFromSqlite(SQLITE_CANTOPEN) == Errc::kIo);
  CHECK(ErrcFromSqlite(SQLITE_IOERR_WRITE) == Errc::kIo);
  CHECK(ErrcFromSqlite(SQLITE_PERM) == Errc::kIo);
  CHECK(ErrcFromSqlite(SQLITE_READONLY) == Errc::kIo);
  CHECK(ErrcFromSqlite(SQLITE_ERROR) == Errc::kInternal);
  CHECK(ErrcFromSqlite(SQLITE_MISUSE) == Errc::kInternal);
  CHECK(ErrcFromSqlite(SQLITE_RANGE) == Errc::kInternal);
}

TEST_CASE("Errors: a constraint violation is kConstraint with SQLite's message and the SQL") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Insert(db, 1);
  Statement insert = Unwrap(db.Prepare("INSERT INTO t VALUES (1)"));
  const Result<bool> stepped = insert.Step();
  REQUIRE_FALSE(stepped.ok());
  CHECK(stepped.error().code() == Errc::kConstraint);
  const std::string& message = stepped.error().message();
  CHECK(message.find("UNIQUE constraint failed: t.x") != std::string::npos);
  CHECK(message.find(std::to_string(SQLITE_CONSTRAINT_UNIQUE)) != std::string::npos);
  CHECK(message.find("in \"INSERT INTO t VALUES (1)\"") != std::string::npos);
  CHECK(message.find((dir / "meta.db").string()) != std::string::npos);
  // The failed statement was reset and can run again.
  CHECK_FALSE(insert.Step().ok());
}

TEST_CASE("Errors: a file that is not a database is kCorrupt and named") {
  const TempDir dir;
  {
    std::ofstream garbage(dir / "meta.db", std::ios::binary);
    garbage << std::string(8192, 'Q');
  }
  for (const OpenMode mode : {OpenMode::kReadWrite, OpenMode::kReadOnly}) {
    const Result<Database> db = Database::Open(dir / "meta.db", mode);
    REQUIRE_FALSE(db.ok());
    CHECK(db.error().code() == Errc::kCorrupt);
    CHECK(db.error().message().find((dir / "meta.db").string()) != std::string::npos);
    CHECK(db.error().message().find("not a database") != std::string::npos);
  }
}

TEST_CASE("Errors: a damaged page is kCorrupt when read") {
  const TempDir dir;
  int64_t root_page = 0;
  {
    Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
    Check(
        db.Exec("CREATE TABLE plain(x, y);"
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
                "INSERT INTO plain SELECT i, printf('row %d', i) FROM n"));
    REQUIRE(QueryInt(db, "PRAGMA page_size") == 4096);
    root_page = QueryInt(db, "SELECT rootpage FROM sqlite_schema WHERE name = 'plain'");
  }  // the last connection checkpoints the WAL into the file
  {
    std::fstream file(dir / "meta.db", std::ios::binary | std::ios::in | std::ios::out);
    file.seekp((root_page - 1) * 4096);
    file << std::string(4096, '\xFF');
  }
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  const Result<void> read = db.Exec("SELECT sum(x) FROM plain");
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().code() == Errc::kCorrupt);
  CHECK(read.error().message().find("malformed") != std::string::npos);
  CHECK(read.error().message().find((dir / "meta.db").string()) != std::string::npos);
}

TEST_CASE("Errors: a full database is kNoSpace and the connection stays usable") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Check(db.Exec("CREATE TABLE big(b BLOB)"));
  const int64_t pages = QueryInt(db, "PRAGMA page_count");
  Check(db.Exec("PRAGMA max_page_count=" + std::to_string(pages + 4)));
  {
    Transaction transaction = Unwrap(Transaction::Begin(db));
    Insert(db, 1);
    const Result<void> filled = db.Exec("INSERT INTO big VALUES (zeroblob(1000000))");
    REQUIRE_FALSE(filled.ok());
    CHECK(filled.error().code() == Errc::kNoSpace);
    CHECK(filled.error().message().find("full") != std::string::npos);
  }
  CHECK_FALSE(db.InTransaction());
  CHECK(Values(db) == "");
  Insert(db, 2);
  CHECK(Values(db) == "2");
}

TEST_CASE("Errors: a table locked by this same connection fails at once, not after the budget") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  Insert(db, 1);
  Insert(db, 2);
  Statement reading = Unwrap(db.Prepare("SELECT x FROM t"));
  REQUIRE(Unwrap(reading.Step()));
  const auto start = std::chrono::steady_clock::now();
  const Result<void> dropped = db.Exec("DROP TABLE t");
  CHECK(Since(start) < std::chrono::seconds(1));
  REQUIRE_FALSE(dropped.ok());
  CHECK(dropped.error().code() == Errc::kBusy);
  CHECK(dropped.error().message().find("another statement of this connection") !=
        std::string::npos);
  reading.Reset();
  Check(db.Exec("DROP TABLE t"));
}

TEST_CASE("Errors: the lock timeout message names the file and the budget") {
  const TempDir dir;
  Database db = OpenWithTable(dir);
  const auto message = [&](std::chrono::milliseconds budget) {
    return LockTimeoutError(db.handle(), SQLITE_BUSY, budget, "BEGIN IMMEDIATE").message();
  };
  const std::string full = message(std::chrono::seconds(10));
  CHECK(full.find("database " + (dir / "meta.db").string() + " stayed locked for 10 s (") == 0);
  CHECK(full.find("BEGIN IMMEDIATE") != std::string::npos);
  CHECK(message(std::chrono::milliseconds(1500)).find("for 1.5 s") != std::string::npos);
  CHECK(message(std::chrono::milliseconds(50)).find("for 50 ms") != std::string::npos);
  CHECK(LockTimeoutError(db.handle(), SQLITE_BUSY, std::chrono::seconds(1)).code() == Errc::kBusy);
}

}  // namespace
}  // namespace quarry::engine
