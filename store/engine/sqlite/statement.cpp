#include "store/engine/sqlite/statement.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cassert>
#include <string>
#include <utility>

#include "store/engine/sqlite/busy.h"
#include "store/engine/sqlite/errors.h"

namespace quarry::engine {
namespace {

bool OnlySeparators(std::string_view text) {
  return text.find_first_not_of(" \t\r\n;") == std::string_view::npos;
}

}  // namespace

Statement::Statement(sqlite3_stmt* handle, BusyPolicy* policy, bool owned, int* pins)
    : handle_(handle), policy_(policy), owned_(owned), pins_(pins) {
  if (pins_ != nullptr) ++*pins_;
}

Statement::Statement(Statement&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      policy_(other.policy_),
      owned_(other.owned_),
      pins_(std::exchange(other.pins_, nullptr)),
      has_rows_(other.has_rows_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    Release();
    handle_ = std::exchange(other.handle_, nullptr);
    policy_ = other.policy_;
    owned_ = other.owned_;
    pins_ = std::exchange(other.pins_, nullptr);
    has_rows_ = other.has_rows_;
  }
  return *this;
}

Statement::~Statement() { Release(); }

void Statement::Release() {
  if (handle_ == nullptr) return;
  if (owned_) {
    sqlite3_finalize(handle_);
  } else {
    // Hand it back clean: no read transaction left open, no stale parameters.
    sqlite3_reset(handle_);
    sqlite3_clear_bindings(handle_);
  }
  if (pins_ != nullptr) --*pins_;
  handle_ = nullptr;
  pins_ = nullptr;
}

Result<Statement> Statement::CompileFirst(sqlite3* db, BusyPolicy& policy, std::string_view sql,
                                          unsigned prepare_flags, std::string_view* rest) {
  sqlite3_stmt* handle = nullptr;
  const char* tail = nullptr;
  BusyRetry retry(policy);
  int rc = SQLITE_OK;
  do {
    rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), prepare_flags, &handle,
                            &tail);
  } while (rc != SQLITE_OK && retry.ShouldRetry(rc, db));
  if (rc != SQLITE_OK) {
    return retry.exhausted() ? LockTimeoutError(db, rc, policy.budget, sql)
                             : SqliteError(db, rc, sql);
  }
  *rest = tail != nullptr ? sql.substr(static_cast<size_t>(tail - sql.data())) : std::string_view();
  return Statement(handle, &policy, /*owned=*/true, nullptr);
}

Result<Statement> Statement::Compile(sqlite3* db, BusyPolicy& policy, std::string_view sql,
                                     unsigned prepare_flags) {
  std::string_view rest;
  QUARRY_ASSIGN_OR_RETURN(Statement statement, CompileFirst(db, policy, sql, prepare_flags, &rest));
  if (!statement.valid()) {
    return Error(Errc::kInternal, fmt::format("no SQL statement in \"{}\"", sql));
  }
  if (!OnlySeparators(rest)) {
    return Error(Errc::kInternal,
                 fmt::format("Prepare() takes one statement; use Exec() for \"{}\"", sql));
  }
  return statement;
}

Statement Statement::Borrow(Statement& statement, int* pins) {
  assert(statement.valid());
  return Statement(statement.handle_, statement.policy_, /*owned=*/false, pins);
}

Result<void> Statement::CheckBind(int rc, int index) {
  if (rc == SQLITE_OK) return Ok();
  return SqliteError(sqlite3_db_handle(handle_), rc, Sql())
      .WithContext(fmt::format("binding parameter {}", index));
}

Result<void> Statement::BindInt64(int index, int64_t value) {
  return CheckBind(sqlite3_bind_int64(handle_, index, value), index);
}

Result<void> Statement::Bind(int index, double value) {
  return CheckBind(sqlite3_bind_double(handle_, index, value), index);
}

Result<void> Statement::Bind(int index, std::string_view text) {
  // A null data pointer would bind NULL, not the empty string.
  const char* data = text.data() != nullptr ? text.data() : "";
  return CheckBind(
      sqlite3_bind_text64(handle_, index, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8), index);
}

Result<void> Statement::Bind(int index, BlobView blob) {
  if (blob.bytes.empty()) return CheckBind(sqlite3_bind_zeroblob(handle_, index, 0), index);
  return CheckBind(
      sqlite3_bind_blob64(handle_, index, blob.bytes.data(), blob.bytes.size(), SQLITE_TRANSIENT),
      index);
}

Result<void> Statement::Bind(int index, std::nullptr_t) {
  return CheckBind(sqlite3_bind_null(handle_, index), index);
}

std::optional<int> Statement::BindParameterIndex(std::string_view name) const {
  const int index = sqlite3_bind_parameter_index(handle_, std::string(name).c_str());
  if (index == 0) return std::nullopt;
  return index;
}

int Statement::BindParameterCount() const { return sqlite3_bind_parameter_count(handle_); }

Result<bool> Statement::Step() {
  assert(valid());
  sqlite3* db = sqlite3_db_handle(handle_);
  BusyRetry retry(*policy_);
  for (;;) {
    const int rc = sqlite3_step(handle_);
    if (rc == SQLITE_ROW) {
      has_rows_ = true;
      return true;
    }
    if (rc == SQLITE_DONE) return false;
    if (!has_rows_ && retry.ShouldRetry(rc, db)) {
      sqlite3_reset(handle_);
      continue;
    }
    return StepError(rc, retry.exhausted());
  }
}

Error Statement::StepError(int rc, bool budget_spent) {
  sqlite3* db = sqlite3_db_handle(handle_);
  Error error =
      budget_spent ? LockTimeoutError(db, rc, policy_->budget, Sql()) : SqliteError(db, rc, Sql());
  // Leaves the statement reusable and releases whatever it held.
  sqlite3_reset(handle_);
  has_rows_ = false;
  return error;
}

void Statement::Reset() {
  sqlite3_reset(handle_);
  has_rows_ = false;
}

void Statement::ClearBindings() { sqlite3_clear_bindings(handle_); }

int Statement::ColumnCount() const { return sqlite3_column_count(handle_); }

int Statement::ColumnType(int column) const { return sqlite3_column_type(handle_, column); }

bool Statement::IsNull(int column) const { return ColumnType(column) == SQLITE_NULL; }

std::string_view Statement::ColumnName(int column) const {
  const char* name = sqlite3_column_name(handle_, column);
  return name != nullptr ? std::string_view(name) : std::string_view();
}

int64_t Statement::ColumnInt64(int column) const { return sqlite3_column_int64(handle_, column); }

double Statement::ColumnDouble(int column) const { return sqlite3_column_double(handle_, column); }

std::string_view Statement::ColumnText(int column) const {
  // Text first, then bytes: the documented order that never converts twice.
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(handle_, column));
  if (text == nullptr) return {};
  return {text, static_cast<size_t>(sqlite3_column_bytes(handle_, column))};
}

std::span<const std::byte> Statement::ColumnBlob(int column) const {
  const auto* blob = static_cast<const std::byte*>(sqlite3_column_blob(handle_, column));
  if (blob == nullptr) return {};
  return {blob, static_cast<size_t>(sqlite3_column_bytes(handle_, column))};
}

std::string_view Statement::Sql() const {
  const char* sql = handle_ != nullptr ? sqlite3_sql(handle_) : nullptr;
  return sql != nullptr ? std::string_view(sql) : std::string_view();
}

}  // namespace quarry::engine
