// Several processes on one database: lock waits, lock timeouts, a writer killed mid-transaction,
// and the writer's lock file. Children are forked before the parent opens the file (SQLite must
// not carry an open connection across fork()).
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "store/engine/sqlite/database.h"
#include "store/engine/sqlite/lock_file.h"
#include "store/engine/sqlite/transaction.h"
#include "tests/store/engine/sqlite_test_util.h"

namespace quarry::engine {
namespace {

using std::chrono::milliseconds;
using testing::Check;
using testing::Child;
using testing::QueryInt;
using testing::QueryText;
using testing::Since;
using testing::TempDir;
using testing::Unwrap;

void CreateTable(const TempDir& dir) {
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Check(db.Exec("CREATE TABLE t(x INTEGER, payload BLOB)"));
}

// A child that holds the write lock (an IMMEDIATE transaction with one row) for `hold`, then
// commits. Exit codes: 0 committed, 10+ the step that failed.
Child HoldWriteLock(const TempDir& dir, milliseconds hold) {
  const std::filesystem::path file = dir / "meta.db";
  return Child([file, hold](const std::function<void()>& signal_ready) {
    Result<Database> db = Database::Open(file, OpenMode::kReadWrite);
    if (!db) return 10;
    Result<Transaction> transaction = Transaction::Begin(*db);
    if (!transaction) return 11;
    if (!db->Exec("INSERT INTO t(x) VALUES (100)")) return 12;
    signal_ready();
    std::this_thread::sleep_for(hold);
    return transaction->Commit().ok() ? 0 : 13;
  });
}

TEST_CASE("Busy: a write waits while another process holds the write lock, then succeeds") {
  const TempDir dir;
  CreateTable(dir);
  Child child = HoldWriteLock(dir, milliseconds(300));
  REQUIRE(child.WaitReady());

  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  const auto start = std::chrono::steady_clock::now();
  Check(db.Exec("INSERT INTO t(x) VALUES (1)"));
  CHECK(Since(start) >= milliseconds(100));  // it really waited for the other writer
  CHECK(child.Wait() == 0);
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 2);
}

TEST_CASE("Busy: BEGIN IMMEDIATE waits out another writer too") {
  const TempDir dir;
  CreateTable(dir);
  Child child = HoldWriteLock(dir, milliseconds(300));
  REQUIRE(child.WaitReady());

  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Transaction transaction = Unwrap(Transaction::Begin(db, TransactionMode::kImmediate));
  Check(db.Exec("INSERT INTO t(x) VALUES (1)"));
  Check(transaction.Commit());
  CHECK(child.Wait() == 0);
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 2);
}

TEST_CASE("Busy: deferred transactions and another writer") {
  const TempDir dir;
  CreateTable(dir);
  Child child = HoldWriteLock(dir, milliseconds(300));
  REQUIRE(child.WaitReady());
  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  Transaction transaction = Unwrap(Transaction::Begin(db, TransactionMode::kDeferred));

  SUBCASE("writing first waits for the lock and succeeds") {
    Check(db.Exec("INSERT INTO t(x) VALUES (1)"));
    Check(transaction.Commit());
    CHECK(child.Wait() == 0);
    CHECK(QueryInt(db, "SELECT count(*) FROM t") == 2);
  }
  SUBCASE("reading first, then writing after the other commit, must restart") {
    CHECK(QueryInt(db, "SELECT count(*) FROM t") == 0);
    // The upgrade to writer is retried while the other process holds the lock; once it has
    // committed, our snapshot is stale and no retry can help: kBusy at once, saying why.
    const Result<void> inserted = db.Exec("INSERT INTO t(x) VALUES (1)");
    REQUIRE_FALSE(inserted.ok());
    CHECK(inserted.error().code() == Errc::kBusy);
    CHECK(inserted.error().message().find("must be restarted") != std::string::npos);
    Check(transaction.Rollback());
    CHECK(child.Wait() == 0);
    Check(db.Exec("INSERT INTO t(x) VALUES (1)"));
    CHECK(QueryInt(db, "SELECT count(*) FROM t") == 2);
  }
}

