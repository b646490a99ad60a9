#include "store/notifier/change_batcher.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace quarry::notifier {

size_t QuadHash::operator()(const engine::ChangedQuad& quad) const noexcept {
  // Boost-style mixing: the four IDs are small integers with lots of shared high bits.
  size_t seed = 0;
  for (const int64_t id : {quad.graph, quad.subject, quad.predicate, quad.object}) {
    seed ^= std::hash<int64_t>{}(id) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  }
  return seed;
}

ChangeBatcher::ChangeBatcher(Limits limits, Clock clock, EmitCallback emit)
    : limits_(limits), clock_(std::move(clock)), emit_(std::move(emit)) {
  limits_.max_triples = std::max<size_t>(limits_.max_triples, 1);
}

bool ChangeBatcher::DeletesPendingInsert(const Pending& pending,
                                         const engine::ClassChangeSet& incoming) const {
  if (pending.inserted.empty()) return false;
  return std::any_of(
      incoming.deletes.begin(), incoming.deletes.end(),
      [&](const engine::ChangedQuad& quad) { return pending.inserted.count(quad) != 0; });
}

void ChangeBatcher::Add(const std::vector<engine::ClassChangeSet>& transaction) {
  for (const engine::ClassChangeSet& incoming : transaction) {
    if (TripleCount(incoming) == 0) continue;
    if (TripleCount(incoming) >= limits_.max_triples) {
      // It would go out at once, after everything pending: emit it from the caller's set
      // instead of copying it into the pending state first (with a hash set of its inserts, to
      // be thrown away unused). A 12,800-contact batch save's ~370,000 nco:PersonContact quads
      // were 11 MiB copied plus ~26 MiB of set nodes and buckets in quarry-store (issue 7).
      Flush();
      EmitChunked(incoming);
      continue;
    }
    const auto found = pending_.find(incoming.class_iri);
    if (found != pending_.end()) {
      const Pending& pending = found->second;
      // Keep this transaction whole in its own emission rather than split it over two.
      const bool would_overflow =
          TripleCount(pending.changes) + TripleCount(incoming) > limits_.max_triples;
      if (would_overflow || DeletesPendingInsert(pending, incoming)) Flush();
    }
    Append(incoming);
    if (TripleCount(pending_.at(incoming.class_iri).changes) >= limits_.max_triples) Flush();
  }
  if (!order_.empty() && !deadline_) deadline_ = clock_() + limits_.delay;
}

void ChangeBatcher::Append(const engine::ClassChangeSet& incoming) {
  auto [entry, is_new] = pending_.try_emplace(incoming.class_iri);
  Pending& pending = entry->second;
  if (is_new) {
    pending.changes.class_iri = incoming.class_iri;
    order_.push_back(incoming.class_iri);
  }
  pending.changes.deletes.insert(pending.changes.deletes.end(), incoming.deletes.begin(),
                                 incoming.deletes.end());
  pending.changes.inserts.insert(pending.changes.inserts.end(), incoming.inserts.begin(),
                                 incoming.inserts.end());
  pending.inserted.insert(incoming.inserts.begin(), incoming.inserts.end());
}

void ChangeBatcher::Poll() {
  if (deadline_ && clock_() >= *deadline_) Flush();
}

void ChangeBatcher::Flush() {
  // Detach the pending state first: an emit callback may Add() again without seeing it.
  std::unordered_map<std::string, Pending> pending = std::move(pending_);
  std::vector<std::string> order = std::move(order_);
  pending_.clear();
  order_.clear();
  deadline_.reset();
  for (const std::string& class_iri : order) EmitChunked(pending.at(class_iri).changes);
}

// Cuts `changes` into emissions of at most max_triples, taking deletes first, so that each
// emission still lists its deletes before its inserts and the order of triples is kept.
void ChangeBatcher::EmitChunked(const engine::ClassChangeSet& changes) {
  if (TripleCount(changes) <= limits_.max_triples) {
    emit_(changes);
    return;
  }
  size_t next_delete = 0;
  size_t next_insert = 0;
  while (next_delete < changes.deletes.size() || next_insert < changes.inserts.size()) {
    engine::ClassChangeSet chunk;
    chunk.class_iri = changes.class_iri;
    const size_t delete_count = std::min(limits_.max_triples, changes.deletes.size() - next_delete);
    chunk.deletes.assign(changes.deletes.begin() + next_delete,
                         changes.deletes.begin() + next_delete + delete_count);
    next_delete += delete_count;
    const size_t insert_count =
        std::min(limits_.max_triples - delete_count, changes.inserts.size() - next_insert);
    chunk.inserts.assign(changes.inserts.begin() + next_insert,
                         changes.inserts.begin() + next_insert + insert_count);
    next_insert += insert_count;
    assert(TripleCount(chunk) > 0);
    emit_(chunk);
  }
}

std::optional<std::chrono::steady_clock::time_point> ChangeBatcher::NextDeadline() const {
  return deadline_;
}

}  // namespace quarry::notifier
