// ChangeBatcher: coalesces the per-transaction changes of `nrl:notify` classes into
// GraphUpdated payloads (DESIGN.md "GraphUpdated"), with no D-Bus in sight.
//
// The writer hands over each committed transaction's changes (Add); the batcher keeps them per
// class until a time limit (default 100 ms after the first pending change) or a size limit
// (default 4,096 triples per emission) is reached, then emits one payload per class: deletes
// before inserts, classes in the order their first pending change was committed. One
// transaction's changes to a class are split only when they alone exceed the size limit.
// A transaction that deletes a triple a pending emission still inserts flushes first, so
// "apply deletes, then inserts" always describes the real end state.
// The clock and the emit callback are injected, so tests run without sleeps; the daemon calls
// Poll() when NextDeadline() passes.
// Thread-safety: one thread (the store's writer thread) calls every method; emit runs on it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "store/engine/committed_changes.h"

namespace quarry::notifier {

// The batcher works on the engine's own change types (store/engine/committed_changes.h): the
// writer's CommittedChanges go in without a per-quad copy, and emissions come out in the same
// shape. The D-Bus layer narrows the IDs to the signal's int32 fields.
struct QuadHash {
  size_t operator()(const engine::ChangedQuad& quad) const noexcept;
};

// Deletes plus inserts of one class's share of a transaction or emission.
inline size_t TripleCount(const engine::ClassChangeSet& changes) {
  return changes.deletes.size() + changes.inserts.size();
}

class ChangeBatcher {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // Receives one GraphUpdated payload `(s class, a(iiii) deletes, a(iiii) inserts)`.
  using EmitCallback = std::function<void(const engine::ClassChangeSet& emission)>;

  struct Limits {
    std::chrono::milliseconds delay{100};  // how long the first pending change may wait
    size_t max_triples = 4096;             // triples per emission; at least 1
  };

  ChangeBatcher(Limits limits, Clock clock, EmitCallback emit);

  // Takes one committed transaction's changes (every notify class it touched); emits at once
  // when a size limit is reached.
  void Add(const std::vector<engine::ClassChangeSet>& transaction);
  // Emits everything pending when the time limit has passed.
  void Poll();
  // Emits everything pending now (shutdown, or a caller that must not wait).
  void Flush();
  // When Poll() has work to do; nullopt when nothing is pending.
  std::optional<std::chrono::steady_clock::time_point> NextDeadline() const;
  bool empty() const { return order_.empty(); }

 private:
  struct Pending {
    engine::ClassChangeSet changes;
    std::unordered_set<engine::ChangedQuad, QuadHash>
        inserted;  // to spot deletes of pending inserts
  };

  bool DeletesPendingInsert(const Pending& pending, const engine::ClassChangeSet& incoming) const;
  void Append(const engine::ClassChangeSet& incoming);
  void EmitChunked(const engine::ClassChangeSet& changes);

  Limits limits_;
  Clock clock_;
  EmitCallback emit_;
  std::unordered_map<std::string, Pending> pending_;
  std::vector<std::string> order_;  // classes by first pending commit
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

}  // namespace quarry::notifier
