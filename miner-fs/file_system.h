// The FileSystem seam (ARCHITECTURE.md §1, leveldb's Env): how the crawler and the monitor see
// folders. PosixFileSystem is the real one (openat/fstatat-style statx on an open folder fd, no
// path rebuilt per file); tests substitute a fake that yields EACCES, ENOENT mid-crawl and
// vanishing folders.
// Thread-safety: a Folder belongs to one thread; PosixFileSystem is stateless.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/result.h"

namespace quarry::miner {

enum class RawKind { kFile, kFolder, kSymlink, kOther };

struct RawEntry {
  std::string name;
  RawKind kind = RawKind::kOther;
  int64_t mtime_us = 0;
  int64_t size = 0;
  int64_t created_us = 0;  // 0: the file system does not say
  int error = 0;           // errno of a failed stat (the entry vanished, EACCES): skip it
};

// A folder's identity, to notice a folder reached twice (bind mounts, loops).
struct FolderId {
  uint64_t device = 0;
  uint64_t inode = 0;
  bool operator==(const FolderId&) const = default;
};

class Folder {
 public:
  virtual ~Folder() = default;
  virtual FolderId id() const = 0;
  // Every entry but "." and "..", each with its stat (symlinks not followed).
  virtual Result<std::vector<RawEntry>> List() = 0;
  // A sub-folder by name (never through a symlink).
  virtual Result<std::unique_ptr<Folder>> OpenChild(std::string_view name) = 0;
  // Up to `limit` bytes of a file in this folder (for .gitignore).
  virtual Result<std::string> ReadFile(std::string_view name, size_t limit) = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual Result<std::unique_ptr<Folder>> OpenFolder(const std::string& path) = 0;
  // One entry by absolute path (symlinks not followed); the name is the last segment.
  virtual Result<RawEntry> Stat(const std::string& path) = 0;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<Folder>> OpenFolder(const std::string& path) override;
  Result<RawEntry> Stat(const std::string& path) override;
};

}  // namespace quarry::miner
