#include "store/engine/sqlite/busy.h"

#include <sqlite3.h>

#include <algorithm>
#include <thread>

namespace quarry::engine {
namespace {

constexpr std::chrono::milliseconds kMaxSleep{100};

// Starts the operation's clock unless it already runs; returns how long it has run.
BusyClock::duration Elapsed(BusyPolicy& policy) {
  const BusyClock::time_point now = BusyClock::now();
  if (!policy.waiting) {
    policy.waiting = true;
    policy.wait_started = now;
  }
  return now - policy.wait_started;
}

// Sleeps before retry `attempt` unless the budget is spent; false when it is.
bool SleepWithinBudget(BusyPolicy& policy, int attempt) {
  const BusyClock::duration elapsed = Elapsed(policy);
  if (elapsed >= policy.budget) return false;
  const BusyClock::duration left = policy.budget - elapsed;
  std::this_thread::sleep_for(std::min<BusyClock::duration>(BackoffDelay(attempt), left));
  return true;
}

// SQLite calls this while it waits for a file lock; `count` is the number of earlier calls
// for the same lock. Returning 0 makes the operation fail with SQLITE_BUSY.
int BusyHandler(void* context, int count) {
  auto* policy = static_cast<BusyPolicy*>(context);
  if (count == 0 && !policy->in_operation) policy->waiting = false;
  return SleepWithinBudget(*policy, count) ? 1 : 0;
}

}  // namespace

void InstallBusyHandler(sqlite3* db, BusyPolicy* policy) {
  sqlite3_busy_handler(db, &BusyHandler, policy);
}

std::chrono::milliseconds BackoffDelay(int attempt) {
  if (attempt >= 7) return kMaxSleep;  // 2^7 ms > 100 ms; also keeps the shift in range
  return std::min(std::chrono::milliseconds(1 << attempt), kMaxSleep);
}

bool IsLockConflict(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

BusyRetry::BusyRetry(BusyPolicy& policy) : policy_(policy) {
  policy_.waiting = false;
  policy_.in_operation = true;
}

BusyRetry::~BusyRetry() {
  policy_.waiting = false;
  policy_.in_operation = false;
}

bool BusyRetry::ShouldRetry(int rc, sqlite3* db) {
  if (!IsLockConflict(rc)) return false;
  // Plain SQLITE_LOCKED is a conflict inside this connection (e.g. DROP TABLE while one of
  // its SELECTs is still active): this thread is the one holding it, so waiting cannot help.
  if (rc == SQLITE_LOCKED) return false;
  // Another connection wrote since our read transaction began: only restarting the whole
  // transaction helps; outside one (autocommit), retrying the statement does exactly that.
  if (rc == SQLITE_BUSY_SNAPSHOT && sqlite3_get_autocommit(db) == 0) return false;
  if (!SleepWithinBudget(policy_, attempt_)) {
    exhausted_ = true;
    return false;
  }
  ++attempt_;
  return true;
}

std::chrono::milliseconds BusyRetry::waited() const {
  if (!policy_.waiting) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(BusyClock::now() -
                                                               policy_.wait_started);
}

}  // namespace quarry::engine
