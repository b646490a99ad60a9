// CommittedChanges: what one committed write transaction changed, in the terms of the class
// signals (DESIGN.md "GraphUpdated" and "Writeback"): resource IDs only.
//
// The engine fills it (change_capture.h) and hands it to the ChangeSink installed with
// Store::SetChangeSink() after COMMIT; the D-Bus layer batches and emits it. Plain data: the
// engine sits below the notifier layer, so these types do not borrow the notifier's.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace quarry::engine {

// (graph, subject, predicate, object) resource IDs as the GraphUpdated signal carries them:
// a(iiii), four int32 (Tracker's wire format); object 0 for a literal, graph 0 for the default
// graph. 16 bytes: a 12,800-contact batch save reports ~370,000 of them in one transaction, held
// until they are emitted (issue 7; 32 bytes of int64 IDs until Dec 2). An ID past INT32_MAX
// (a SQLite rowid may reach 2^63 - 1; a desktop database's do not reach 2^31) is kept as the
// signal sends it: its low 32 bits, two's complement (WireId), as the D-Bus layer's narrowing
// always did; the writeback map keeps whole IDs.
struct ChangedQuad {
  int32_t graph = 0;
  int32_t subject = 0;
  int32_t predicate = 0;
  int32_t object = 0;
  constexpr ChangedQuad() = default;
  constexpr ChangedQuad(int64_t graph_id, int64_t subject_id, int64_t predicate_id,
                        int64_t object_id)
      : graph(WireId(graph_id)),
        subject(WireId(subject_id)),
        predicate(WireId(predicate_id)),
        object(WireId(object_id)) {}
  // A resource ID as a signal field.
  static constexpr int32_t WireId(int64_t id) { return static_cast<int32_t>(id); }
  friend bool operator==(const ChangedQuad&, const ChangedQuad&) = default;
};
static_assert(sizeof(ChangedQuad) == 16);

// One `nrl:notify` class's share of a transaction: the triples of its instances that went away
// (applied first) and those that appeared.
struct ClassChangeSet {
  std::string class_iri;
  std::vector<ChangedQuad> deletes;
  std::vector<ChangedQuad> inserts;
};

struct CommittedChanges {
  std::vector<ClassChangeSet> classes;  // in ontology order; only classes with changes
  // Subject ID → IDs of its `nrl:writeback` properties that changed (ascending, unique).
  // Filled whatever the update's source: the caller knows whether a miner sent it.
  std::map<int64_t, std::vector<int64_t>> writeback;
  bool empty() const { return classes.empty() && writeback.empty(); }
};

// Receives each committed transaction's changes on the writer thread, right after COMMIT.
using ChangeSink = std::function<void(CommittedChanges&& changes)>;

}  // namespace quarry::engine
