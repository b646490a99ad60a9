#include "miner-fs/inotify_monitor.h"

#include <fmt/format.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace quarry::miner {
namespace {

constexpr uint32_t kWatchMask = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM |
                                IN_MOVED_TO | IN_ATTRIB | IN_DONT_FOLLOW | IN_ONLYDIR |
                                IN_EXCL_UNLINK;

}  // namespace

Result<InotifyMonitor> InotifyMonitor::Create() {
  UniqueFd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!fd) {
    return Error(Errc::kIo, fmt::format("cannot start inotify: {}", std::strerror(errno)));
  }
  return InotifyMonitor(std::move(fd));
}

Result<void> InotifyMonitor::Watch(const std::string& path) {
  if (wd_by_path_.contains(path)) return Ok();
  if (max_watches_ > 0 && path_by_wd_.size() >= max_watches_) {
    return Error(Errc::kNoSpace, fmt::format("cannot watch {}: the configured limit of {} watches is reached",
                                             path, max_watches_));
  }
  const int wd = ::inotify_add_watch(fd_.get(), path.c_str(), kWatchMask);
  if (wd < 0) {
    const int error = errno;
    return Error(error == ENOSPC ? Errc::kNoSpace : error == ENOENT ? Errc::kNotFound : Errc::kIo,
                 fmt::format("cannot watch {}: {}", path, std::strerror(error)));
  }
  // The same inode watched under an older path (a move the monitor did not see): rebind.
  if (const auto old = path_by_wd_.find(wd); old != path_by_wd_.end()) wd_by_path_.erase(old->second);
  path_by_wd_[wd] = path;
  wd_by_path_[path] = wd;
  return Ok();
}

void InotifyMonitor::Unwatch(const std::string& path) {
  const std::string prefix = path + "/";
  for (auto it = wd_by_path_.begin(); it != wd_by_path_.end();) {
    if (it->first != path && !it->first.starts_with(prefix)) {
      ++it;
      continue;
    }
    ::inotify_rm_watch(fd_.get(), it->second);  // EINVAL when the kernel dropped it already
    path_by_wd_.erase(it->second);
    it = wd_by_path_.erase(it);
  }
}

void InotifyMonitor::Rename(const std::string& old_path, const std::string& new_path) {
  const std::string prefix = old_path + "/";
  std::vector<std::pair<std::string, int>> moved;
  for (auto it = wd_by_path_.begin(); it != wd_by_path_.end();) {
    if (it->first != old_path && !it->first.starts_with(prefix)) {
      ++it;
      continue;
    }
    moved.emplace_back(new_path + it->first.substr(old_path.size()), it->second);
    it = wd_by_path_.erase(it);
  }
  for (auto& [path, wd] : moved) {
    path_by_wd_[wd] = path;
    wd_by_path_[std::move(path)] = wd;
  }
}

Result<void> InotifyMonitor::Read(std::vector<FsEvent>& events) {
  alignas(struct inotify_event) char buffer[64 * 1024];
  for (;;) {
    const ssize_t got = ::read(fd_.get(), buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == EAGAIN) return Ok();
    if (got < 0) return Error(Errc::kIo, fmt::format("inotify read: {}", std::strerror(errno)));
    if (got == 0) return Ok();
    for (ssize_t offset = 0; offset < got;) {
      const auto* raw = reinterpret_cast<const struct inotify_event*>(buffer + offset);
      Decode(*raw, events);
      offset += static_cast<ssize_t>(sizeof(struct inotify_event) + raw->len);
    }
  }
}

void InotifyMonitor::Decode(const struct inotify_event& raw, std::vector<FsEvent>& events) {
  if (raw.mask & IN_Q_OVERFLOW) {
    overflowed_ = true;
    return;
  }
  const auto folder = path_by_wd_.find(raw.wd);
  if (folder == path_by_wd_.end()) return;
  if (raw.mask & IN_IGNORED) {  // the folder is gone (deleted, unmounted)
    wd_by_path_.erase(folder->second);
    path_by_wd_.erase(folder);
    return;
  }
  if (raw.len == 0) return;  // events on the folder itself arrive through its parent's watch
  std::string path = folder->second + "/" + raw.name;
  const bool is_folder = raw.mask & IN_ISDIR;
  const auto add = [&](FsEventKind kind) { events.push_back({kind, path, is_folder, raw.cookie}); };
  if (raw.mask & IN_CREATE) add(FsEventKind::kCreated);
  if (raw.mask & (IN_MODIFY | IN_ATTRIB)) add(FsEventKind::kModified);
  if (raw.mask & IN_CLOSE_WRITE) add(FsEventKind::kClosedWrite);
  if (raw.mask & IN_DELETE) add(FsEventKind::kDeleted);
  if (raw.mask & IN_MOVED_FROM) add(FsEventKind::kMovedFrom);
  if (raw.mask & IN_MOVED_TO) add(FsEventKind::kMovedTo);
}

bool InotifyMonitor::TakeOverflow() { return std::exchange(overflowed_, false); }

void InotifyMonitor::SimulateOverflow() {
  alignas(inotify_event) char buffer[4096];
  while (::read(fd_.get(), buffer, sizeof(buffer)) > 0) {
  }
  overflowed_ = true;
}

}  // namespace quarry::miner
