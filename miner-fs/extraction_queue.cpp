#include "miner-fs/extraction_queue.h"

#include <algorithm>

namespace quarry::miner {

void PendingExtraction::Enqueue(std::vector<std::string> uris) {
  const std::lock_guard lock(mutex_);
  for (std::string& uri : uris) uris_.push_back(std::move(uri));
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

}  // namespace quarry::miner