TEST_CASE("Busy: past a small budget the writer gets kBusy with a clear message") {
  const TempDir dir;
  CreateTable(dir);
  Child child = HoldWriteLock(dir, milliseconds(3000));
  REQUIRE(child.WaitReady());

  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  db.SetBusyBudget(milliseconds(50));
  SUBCASE("a statement") {
    const auto start = std::chrono::steady_clock::now();
    const Result<void> inserted = db.Exec("INSERT INTO t(x) VALUES (1)");
    CHECK(Since(start) < milliseconds(1000));
    REQUIRE_FALSE(inserted.ok());
    CHECK(inserted.error().code() == Errc::kBusy);
    const std::string& message = inserted.error().message();
    CHECK(message.find("database " + (dir / "meta.db").string() + " stayed locked for 50 ms") == 0);
    CHECK(message.find("INSERT INTO t(x) VALUES (1)") != std::string::npos);
    CHECK(message.find("table is locked") == std::string::npos);
  }
  SUBCASE("BEGIN IMMEDIATE") {
    const Result<Transaction> transaction = Transaction::Begin(db);
    REQUIRE_FALSE(transaction.ok());
    CHECK(transaction.error().code() == Errc::kBusy);
    CHECK(transaction.error().message().find("stayed locked for 50 ms") != std::string::npos);
    CHECK_FALSE(db.InTransaction());
  }
  // Readers are never blocked by the writer in WAL mode.
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 0);
  child.Kill();
  child.Wait();
}

TEST_CASE("Crash: a writer killed before COMMIT leaves the committed data intact") {
  const TempDir dir;
  {
    Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
    Check(
        db.Exec("CREATE TABLE t(x INTEGER, payload BLOB);"
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) "
                "INSERT INTO t SELECT i, randomblob(100) FROM n"));
  }
  const std::filesystem::path file = dir / "meta.db";
  Child child([file](const std::function<void()>& signal_ready) {
    Result<Database> db = Database::Open(file, OpenMode::kReadWrite);
    if (!db) return 10;
    // A small page cache makes SQLite spill uncommitted pages into the WAL before COMMIT.
    if (!db->Exec("PRAGMA cache_size=20")) return 11;
    Result<Transaction> transaction = Transaction::Begin(*db);
    if (!transaction) return 12;
    if (!db->Exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
                  "INSERT INTO t SELECT 1000 + i, randomblob(200) FROM n;"
                  "DELETE FROM t WHERE x <= 50; UPDATE t SET x = -x;")) {
      return 13;
    }
    signal_ready();
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // SIGKILL ends it here
  });
  REQUIRE(child.WaitReady(std::chrono::seconds(60)));
  CHECK(std::filesystem::file_size(dir / "meta.db-wal") > 1'000'000);  // the spill happened
  child.Kill();
  CHECK(child.Wait() == -SIGKILL);

  Database db = Unwrap(Database::Open(dir / "meta.db", OpenMode::kReadWrite));
  CHECK(QueryText(db, "PRAGMA integrity_check") == "ok");
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 100);
  CHECK(QueryInt(db, "SELECT sum(x) FROM t") == 5050);
  Check(db.Exec("INSERT INTO t(x) VALUES (101)"));
  CHECK(QueryInt(db, "SELECT count(*) FROM t") == 101);
}

TEST_CASE("LockFile: one holder per directory, across processes, until released") {
  const TempDir dir;
  // Child exit codes: 0 acquired, 1 held by someone else, 2 error.
  const auto try_in_child = [&dir] {
    const std::filesystem::path path = dir.path();
    Child child([path](const std::function<void()>&) {
      const Result<std::optional<LockFile>> lock = LockFile::TryAcquire(path);
      if (!lock) return 2;
      return lock->has_value() ? 0 : 1;
    });
    return child.Wait();
  };

  std::optional<LockFile> lock = Unwrap(LockFile::TryAcquire(dir.path()));
  REQUIRE(lock.has_value());
  CHECK(lock->path() == dir / ".quarry.lock");
  CHECK(try_in_child() == 1);
  // flock belongs to the open file description: a second open in this process is refused too.
  CHECK_FALSE(Unwrap(LockFile::TryAcquire(dir.path())).has_value());

  LockFile moved = std::move(*lock);
  lock.reset();
  CHECK(try_in_child() == 1);  // the moved-to object still holds it

  { LockFile released = std::move(moved); }
  CHECK(try_in_child() == 0);
  CHECK(Unwrap(LockFile::TryAcquire(dir.path())).has_value());
}

TEST_CASE("LockFile: a missing directory is kIo naming the path") {
  const TempDir dir;
  const Result<std::optional<LockFile>> lock = LockFile::TryAcquire(dir / "missing");
  REQUIRE_FALSE(lock.ok());
  CHECK(lock.error().code() == Errc::kIo);
  CHECK(lock.error().message().find("missing/.quarry.lock") != std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
