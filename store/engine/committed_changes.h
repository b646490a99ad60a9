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

// (graph, subject, predicate, object) resource IDs; object 0 for a literal, graph 0 for the
// default graph.
struct ChangedQuad {
  int64_t graph = 0;
  int64_t subject = 0;
  int64_t predicate = 0;
  int64_t object = 0;
  friend bool operator==(const ChangedQuad&, const ChangedQuad&) = default;
};

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
