// Transaction and Savepoint: RAII scopes that roll back unless explicitly finished.
//
//   QUARRY_ASSIGN_OR_RETURN(Transaction transaction, Transaction::Begin(db));
//   for (update : batch) {
//     QUARRY_ASSIGN_OR_RETURN(Savepoint savepoint, Savepoint::Begin(db, "update"));
//     if (!Apply(update)) { QUARRY_TRY(savepoint.Rollback()); continue; }  // undo this one only
//     QUARRY_TRY(savepoint.Release());
//   }
//   QUARRY_TRY(transaction.Commit());  // returning before this rolls everything back
//
// The writer uses kImmediate: it takes the write lock at BEGIN (retried within the busy budget),
// so no statement inside can fail later with SQLITE_BUSY_SNAPSHOT.
// Thread-safety: the thread that owns the Database; must not outlive it.
#pragma once

#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"

namespace quarry::engine {

enum class TransactionMode {
  kDeferred,   // locks on first read / first write
  kImmediate,  // takes the write lock now
};

class Transaction {
 public:
  static Result<Transaction> Begin(Database& db,
                                   TransactionMode mode = TransactionMode::kImmediate);

  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  // Rolls back unless Commit() succeeded.
  ~Transaction();

  // On failure the transaction stays open (and rolls back on destruction) unless SQLite has
  // already rolled it back itself (e.g. SQLITE_FULL).
  Result<void> Commit();
  // Rolls back now; a no-op when already finished.
  Result<void> Rollback();
  bool active() const { return db_ != nullptr; }

 private:
  explicit Transaction(Database* db) : db_(db) {}
  Database* db_;
};

// A named SAVEPOINT: nested inside a Transaction (or starting one when there is none).
class Savepoint {
 public:
  // `name` is quoted, so any text is safe; nested savepoints may reuse a name.
  static Result<Savepoint> Begin(Database& db, std::string_view name);

  Savepoint(Savepoint&& other) noexcept;
  Savepoint& operator=(Savepoint&&) = delete;
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  // Rolls back to the savepoint and releases it unless Release() succeeded.
  ~Savepoint();

  // Keeps the changes made since Begin() (they commit or roll back with the outer transaction).
  Result<void> Release();
  // Undoes the changes made since Begin() and ends the savepoint; the outer transaction goes on.
  Result<void> Rollback();
  bool active() const { return db_ != nullptr; }

 private:
  Savepoint(Database* db, std::string quoted_name)
      : db_(db), quoted_name_(std::move(quoted_name)) {}
  Database* db_;
  std::string quoted_name_;
};

}  // namespace quarry::engine
