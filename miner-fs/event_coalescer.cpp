#include "miner-fs/event_coalescer.h"

#include <algorithm>

namespace quarry::miner {

void EventCoalescer::Put(FsAction action, Clock::time_point due) {
  const auto found = pending_.find(action.path);
  if (found == pending_.end()) {
    std::string path = action.path;
    pending_.emplace(std::move(path), Pending{std::move(action), due, next_order_++});
    return;
  }
  // A move into this path keeps the move (it carries the resource) but takes the later due
  // time, so content written after the move is indexed too.
  if (found->second.action.kind == ActionKind::kMove && action.kind == ActionKind::kIndex) {
    found->second.due = std::max(found->second.due, due);
    return;
  }
  found->second.action = std::move(action);
  found->second.due = due;
}

void EventCoalescer::Add(const FsEvent& event, Clock::time_point now) {
  switch (event.kind) {
    case FsEventKind::kCreated:
      // A new folder is crawled at once (its content may already be there); a new file waits
      // for its writer to close it, or for the quiet period.
      Put({ActionKind::kIndex, event.path, {}, event.is_folder},
          event.is_folder ? now : now + quiet_period_);
      break;
    case FsEventKind::kModified:
      Put({ActionKind::kIndex, event.path, {}, event.is_folder}, now + quiet_period_);
      break;
    case FsEventKind::kClosedWrite:
      Put({ActionKind::kIndex, event.path, {}, false}, now);
      break;
    case FsEventKind::kDeleted:
      pending_.erase(event.path);
      Put({ActionKind::kDelete, event.path, {}, event.is_folder}, now);
      break;
    case FsEventKind::kMovedFrom:
      moved_from_[event.cookie] = {event, now};
      break;
    case FsEventKind::kMovedTo: {
      const auto from = moved_from_.find(event.cookie);
      if (from == moved_from_.end()) {
        Put({ActionKind::kIndex, event.path, {}, event.is_folder}, now);  // moved in from outside
        break;
      }
      // Whatever waited for the old path now belongs to the new one.
      pending_.erase(from->second.event.path);
      Put({ActionKind::kMove, event.path, from->second.event.path, event.is_folder}, now);
      moved_from_.erase(from);
      break;
    }
  }
}

void EventCoalescer::ResolveUnpaired(uint32_t cookie) {
  const auto found = moved_from_.find(cookie);
  if (found == moved_from_.end()) return;
  const FsEvent event = std::move(found->second.event);
  moved_from_.erase(found);
  pending_.erase(event.path);
  Put({ActionKind::kDelete, event.path, {}, event.is_folder}, Clock::time_point::min());
}

void EventCoalescer::EndOfRead() {
  // Halves alone for a whole read: moved out of the watched trees.
  for (const uint32_t cookie : moved_from_previous_read_) ResolveUnpaired(cookie);
  moved_from_previous_read_.clear();
  for (const auto& [cookie, moved] : moved_from_) moved_from_previous_read_.push_back(cookie);
}

std::vector<FsAction> EventCoalescer::TakeReady(Clock::time_point now) {
  std::vector<uint32_t> expired;
  for (const auto& [cookie, moved] : moved_from_) {
    if (now - moved.at >= kMovePairWindow) expired.push_back(cookie);
  }
  for (const uint32_t cookie : expired) ResolveUnpaired(cookie);
  std::vector<std::pair<uint64_t, FsAction>> ready;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.due > now) {
      ++it;
      continue;
    }
    ready.emplace_back(it->second.order, std::move(it->second.action));
    it = pending_.erase(it);
  }
  std::sort(ready.begin(), ready.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  // A deleted folder takes its descendants in one request: their own deletes add nothing.
  std::vector<std::string> deleted_folders;
  for (const auto& [order, action] : ready) {
    if (action.kind == ActionKind::kDelete && action.is_folder) deleted_folders.push_back(action.path + "/");
  }
  const auto is_under_deleted = [&](const FsAction& action) {
    return action.kind == ActionKind::kDelete &&
           std::any_of(deleted_folders.begin(), deleted_folders.end(),
                       [&](const std::string& prefix) { return action.path.starts_with(prefix); });
  };
  std::vector<FsAction> actions;
  actions.reserve(ready.size());
  for (auto& [order, action] : ready) {
    if (!is_under_deleted(action)) actions.push_back(std::move(action));
  }
  return actions;
}

std::optional<EventCoalescer::Clock::time_point> EventCoalescer::NextDue() const {
  std::optional<Clock::time_point> next;
  for (const auto& [cookie, moved] : moved_from_) {
    if (!next || moved.at + kMovePairWindow < *next) next = moved.at + kMovePairWindow;
  }
  for (const auto& [path, pending] : pending_) {
    if (!next || pending.due < *next) next = pending.due;
  }
  return next;
}

}  // namespace quarry::miner
