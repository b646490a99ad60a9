// InotifyMonitor: one RAII inotify fd and the watch of every indexed folder (issue 5
// "Monitor"). Events come out as FsEvents with absolute paths for the EventCoalescer.
// Limits are normal states (ARCHITECTURE.md §6): a watch refused with ENOSPC (the per-user
// limit) is reported as Errc::kNoSpace so the miner falls back to periodic crawls of that
// folder; IN_Q_OVERFLOW sets overflowed() so the miner re-crawls what may have been missed.
// Thread-safety: the miner thread only.
#pragma once

#include <sys/inotify.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "miner-fs/event_coalescer.h"
#include "quarry/result.h"
#include "store/common/unique_fd.h"

namespace quarry::miner {

class InotifyMonitor {
 public:
  static Result<InotifyMonitor> Create();

  int fd() const { return fd_.get(); }
  // Watches `path` (a folder). Errc::kNoSpace when the watch limit is reached: the kernel's,
  // or `max_watches` when set (config [monitor] max_watches; also how tests reach the limit).
  Result<void> Watch(const std::string& path);
  void SetMaxWatches(size_t max_watches) { max_watches_ = max_watches; }
  // Forgets the watches of `path` and everything under it (a deleted folder).
  void Unwatch(const std::string& path);
  // A folder moved: the watches under `old_path` now report paths under `new_path`.
  void Rename(const std::string& old_path, const std::string& new_path);
  bool IsWatched(const std::string& path) const { return wd_by_path_.contains(path); }
  size_t size() const { return path_by_wd_.size(); }

  // Reads what is available (non-blocking); appends to `events`.
  Result<void> Read(std::vector<FsEvent>& events);
  // True once an IN_Q_OVERFLOW was read; cleared by the call.
  bool TakeOverflow();
  // Whether an overflow waits for TakeOverflow().
  bool overflowed() const { return overflowed_; }
  // Test hook (quarry-miner-fs on SIGUSR1): what the kernel does when its queue overflows —
  // the queued events are lost and IN_Q_OVERFLOW is reported.
  void SimulateOverflow();

 private:
  explicit InotifyMonitor(UniqueFd fd) : fd_(std::move(fd)) {}
  void Decode(const struct inotify_event& raw, std::vector<FsEvent>& events);

  UniqueFd fd_;
  std::unordered_map<int, std::string> path_by_wd_;
  std::unordered_map<std::string, int> wd_by_path_;
  bool overflowed_ = false;
  size_t max_watches_ = 0;  // 0: no cap of our own
};

}  // namespace quarry::miner
