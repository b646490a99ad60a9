// StatementCache: compiled statements of one connection keyed by their SQL text, most recently
// used first, so hot SQL (resource lookups, per-property inserts) is compiled once.
// Statements are prepared with SQLITE_PREPARE_PERSISTENT and handed out reset, with their
// bindings cleared.
//
// Lifetime: Get() returns a pointer owned by the cache. It stays valid until the entry is
// evicted, which needs `capacity()` other SQL texts to be fetched after it, and never happens
// while the statement is mid-step (sqlite3_stmt_busy) or borrowed through Borrow(); such
// entries are skipped and the cache briefly grows instead. Clear() and destruction drop
// everything: no borrowed statement may outlive the cache.
// Thread-safety: the thread that owns the Database.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

#include "store/common/result.h"
#include "store/engine/sqlite/statement.h"

struct sqlite3;

namespace quarry::engine {

struct BusyPolicy;

class StatementCache {
 public:
  static constexpr size_t kDefaultCapacity = 256;

  StatementCache(sqlite3* db, BusyPolicy* policy, size_t capacity = kDefaultCapacity);
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;
  ~StatementCache();

  // The compiled, reset and cleared statement for `sql` (compiled on a miss).
  Result<Statement*> Get(std::string_view sql);
  // The same statement as a borrowed handle (e.g. for a Cursor that takes a Statement by
  // value): reset and cleared when the borrower is destroyed; the entry is pinned until then.
  // While it is pinned, another Borrow() of the same SQL compiles a separate, owned statement.
  Result<Statement> Borrow(std::string_view sql);
  // Where Borrow(sql, slot) found `sql` last time: the entry's serial, unique in the process
  // (never reused, not shared by two caches), so a slot that names an evicted or cleared
  // entry, or another cache's, finds nothing and the text is looked up again. A repeated
  // prepared query skips hashing its SQL (issue 7: ~1.1k of a fetch_one's ~26k instructions).
  // The caller keeps the slot beside the SQL it was filled for and passes both together.
  struct Slot {
    uint64_t serial = 0;
  };
  Result<Statement> Borrow(std::string_view sql, Slot& slot);

  size_t size() const { return entries_.size(); }
  size_t capacity() const { return capacity_; }
  // Shrinking evicts least recently used entries at once (pinned or busy ones excepted; the
  // most recently used entry always stays).
  void SetCapacity(size_t capacity);
  // Finalizes every statement (e.g. before a schema change that would make SQLite recompile).
  void Clear();

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct Entry {
    std::string sql;
    Statement statement;
    int pins = 0;
    uint64_t serial = 0;  // Slot::serial
  };
  using EntryList = std::list<Entry>;

  Result<EntryList::iterator> Find(std::string_view sql);
  // Borrow()'s body; `entry_out` is the cache entry lent, or null for an owned statement.
  Result<Statement> BorrowFound(std::string_view sql, Entry** entry_out);
  // `entry` (found in index_), moved to the front, reset and cleared: a hit.
  EntryList::iterator Reuse(EntryList::iterator entry);
  void Evict();

  sqlite3* db_;
  BusyPolicy* policy_;
  size_t capacity_;
  EntryList entries_;  // most recently used first
  // Hashes the length and a sample of the text (ends plus a stride through the middle), not
  // all of it: a query's SQL runs to tens of KB (issue 7: the contact reads), and hashing it in
  // full on every execution cost microseconds. Texts that share the sample compare equal in
  // full, so they only share a bucket.
  struct SampledHash {
    size_t operator()(std::string_view sql) const noexcept;
  };
  // Keys view the Entry's own sql string (list nodes never move).
  std::unordered_map<std::string_view, EntryList::iterator, SampledHash> index_;
  std::unordered_map<uint64_t, EntryList::iterator> by_serial_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace quarry::engine
