#include "store/engine/sqlite/lock_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>

#include <cerrno>
#include <cstring>

namespace quarry::engine {

Result<std::optional<LockFile>> LockFile::TryAcquire(const std::filesystem::path& directory) {
  std::filesystem::path path = directory / kFileName;
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!fd) {
    return Error(Errc::kIo,
                 fmt::format("cannot open lock file {}: {}", path.string(), std::strerror(errno)));
  }
  int rc = 0;
  do {
    rc = ::flock(fd.get(), LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    if (errno == EWOULDBLOCK) return std::optional<LockFile>();
    return Error(Errc::kIo, fmt::format("cannot lock {}: {}", path.string(), std::strerror(errno)));
  }
  return std::optional<LockFile>(LockFile(std::move(fd), std::move(path)));
}

LockFile& LockFile::operator=(LockFile&& other) noexcept {
  if (this != &other) {
    Unlock();
    fd_ = std::move(other.fd_);
    path_ = std::move(other.path_);
  }
  return *this;
}

LockFile::~LockFile() { Unlock(); }

void LockFile::Unlock() {
  // Explicit, so the lock goes now even if a forked child still shares the descriptor.
  if (fd_) ::flock(fd_.get(), LOCK_UN);
  fd_.reset();
}

}  // namespace quarry::engine
