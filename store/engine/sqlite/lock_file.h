// LockFile: the writer's claim on a database directory (DESIGN.md "one writer"): an exclusive
// flock() on DIR/.quarry.lock, held while the object lives.
//
// flock locks belong to the open file description, so a second TryAcquire() fails even in the
// same process, and the kernel drops the lock when the holder dies (no stale lock after a
// crash). The descriptor is O_CLOEXEC: programs we start never inherit the claim.
// Thread-safety: a plain value; TryAcquire() may be called from any thread.
#pragma once

#include <filesystem>
#include <optional>

#include "store/common/result.h"
#include "store/common/unique_fd.h"

namespace quarry::engine {

class LockFile {
 public:
  static constexpr std::string_view kFileName = ".quarry.lock";

  // The lock, nullopt when another holder has it, or kIo when the file cannot be opened
  // (missing or read-only directory).
  static Result<std::optional<LockFile>> TryAcquire(const std::filesystem::path& directory);

  LockFile(LockFile&& other) noexcept = default;
  LockFile& operator=(LockFile&& other) noexcept;
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;
  ~LockFile();

  const std::filesystem::path& path() const { return path_; }

 private:
  LockFile(UniqueFd fd, std::filesystem::path path) : fd_(std::move(fd)), path_(std::move(path)) {}
  void Unlock();

  UniqueFd fd_;
  std::filesystem::path path_;
};

}  // namespace quarry::engine
