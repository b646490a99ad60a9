#include "store/engine/sqlite/transaction.h"

#include "store/common/sql_quote.h"

#include <fmt/format.h>

#include <utility>

namespace quarry::engine {
namespace {

// Transaction control runs through the cache: a batch writer begins and commits many times.
Result<void> Run(Database& db, std::string_view sql) {
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, db.cache().Get(sql));
  QUARRY_TRY(statement->Step());
  statement->Reset();
  return Ok();
}


}  // namespace

Result<Transaction> Transaction::Begin(Database& db, TransactionMode mode) {
  QUARRY_TRY(Run(db, mode == TransactionMode::kImmediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED"));
  return Transaction(&db);
}

Transaction::Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Transaction::~Transaction() {
  // Nothing to report to: a failed ROLLBACK leaves SQLite to roll back when the connection
  // closes, which is the same outcome.
  (void)Rollback();
}

Result<void> Transaction::Commit() {
  if (db_ == nullptr) return Error(Errc::kInternal, "Commit() on a finished transaction");
  Result<void> committed = Run(*db_, "COMMIT");
  // Committed, or SQLite already rolled back on its own (SQLITE_FULL, SQLITE_IOERR, …).
  if (committed.ok() || !db_->InTransaction()) db_ = nullptr;
  return committed;
}

Result<void> Transaction::Rollback() {
  Database* db = std::exchange(db_, nullptr);
  if (db == nullptr || !db->InTransaction()) return Ok();
  return Run(*db, "ROLLBACK");
}

Result<Savepoint> Savepoint::Begin(Database& db, std::string_view name) {
  std::string quoted = QuoteSqlIdentifier(name);
  QUARRY_TRY(Run(db, "SAVEPOINT " + quoted));
  return Savepoint(&db, std::move(quoted));
}

Savepoint::Savepoint(Savepoint&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), quoted_name_(std::move(other.quoted_name_)) {}

Savepoint::~Savepoint() { (void)Rollback(); }

Result<void> Savepoint::Release() {
  if (db_ == nullptr) return Error(Errc::kInternal, "Release() on a finished savepoint");
  Result<void> released = Run(*db_, "RELEASE " + quoted_name_);
  if (released.ok() || !db_->InTransaction()) db_ = nullptr;
  return released;
}

Result<void> Savepoint::Rollback() {
  Database* db = std::exchange(db_, nullptr);
  // SQLite may have rolled back the whole transaction, savepoints included.
  if (db == nullptr || !db->InTransaction()) return Ok();
  QUARRY_TRY(Run(*db, "ROLLBACK TO " + quoted_name_));
  return Run(*db, "RELEASE " + quoted_name_);
}

}  // namespace quarry::engine
