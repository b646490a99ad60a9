#include "store/engine/sql_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace quarry::engine {

std::unique_ptr<SqlProfile> SqlProfile::Attach(sqlite3* db, std::filesystem::path file) {
  std::unique_ptr<SqlProfile> profile(new SqlProfile(db, std::move(file)));
  sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, &SqlProfile::OnTrace, profile.get());
  return profile;
}

std::unique_ptr<SqlProfile> SqlProfile::FromEnvironment(sqlite3* db) {
  const char* file = std::getenv("QUARRY_SQL_PROFILE");
  if (!file || !*file) return nullptr;
  return Attach(db, file);
}

SqlProfile::~SqlProfile() {
  sqlite3_trace_v2(db_, 0, nullptr, nullptr);
  (void)Write();
}

int SqlProfile::OnTrace(unsigned type, void* context, void* statement, void* detail) {
  if (type == SQLITE_TRACE_PROFILE) {
    static_cast<SqlProfile*>(context)->Add(static_cast<sqlite3_stmt*>(statement),
                                           *static_cast<const int64_t*>(detail));
  }
  return 0;
}

void SqlProfile::Add(sqlite3_stmt* statement, int64_t nanoseconds) {
  const char* sql = sqlite3_sql(statement);
  Totals& totals = totals_[sql ? sql : ""];
  ++totals.runs;
  totals.nanoseconds += static_cast<uint64_t>(std::max<int64_t>(nanoseconds, 0));
  // Reset the counter: a cached statement runs many times and is counted once per run.
  totals.vm_steps += static_cast<uint64_t>(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1));
  const auto now = std::chrono::steady_clock::now();
  if (now - last_write_ >= std::chrono::seconds(1)) {
    last_write_ = now;
    (void)Write();
  }
}

Result<void> SqlProfile::Write() const {
  std::vector<std::pair<const std::string*, const Totals*>> rows;
  rows.reserve(totals_.size());
  for (const auto& [sql, totals] : totals_) rows.emplace_back(&sql, &totals);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second->nanoseconds != b.second->nanoseconds
               ? a.second->nanoseconds > b.second->nanoseconds
               : *a.first < *b.first;
  });
  std::string text;
  for (const auto& [sql, totals] : rows) {
    std::string one_line = *sql;
    std::replace(one_line.begin(), one_line.end(), '\n', ' ');
    text += fmt::format("{:.3f}\t{}\t{}\t{}\n", static_cast<double>(totals->nanoseconds) / 1e6,
                        totals->runs, totals->vm_steps, one_line);
  }
  const std::filesystem::path partial = file_.string() + ".partial";
  std::FILE* out = std::fopen(partial.c_str(), "w");
  if (!out) return Error(Errc::kIo, fmt::format("cannot write {}", partial.string()));
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  const bool closed = std::fclose(out) == 0;
  std::error_code error;
  if (written && closed) std::filesystem::rename(partial, file_, error);
  if (!written || !closed || error) {
    return Error(Errc::kIo, fmt::format("cannot write {}", file_.string()));
  }
  return Ok();
}

}  // namespace quarry::engine
