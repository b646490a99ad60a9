// MinerStatus: what org.quarry.Miner reports and who paused the miner (issue 5 "Progress and
// control"): the state (Initializing, Crawling, Extracting, Idle, Paused), progress 0..1, the
// remaining seconds, counts, the file being worked on, pause reasons with their cookies, the
// last errors and whether the inotify watch limit was reached.
//
// The miner thread writes; the D-Bus thread reads and pauses. Publish() calls the listener (the
// Progress signal) at most every `min_interval`, and always on a state change.
// Thread-safety: every method may be called from any thread; the listener runs outside the lock
// on the thread that published.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "quarry/result.h"

namespace quarry::miner {

inline constexpr const char* kStateInitializing = "Initializing";
inline constexpr const char* kStateCrawling = "Crawling";
inline constexpr const char* kStateIdle = "Idle";
inline constexpr const char* kStatePaused = "Paused";

struct MinerCounts {
  uint64_t found = 0;      // files seen on disk in the indexed trees
  uint64_t indexed = 0;    // updates the store acknowledged
  uint64_t waiting = 0;    // files waiting for extraction in the miner (not yet handed off)
  uint64_t handed_off = 0; // files queued in org.quarry.Extract1
  uint64_t deferred = 0;   // files left for quarry-extract to find when it starts
  uint64_t failed = 0;     // updates the store refused
  uint64_t folders = 0;    // folders listed
  uint64_t watched = 0;    // folders under inotify
  uint64_t unwatched = 0;  // folders refused by the watch limit, crawled periodically instead
  bool watch_limit_reached = false;
};

struct PauseRecord {
  std::string application;
  std::string reason;
};

class MinerStatus {
 public:
  using Listener = std::function<void(const std::string& state, double progress, int remaining)>;
  using Clock = std::chrono::steady_clock;

  explicit MinerStatus(std::chrono::milliseconds min_interval = std::chrono::milliseconds(250))
      : min_interval_(min_interval) {}

  void SetListener(Listener listener);
  // Called when a Resume releases the last pause (Miner: writes its wake fd, so work taken in
  // while paused starts at once). It runs under the status lock, so once SetResumeWaker(nullptr)
  // returns it is not running; it must not call back into MinerStatus.
  void SetResumeWaker(std::function<void()> waker);
  // The miner's own state (Paused overrides it while someone holds a pause).
  void SetState(std::string state, double progress, int remaining_seconds);
  void SetCounts(const MinerCounts& counts);
  void SetCurrent(std::string path);
  void AddError(std::string message);  // keeps the last few

  // A new pause; returns its cookie.
  int Pause(std::string application, std::string reason);
  // Errc::kNotFound for a cookie that holds no pause.
  Result<void> Resume(int cookie);
  bool paused() const;

  std::string state() const;
  double progress() const;
  int remaining_seconds() const;
  MinerCounts counts() const;
  std::string current() const;
  std::vector<PauseRecord> pauses() const;
  std::vector<std::string> errors() const;

 private:
  void Publish(bool force);  // called with the lock NOT held

  mutable std::mutex mutex_;
  std::chrono::milliseconds min_interval_;
  std::string state_ = kStateInitializing;
  double progress_ = 0;
  int remaining_ = -1;
  MinerCounts counts_;
  std::string current_;
  std::map<int, PauseRecord> pauses_;
  int next_cookie_ = 1;
  std::deque<std::string> errors_;
  Listener listener_;
  std::function<void()> resume_waker_;
  Clock::time_point last_published_{};
  std::string last_published_state_;
};

}  // namespace quarry::miner
