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

namespace quarry::notifier {

// (graph, subject, predicate, object) resource IDs; object 0 for literals, graph 0 for the
// default graph. The D-Bus layer narrows them to the signal's int32 fields.
struct Quad {
  int64_t graph = 0;
  int64_t subject = 0;
  int64_t predicate = 0;
  int64_t object = 0;
  friend bool operator==(const Quad&, const Quad&) = default;
};

struct QuadHash {
  size_t operator()(const Quad& quad) const noexcept;
};

// One class's changes, in one transaction (input) or one emission (output).
struct ClassChanges {
  std::string class_iri;
  std::vector<Quad> deletes;
  std::vector<Quad> inserts;
  size_t size() const { return deletes.size() + inserts.size(); }
};

// Every notify class a committed transaction touched.
using TransactionChanges = std::vector<ClassChanges>;

class ChangeBatcher {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // Receives one GraphUpdated payload `(s class, a(iiii) deletes, a(iiii) inserts)`.
  using EmitCallback = std::function<void(const ClassChanges& emission)>;

  struct Limits {
    std::chrono::milliseconds delay{100};  // how long the first pending change may wait
    size_t max_triples = 4096;             // triples per emission; at least 1
  };

  ChangeBatcher(Limits limits, Clock clock, EmitCallback emit);

  // Takes one committed transaction's changes; emits at once when a size limit is reached.
  void Add(const TransactionChanges& transaction);
  // Emits everything pending when the time limit has passed.
  void Poll();
  // Emits everything pending now (shutdown, or a caller that must not wait).
  void Flush();
  // When Poll() has work to do; nullopt when nothing is pending.
  std::optional<std::chrono::steady_clock::time_point> NextDeadline() const;
  bool empty() const { return order_.empty(); }

 private:
  struct Pending {
    ClassChanges changes;
    std::unordered_set<Quad, QuadHash> inserted;  // to spot deletes of pending inserts
  };

  bool DeletesPendingInsert(const Pending& pending, const ClassChanges& incoming) const;
  void Append(const ClassChanges& incoming);
  void EmitChunked(ClassChanges& changes);

  Limits limits_;
  Clock clock_;
  EmitCallback emit_;
  std::unordered_map<std::string, Pending> pending_;
  std::vector<std::string> order_;  // classes by first pending commit
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

}  // namespace quarry::notifier
