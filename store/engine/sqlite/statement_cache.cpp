#include "store/engine/sqlite/statement_cache.h"

#include <sqlite3.h>

#include <atomic>
#include <cassert>
#include <functional>
#include <utility>

#include "store/engine/sqlite/busy.h"

namespace quarry::engine {
namespace {

// Entry serials: process-wide, so a Slot filled by one cache never names another's entry.
uint64_t NextSerial() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

StatementCache::StatementCache(sqlite3* db, BusyPolicy* policy, size_t capacity)
    : db_(db), policy_(policy), capacity_(capacity) {}

StatementCache::~StatementCache() { Clear(); }

size_t StatementCache::SampledHash::operator()(std::string_view sql) const noexcept {
  constexpr size_t kEnd = 128;    // bytes hashed at each end
  constexpr size_t kSamples = 64;  // bytes picked from the middle
  const std::hash<std::string_view> hash;
  if (sql.size() <= 2 * kEnd + kSamples) return hash(sql);
  char middle[kSamples];
  const size_t stride = (sql.size() - 2 * kEnd) / kSamples;
  for (size_t i = 0; i < kSamples; ++i) middle[i] = sql[kEnd + i * stride];
  size_t seed = sql.size();
  for (const std::string_view part :
       {sql.substr(0, kEnd), sql.substr(sql.size() - kEnd), std::string_view(middle, kSamples)}) {
    seed ^= hash(part) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  }
  return seed;
}

StatementCache::EntryList::iterator StatementCache::Reuse(EntryList::iterator entry) {
  ++hits_;
  entries_.splice(entries_.begin(), entries_, entry);
  // A previous user may have left it mid-iteration or bound; every caller starts clean.
  entry->statement.Reset();
  entry->statement.ClearBindings();
  return entry;
}

Result<StatementCache::EntryList::iterator> StatementCache::Find(std::string_view sql) {
  if (const auto found = index_.find(sql); found != index_.end()) return Reuse(found->second);
  ++misses_;
  QUARRY_ASSIGN_OR_RETURN(Statement statement,
                          Statement::Compile(db_, *policy_, sql, SQLITE_PREPARE_PERSISTENT));
  entries_.push_front(Entry{std::string(sql), std::move(statement), 0, NextSerial()});
  index_.emplace(entries_.front().sql, entries_.begin());
  by_serial_.emplace(entries_.front().serial, entries_.begin());
  Evict();
  return entries_.begin();
}

Result<Statement*> StatementCache::Get(std::string_view sql) {
  QUARRY_ASSIGN_OR_RETURN(const EntryList::iterator entry, Find(sql));
  return &entry->statement;
}

Result<Statement> StatementCache::Borrow(std::string_view sql) {
  return BorrowFound(sql, nullptr);
}

Result<Statement> StatementCache::Borrow(std::string_view sql, Slot& slot) {
  if (slot.serial != 0) {
    if (const auto found = by_serial_.find(slot.serial); found != by_serial_.end()) {
      assert(found->second->sql == sql && "a Slot passed with another SQL text");
      if (found->second->pins == 0) {
        const EntryList::iterator entry = Reuse(found->second);
        return Statement::Borrow(entry->statement, &entry->pins);
      }
      return Statement::Compile(db_, *policy_, sql, 0);  // pinned: as Borrow(sql)
    }
  }
  Entry* entry = nullptr;
  QUARRY_ASSIGN_OR_RETURN(Statement statement, BorrowFound(sql, &entry));
  if (entry != nullptr) slot.serial = entry->serial;
  return statement;
}

Result<Statement> StatementCache::BorrowFound(std::string_view sql, Entry** entry_out) {
  // Two borrowers of one handle would step each other's rows (two open cursors of one query):
  // the second gets its own statement, finalized when it is dropped. (Checked before Find(),
  // which resets the handle.)
  // One lookup: the text is hashed once per execution.
  if (const auto found = index_.find(sql); found != index_.end()) {
    if (found->second->pins > 0) return Statement::Compile(db_, *policy_, sql, 0);
    const EntryList::iterator entry = Reuse(found->second);
    if (entry_out != nullptr) *entry_out = &*entry;
    return Statement::Borrow(entry->statement, &entry->pins);
  }
  QUARRY_ASSIGN_OR_RETURN(const EntryList::iterator entry, Find(sql));
  if (entry_out != nullptr) *entry_out = &*entry;
  return Statement::Borrow(entry->statement, &entry->pins);
}

void StatementCache::Evict() {
  auto entry = entries_.end();
  while (entries_.size() > capacity_) {
    --entry;
    if (entry == entries_.begin()) break;  // the entry just handed out always stays
    // Someone still reads from it or holds it: finalizing would pull it out from under them.
    if (entry->pins > 0 || sqlite3_stmt_busy(entry->statement.handle()) != 0) continue;
    index_.erase(entry->sql);
    by_serial_.erase(entry->serial);
    entry = entries_.erase(entry);
  }
}

void StatementCache::SetCapacity(size_t capacity) {
  capacity_ = capacity;
  Evict();
}

void StatementCache::Clear() {
  for (const Entry& entry : entries_) {
    assert(entry.pins == 0 && "a borrowed statement outlives its cache");
    (void)entry;
  }
  index_.clear();
  by_serial_.clear();
  entries_.clear();
}

}  // namespace quarry::engine
