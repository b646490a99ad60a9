// Statement: the one owner of a sqlite3_stmt* (finalized on destruction), or a borrowed handle
// lent by the StatementCache (reset and cleared on destruction, finalized by the cache).
//
// Column getters return views into SQLite's memory, no copies: valid until the next Step(),
// Reset() or destruction, and until another getter converts the same column to another type.
// Step() retries lock conflicts within the connection's busy budget (busy.h) before a row has
// been returned, so a caller sees kBusy only once the budget is spent.
// Thread-safety: the thread that owns the Database it came from; it must not outlive it.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "store/common/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace quarry::engine {

struct BusyPolicy;

// Bytes to bind as a BLOB (a distinct type, so text is never bound as a blob by accident).
struct BlobView {
  std::span<const std::byte> bytes;
};
inline BlobView AsBlob(std::string_view bytes) {
  return {std::as_bytes(std::span<const char>(bytes.data(), bytes.size()))};
}

class Statement {
 public:
  Statement() = default;  // empty; only assignable
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Compiles the one statement in `sql` (trailing whitespace and ';' allowed) on `db`.
  // `prepare_flags` are SQLITE_PREPARE_* flags. Used by Database and StatementCache.
  static Result<Statement> Compile(sqlite3* db, BusyPolicy& policy, std::string_view sql,
                                   unsigned prepare_flags);
  // Compiles the first statement of `sql` and sets `*rest` to the text after it; the result is
  // empty (!valid()) when that stretch held only whitespace or comments. For Exec().
  static Result<Statement> CompileFirst(sqlite3* db, BusyPolicy& policy, std::string_view sql,
                                        unsigned prepare_flags, std::string_view* rest);
  // A non-owning view of `statement` that resets and clears it on destruction; `pins` (may be
  // null) is incremented now and decremented then, so the cache keeps the handle alive.
  static Statement Borrow(Statement& statement, int* pins);

  // Parameters are 1-based. Text and blobs are copied by SQLite (bind then forget).
  template <std::integral Integer>
  Result<void> Bind(int index, Integer value) {
    return BindInt64(index, static_cast<int64_t>(value));
  }
  Result<void> Bind(int index, double value);
  Result<void> Bind(int index, std::string_view text);
  Result<void> Bind(int index, const char* text) { return Bind(index, std::string_view(text)); }
  Result<void> Bind(int index, BlobView blob);
  Result<void> Bind(int index, std::nullptr_t);
  // The index of a named parameter (":name", "@name", "$name", "?7"), nullopt if absent.
  std::optional<int> BindParameterIndex(std::string_view name) const;
  int BindParameterCount() const;

  // Advances: true when a row is ready, false when done. On error the statement is reset.
  Result<bool> Step();
  // Rewinds to before the first row (ends the statement's read); keeps the bindings.
  void Reset();
  void ClearBindings();

  int ColumnCount() const;
  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
  int ColumnType(int column) const;
  bool IsNull(int column) const;
  std::string_view ColumnName(int column) const;
  int64_t ColumnInt64(int column) const;
  double ColumnDouble(int column) const;
  // The bytes of a TEXT (or BLOB, unconverted) value; empty for NULL.
  std::string_view ColumnText(int column) const;
  std::span<const std::byte> ColumnBlob(int column) const;

  // The SQL text, for messages.
  std::string_view Sql() const;
  sqlite3_stmt* handle() const { return handle_; }
  bool valid() const { return handle_ != nullptr; }
  bool borrowed() const { return !owned_; }

 private:
  Statement(sqlite3_stmt* handle, BusyPolicy* policy, bool owned, int* pins);
  Result<void> BindInt64(int index, int64_t value);
  Result<void> CheckBind(int rc, int index);
  Error StepError(int rc, bool budget_spent);
  void Release();

  sqlite3_stmt* handle_ = nullptr;
  BusyPolicy* policy_ = nullptr;
  bool owned_ = true;
  int* pins_ = nullptr;
  // A row was returned since the last reset: a lock conflict now cannot be retried by
  // resetting, since the caller would see the rows again.
  bool has_rows_ = false;
};

}  // namespace quarry::engine
