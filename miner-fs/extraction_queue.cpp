#include "miner-fs/extraction_queue.h"

#include <algorithm>

namespace quarry::miner {

void PendingExtraction::Enqueue(std::vector<std::string> uris) {
  const std::lock_guard lock(mutex_);
  for (std::string& uri : uris) uris_.push_back(std::move(uri));
  while (uris_.size() > max_size_) {
    uris_.pop_front();
    ++dropped_;
  }
}

void PendingExtraction::Forget(const std::string& uri) {
  const std::lock_guard lock(mutex_);
  std::erase(uris_, uri);
}

std::vector<std::string> PendingExtraction::Take(size_t limit) {
  const std::lock_guard lock(mutex_);
  const size_t count = std::min(limit, uris_.size());
  std::vector<std::string> taken(std::make_move_iterator(uris_.begin()),
                                 std::make_move_iterator(uris_.begin() + static_cast<long>(count)));
  uris_.erase(uris_.begin(), uris_.begin() + static_cast<long>(count));
  return taken;
}

size_t PendingExtraction::size() const {
  const std::lock_guard lock(mutex_);
  return uris_.size();
}

uint64_t PendingExtraction::dropped() const {
  const std::lock_guard lock(mutex_);
  return dropped_;
}

Result<void> HandOff(PendingExtraction& pending, ExtractSink& sink, size_t chunk,
                     HandOffCounts& counts) {
  for (;;) {
    const std::vector<std::string> uris = pending.Take(chunk);
    if (uris.empty()) return Ok();
    auto queued = sink.Queue(uris);
    if (queued) {
      counts.handed_off += uris.size();
      continue;
    }
    counts.deferred += uris.size();
    if (queued.error().code() != Errc::kNotFound) return queued.error();
  }
}

}  // namespace quarry::miner
