// PosixFileSystem: statx(2) relative to an open folder fd gives size, mtime and (where the file
// system records it) birth time in one call per entry.
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "miner-fs/file_system.h"
#include "store/common/unique_fd.h"

namespace quarry::miner {
namespace {

int64_t Micros(const statx_timestamp& time) {
  return static_cast<int64_t>(time.tv_sec) * 1000000 + time.tv_nsec / 1000;
}

Error SystemError(int error, std::string_view what, std::string_view name) {
  return Error(error == ENOENT ? Errc::kNotFound : Errc::kIo,
               fmt::format("{} '{}': {}", what, name, std::strerror(error)));
}

// statx of `name` relative to `folder_fd` (AT_FDCWD with an absolute name).
RawEntry StatAt(int folder_fd, const char* name, std::string entry_name) {
  RawEntry entry{std::move(entry_name)};
  struct statx info {};
  // Only the fields used; AT_STATX_DONT_SYNC: a network file system answers from its cache.
  if (::statx(folder_fd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC,
              STATX_TYPE | STATX_SIZE | STATX_MTIME | STATX_BTIME, &info) != 0) {
    entry.error = errno;
    return entry;
  }
  const mode_t type = info.stx_mode & S_IFMT;
  entry.kind = type == S_IFREG   ? RawKind::kFile
               : type == S_IFDIR ? RawKind::kFolder
               : type == S_IFLNK ? RawKind::kSymlink
                                 : RawKind::kOther;
  entry.size = static_cast<int64_t>(info.stx_size);
  entry.mtime_us = Micros(info.stx_mtime);
  if (info.stx_mask & STATX_BTIME) entry.created_us = Micros(info.stx_btime);
  return entry;
}

class PosixFolder final : public Folder {
 public:
  PosixFolder(UniqueFd fd, FolderId id) : fd_(std::move(fd)), id_(id) {}

  static Result<std::unique_ptr<Folder>> Adopt(int fd, std::string_view name) {
    if (fd < 0) return SystemError(errno, "cannot open folder", name);
    UniqueFd owned(fd);
    struct stat info {};
    if (::fstat(owned.get(), &info) != 0) return SystemError(errno, "cannot stat folder", name);
    const FolderId id{static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino)};
    return std::unique_ptr<Folder>(std::make_unique<PosixFolder>(std::move(owned), id));
  }

  FolderId id() const override { return id_; }

  Result<std::vector<RawEntry>> List() override {
    // getdents64 on our own fd, no fdopendir and its dup per folder; rewound when listed
    // before (a fresh fd starts at the beginning: no lseek per folder in a crawl).
    if (is_listed_ && ::lseek(fd_.get(), 0, SEEK_SET) < 0) {
      return SystemError(errno, "cannot list folder", ".");
    }
    is_listed_ = true;
    alignas(8) char buffer[32 * 1024];
    std::vector<RawEntry> entries;
    for (;;) {
      const ssize_t got = ::getdents64(fd_.get(), buffer, sizeof(buffer));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return SystemError(errno, "cannot list folder", ".");
      if (got == 0) break;
      if (entries.empty()) {  // one allocation for a folder listed in one read (most are)
        size_t records = 0;
        for (ssize_t offset = 0; offset < got; ++records) {
          offset += reinterpret_cast<const dirent64*>(buffer + offset)->d_reclen;
        }
        entries.reserve(records);
      }
      for (ssize_t offset = 0; offset < got;) {
        const auto* item = reinterpret_cast<const dirent64*>(buffer + offset);
        offset += item->d_reclen;
        const std::string_view name = item->d_name;
        if (name == "." || name == "..") continue;
        entries.push_back(StatAt(fd_.get(), item->d_name, std::string(name)));
      }
    }
    return entries;
  }

  Result<std::unique_ptr<Folder>> OpenChild(std::string_view name) override {
    const std::string child(name);
    constexpr int kFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::openat(fd_.get(), child.c_str(), kFlags | O_NOATIME);
    if (fd < 0 && errno == EPERM) fd = ::openat(fd_.get(), child.c_str(), kFlags);
    return Adopt(fd, name);
  }

  Result<std::string> ReadFile(std::string_view name, size_t limit) override {
    const std::string file(name);
    UniqueFd fd(::openat(fd_.get(), file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) return SystemError(errno, "cannot open", name);
    std::string text(limit, '\0');
    size_t filled = 0;
    while (filled < limit) {
      const ssize_t got = ::read(fd.get(), text.data() + filled, limit - filled);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return SystemError(errno, "cannot read", name);
      if (got == 0) break;
      filled += static_cast<size_t>(got);
    }
    text.resize(filled);
    return text;
  }

 private:
  UniqueFd fd_;
  FolderId id_;
  bool is_listed_ = false;
};

}  // namespace

Result<std::unique_ptr<Folder>> PosixFileSystem::OpenFolder(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOATIME);
  // O_NOATIME is refused (EPERM) on files the caller does not own.
  if (fd < 0 && errno == EPERM) fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return PosixFolder::Adopt(fd, path);
}

Result<RawEntry> PosixFileSystem::Stat(const std::string& path) {
  const size_t slash = path.rfind('/');
  RawEntry entry = StatAt(AT_FDCWD, path.c_str(),
                          slash == std::string::npos ? path : path.substr(slash + 1));
  if (entry.error != 0) return SystemError(entry.error, "cannot stat", path);
  return entry;
}

}  // namespace quarry::miner
