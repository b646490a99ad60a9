#include "extract/service/file_queue.h"

namespace quarry::extract::service {

// Holds mutex_.
void FileQueue::Push(const std::string& url, State state, std::deque<Slot>& to) {
  auto [it, inserted] = entries_.try_emplace(url);
  Entry& entry = it->second;
  if (entry.state == state) return;  // queued there already
  // Urgent stays urgent; a backlog entry asked for as urgent moves ahead (its backlog slot
  // stays behind, stale, and is skipped when it comes up).
  if (state == State::kBacklog && entry.state == State::kUrgent) return;
  if (entry.state == State::kTaken) ++queued_;
  entry.state = state;
  ++entry.slots;
  to.push_back(&*it);
}

void FileQueue::PushUrgent(const std::vector<std::string>& urls) {
  {
    const std::lock_guard lock(mutex_);
    for (const std::string& url : urls) Push(url, State::kUrgent, urgent_);
  }
  ready_.notify_all();
}

void FileQueue::PushBacklog(const std::vector<std::string>& urls) {
  {
    const std::lock_guard lock(mutex_);
    for (const std::string& url : urls) Push(url, State::kBacklog, backlog_);
  }
  ready_.notify_all();
}

bool FileQueue::TakeFrom(std::deque<Slot>& from, State state, std::vector<std::string>& out,
                         size_t limit) {
  while (!from.empty() && out.size() < limit) {
    Slot slot = from.front();
    from.pop_front();
    Entry& entry = slot->second;
    --entry.slots;
    // A stale slot: taken already, or moved to the urgent queue since it was put here.
    const bool live = entry.state == state;
    if (live) {
      entry.state = State::kTaken;
      --queued_;
    }
    if (entry.slots > 0) {  // another queue still points here
      if (live) out.push_back(slot->first);
      continue;
    }
    auto node = entries_.extract(slot->first);
    if (live) out.push_back(std::move(node.key()));
  }
  return out.size() >= limit;
}

std::vector<std::string> FileQueue::Take(size_t limit) {
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [this] { return closed_ || queued_ > 0; });
  std::vector<std::string> out;
  if (closed_) return out;
  if (!TakeFrom(urgent_, State::kUrgent, out, limit)) TakeFrom(backlog_, State::kBacklog, out, limit);
  return out;
}

size_t FileQueue::size() const {
  const std::lock_guard lock(mutex_);
  return queued_;
}

size_t FileQueue::held() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

void FileQueue::Close() {
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
  }
  ready_.notify_all();
}

}  // namespace quarry::extract::service
