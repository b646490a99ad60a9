// SqlProfile: per-statement totals of one connection, a profiling aid (not on by default).
// With QUARRY_SQL_PROFILE=FILE in the environment, a writable Store sums, for each SQL text its
// connection runs, the number of runs, the time SQLite reports for them (SQLITE_TRACE_PROFILE:
// from the first step to the reset, so a statement left on a row counts until it is reset) and
// the virtual machine steps, and rewrites FILE, largest total first, at most once a second and
// when the Store closes. Statements that SQLite runs inside another (FTS5's shadow tables)
// appear as their own lines and inside their caller's time.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>

#include "store/common/result.h"

namespace quarry::engine {

class SqlProfile {
 public:
  struct Totals {
    uint64_t runs = 0;
    uint64_t nanoseconds = 0;
    uint64_t vm_steps = 0;
  };

  // Starts tracing `db` (which must outlive the profile) and writing to `file`.
  static std::unique_ptr<SqlProfile> Attach(sqlite3* db, std::filesystem::path file);
  // From the QUARRY_SQL_PROFILE variable: nullptr when unset or empty.
  static std::unique_ptr<SqlProfile> FromEnvironment(sqlite3* db);
  ~SqlProfile();  // stops tracing and writes the file once more
  SqlProfile(const SqlProfile&) = delete;
  SqlProfile& operator=(const SqlProfile&) = delete;

  const std::unordered_map<std::string, Totals>& totals() const { return totals_; }
  // Rewrites the file: "total ms<TAB>runs<TAB>VM steps<TAB>SQL" per line, largest total first.
  Result<void> Write() const;

 private:
  SqlProfile(sqlite3* db, std::filesystem::path file) : db_(db), file_(std::move(file)) {}
  static int OnTrace(unsigned type, void* context, void* statement, void* detail);
  void Add(sqlite3_stmt* statement, int64_t nanoseconds);

  sqlite3* db_;
  std::filesystem::path file_;
  std::unordered_map<std::string, Totals> totals_;
  std::chrono::steady_clock::time_point last_write_ = std::chrono::steady_clock::now();
};

}  // namespace quarry::engine
