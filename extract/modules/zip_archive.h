// Read-only access to the members of a zip-based document (OpenDocument, OOXML) that refuses
// zip bombs: the declared unpacked sizes are checked against Limits::max_unpacked_bytes and a
// compression-ratio limit when the archive is opened, and the bytes actually inflated are
// counted while reading, so a member that lies about its size is cut off too.
// Thread-safety: one thread per ZipArchive (libzip handles are not shared).
#pragma once

#include <zip.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::extract {

// A member more than this many times bigger unpacked than packed is a bomb (ODF and OOXML
// XML compresses 5-20x; bombs reach 1000x). Small members are exempt: a 1 KiB run of spaces
// may legitimately pack to a few bytes.
inline constexpr uint64_t kMaxCompressionRatio = 200;
inline constexpr uint64_t kRatioExemptBytes = 1 << 20;
inline constexpr uint64_t kMaxMembers = 100000;

struct ZipDeleter {
  void operator()(zip_t* archive) const noexcept { zip_discard(archive); }
};
struct ZipFileDeleter {
  void operator()(zip_file_t* file) const noexcept { zip_fclose(file); }
};

class ZipMemberReader;

class ZipArchive {
 public:
  // Opens the regular file `path` and checks every member's declared sizes.
  static Result<ZipArchive> Open(const std::string& path, uint64_t max_unpacked_bytes);

  bool Contains(std::string_view member) const;
  // The whole member, refused when it inflates beyond `max_bytes` or its declared size.
  Result<std::string> ReadMember(std::string_view member, uint64_t max_bytes) const;
  // A streaming reader over one member, with the same checks.
  Result<ZipMemberReader> OpenMember(std::string_view member) const;

  const std::string& path() const { return path_; }

 private:
  ZipArchive(std::unique_ptr<zip_t, ZipDeleter> archive, std::string path,
             uint64_t max_unpacked_bytes)
      : archive_(std::move(archive)), path_(std::move(path)),
        max_unpacked_bytes_(max_unpacked_bytes) {}

  std::unique_ptr<zip_t, ZipDeleter> archive_;
  std::string path_;
  uint64_t max_unpacked_bytes_;
};

class ZipMemberReader {
 public:
  // Reads up to `size` bytes; 0 at the end. Inflating past the declared size or the limit is
  // an error.
  Result<size_t> Read(char* buffer, size_t size);

 private:
  friend class ZipArchive;
  ZipMemberReader(std::unique_ptr<zip_file_t, ZipFileDeleter> file, std::string what,
                  uint64_t max_bytes)
      : file_(std::move(file)), what_(std::move(what)), max_bytes_(max_bytes) {}

  std::unique_ptr<zip_file_t, ZipFileDeleter> file_;
  std::string what_;  // "path: member", for errors
  uint64_t max_bytes_;
  uint64_t read_ = 0;
};

}  // namespace quarry::extract
