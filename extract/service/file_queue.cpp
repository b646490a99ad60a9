#include "extract/service/file_queue.h"

namespace quarry::extract::service {

void FileQueue::PushUrgent(const std::vector<std::string>& urls) {
  {
    const std::lock_guard lock(mutex_);
    for (const std::string& url : urls) {
      auto [it, inserted] = queued_.try_emplace(url, true);
      if (!inserted && it->second) continue;  // already urgent
      // A backlog entry stays in backlog_ and is skipped there once taken from urgent_.
      it->second = true;
      urgent_.push_back(url);
    }
  }
  ready_.notify_all();
}

void FileQueue::PushBacklog(const std::vector<std::string>& urls) {
  {
    const std::lock_guard lock(mutex_);
    for (const std::string& url : urls) {
      if (queued_.try_emplace(url, false).second) backlog_.push_back(url);
    }
  }
  ready_.notify_all();
}

bool FileQueue::TakeFrom(std::deque<std::string>& from, bool urgent,
                         std::vector<std::string>& out, size_t limit) {
  while (!from.empty() && out.size() < limit) {
    std::string url = std::move(from.front());
    from.pop_front();
    const auto it = queued_.find(url);
    // Taken already, or moved to the urgent queue since it was put in the backlog.
    if (it == queued_.end() || it->second != urgent) continue;
    queued_.erase(it);
    out.push_back(std::move(url));
  }
  return out.size() >= limit;
}

std::vector<std::string> FileQueue::Take(size_t limit) {
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [this] { return closed_ || !queued_.empty(); });
  std::vector<std::string> out;
  if (closed_) return out;
  if (!TakeFrom(urgent_, true, out, limit)) TakeFrom(backlog_, false, out, limit);
  return out;
}

size_t FileQueue::size() const {
  const std::lock_guard lock(mutex_);
  return queued_.size();
}

void FileQueue::Close() {
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
  }
  ready_.notify_all();
}

}  // namespace quarry::extract::service
