// Lock-conflict retry: one time budget per operation, shared by the busy handler SQLite calls
// while it waits for a file lock and by our own Step()/Exec()/Prepare() loops, which cover the
// conflicts SQLite does not wait for (SQLITE_LOCKED_SHAREDCACHE, SQLITE_BUSY_SNAPSHOT outside a
// transaction, a lock upgrade inside a deferred transaction, BUSY_RECOVERY).
//
// Backoff: 1 ms, doubling, at most 100 ms per sleep, until the budget (default 10 s) is spent.
// Thread-safety: a BusyPolicy belongs to one connection, used by the thread that owns it.
#pragma once

#include <chrono>

struct sqlite3;

namespace quarry::engine {

using BusyClock = std::chrono::steady_clock;

inline constexpr std::chrono::milliseconds kDefaultBusyBudget = std::chrono::seconds(10);

// Per connection, at a stable address (the Database's heap state), since SQLite keeps a
// pointer to it for the busy handler.
struct BusyPolicy {
  std::chrono::milliseconds budget = kDefaultBusyBudget;
  // Set when the current operation first had to wait, by whichever loop noticed first, so the
  // busy handler and BusyRetry spend one budget between them, not one each.
  bool waiting = false;
  BusyClock::time_point wait_started{};
  // True while a BusyRetry runs; a wait outside one (a raw sqlite3_* call through handle())
  // starts its own clock.
  bool in_operation = false;
};

// Installs the backoff busy handler on `db`; `policy` must outlive the connection.
void InstallBusyHandler(sqlite3* db, BusyPolicy* policy);

// The sleep before retry number `attempt` (0-based): 1 ms doubling, capped at 100 ms.
std::chrono::milliseconds BackoffDelay(int attempt);

// True for the BUSY and LOCKED families of (extended) result codes.
bool IsLockConflict(int rc);

// One operation's retry loop (not nested: one BusyRetry per connection at a time):
//   BusyRetry retry(policy);
//   while ((rc = attempt()) is an error) { if (!retry.ShouldRetry(rc, db)) fail; }
class BusyRetry {
 public:
  explicit BusyRetry(BusyPolicy& policy);
  ~BusyRetry();
  BusyRetry(const BusyRetry&) = delete;
  BusyRetry& operator=(const BusyRetry&) = delete;

  // After result `rc` from `db`: true, having slept, when another attempt can succeed and the
  // budget is not spent. False for every other error, for conflicts no wait can resolve (a
  // table locked by this very connection, a stale snapshot inside a transaction), and once
  // the budget is spent (then exhausted() is true).
  bool ShouldRetry(int rc, sqlite3* db);

  bool exhausted() const { return exhausted_; }
  // How long this operation has waited so far.
  std::chrono::milliseconds waited() const;

 private:
  BusyPolicy& policy_;
  int attempt_ = 0;
  bool exhausted_ = false;
};

}  // namespace quarry::engine
