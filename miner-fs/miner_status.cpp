#include "miner-fs/miner_status.h"

#include <fmt/format.h>

namespace quarry::miner {
namespace {
constexpr size_t kKeptErrors = 10;
}

void MinerStatus::SetListener(Listener listener) {
  const std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

void MinerStatus::SetResumeWaker(std::function<void()> waker) {
  const std::lock_guard lock(mutex_);
  resume_waker_ = std::move(waker);
}

void MinerStatus::SetState(std::string state, double progress, int remaining_seconds) {
  {
    const std::lock_guard lock(mutex_);
    state_ = std::move(state);
    progress_ = progress;
    remaining_ = remaining_seconds;
  }
  Publish(false);
}

void MinerStatus::SetCounts(const MinerCounts& counts) {
  const std::lock_guard lock(mutex_);
  counts_ = counts;
}

void MinerStatus::SetCurrent(std::string path) {
  const std::lock_guard lock(mutex_);
  current_ = std::move(path);
}

void MinerStatus::AddError(std::string message) {
  const std::lock_guard lock(mutex_);
  errors_.push_back(std::move(message));
  if (errors_.size() > kKeptErrors) errors_.pop_front();
}

int MinerStatus::Pause(std::string application, std::string reason) {
  int cookie = 0;
  {
    const std::lock_guard lock(mutex_);
    cookie = next_cookie_++;
    pauses_[cookie] = {std::move(application), std::move(reason)};
  }
  Publish(true);
  return cookie;
}

Result<void> MinerStatus::Resume(int cookie) {
  {
    const std::lock_guard lock(mutex_);
    if (pauses_.erase(cookie) == 0) {
      return Error(Errc::kNotFound, fmt::format("no pause has cookie {}", cookie));
    }
    if (pauses_.empty() && resume_waker_) resume_waker_();
  }
  Publish(true);
  return Ok();
}

bool MinerStatus::paused() const {
  const std::lock_guard lock(mutex_);
  return !pauses_.empty();
}

std::string MinerStatus::state() const {
  const std::lock_guard lock(mutex_);
  return pauses_.empty() ? state_ : kStatePaused;
}

double MinerStatus::progress() const {
  const std::lock_guard lock(mutex_);
  return progress_;
}

int MinerStatus::remaining_seconds() const {
  const std::lock_guard lock(mutex_);
  return remaining_;
}

MinerCounts MinerStatus::counts() const {
  const std::lock_guard lock(mutex_);
  return counts_;
}

std::string MinerStatus::current() const {
  const std::lock_guard lock(mutex_);
  return current_;
}

std::vector<PauseRecord> MinerStatus::pauses() const {
  const std::lock_guard lock(mutex_);
  std::vector<PauseRecord> records;
  for (const auto& [cookie, record] : pauses_) records.push_back(record);
  return records;
}

std::vector<std::string> MinerStatus::errors() const {
  const std::lock_guard lock(mutex_);
  return {errors_.begin(), errors_.end()};
}

void MinerStatus::Publish(bool force) {
  Listener listener;
  std::string state;
  double progress = 0;
  int remaining = 0;
  {
    const std::lock_guard lock(mutex_);
    state = pauses_.empty() ? state_ : kStatePaused;
    const auto now = Clock::now();
    const bool is_due = now - last_published_ >= min_interval_;
    if (!force && state == last_published_state_ && !is_due) return;
    last_published_ = now;
    last_published_state_ = state;
    listener = listener_;
    progress = progress_;
    remaining = remaining_;
  }
  if (listener) listener(state, progress, remaining);
}

}  // namespace quarry::miner
