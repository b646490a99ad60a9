#include "extract/modules/zip_archive.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "store/common/unique_fd.h"

namespace quarry::extract {
namespace {

std::string LibzipError(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string message = zip_error_strerror(&error);
  zip_error_fini(&error);
  return message;
}

Result<void> CheckDeclaredSizes(zip_t* archive, const std::string& path,
                                uint64_t max_unpacked_bytes) {
  const zip_int64_t count = zip_get_num_entries(archive, 0);
  if (count < 0 || static_cast<uint64_t>(count) > kMaxMembers) {
    return Error(Errc::kUnsupported,
                 fmt::format("{}: zip with {} members refused (limit {})", path, count,
                             kMaxMembers));
  }
  uint64_t total = 0;
  for (zip_int64_t index = 0; index < count; ++index) {
    zip_stat_t stat;
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(index), 0, &stat) != 0) {
      return Error(Errc::kCorrupt, fmt::format("{}: unreadable zip member {}: {}", path, index,
                                               zip_strerror(archive)));
    }
    if ((stat.valid & ZIP_STAT_SIZE) == 0 || (stat.valid & ZIP_STAT_COMP_SIZE) == 0) continue;
    const char* name = (stat.valid & ZIP_STAT_NAME) != 0 ? stat.name : "?";
    total += stat.size;
    if (total > max_unpacked_bytes) {
      return Error(Errc::kUnsupported,
                   fmt::format("{}: zip bomb refused: members declare more than {} bytes "
                               "unpacked (limit {})",
                               path, total, max_unpacked_bytes));
    }
    const uint64_t packed = std::max<uint64_t>(stat.comp_size, 1);
    if (stat.size > kRatioExemptBytes && stat.size / packed > kMaxCompressionRatio) {
      return Error(Errc::kUnsupported,
                   fmt::format("{}: zip bomb refused: member {} inflates {} bytes to {} "
                               "({}x, limit {}x)",
                               path, name, stat.comp_size, stat.size, stat.size / packed,
                               kMaxCompressionRatio));
    }
  }
  return Ok();
}

}  // namespace

Result<ZipArchive> ZipArchive::Open(const std::string& path, uint64_t max_unpacked_bytes) {
  // Checked as a regular file first: libzip would block forever on a FIFO.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd) {
    const int error = errno;
    return Error(error == ENOENT ? Errc::kNotFound : Errc::kIo,
                 fmt::format("{}: cannot open: {}", path, std::strerror(error)));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return Error(Errc::kUnsupported, fmt::format("{}: not a regular file", path));
  }
  int error_code = 0;
  std::unique_ptr<zip_t, ZipDeleter> archive(zip_fdopen(fd.get(), ZIP_RDONLY, &error_code));
  if (!archive) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("{}: not a readable zip archive: {}", path, LibzipError(error_code)));
  }
  fd.release();  // libzip owns it now
  QUARRY_TRY(CheckDeclaredSizes(archive.get(), path, max_unpacked_bytes));
  return ZipArchive(std::move(archive), path, max_unpacked_bytes);
}

bool ZipArchive::Contains(std::string_view member) const {
  return zip_name_locate(archive_.get(), std::string(member).c_str(), 0) >= 0;
}

Result<ZipMemberReader> ZipArchive::OpenMember(std::string_view member) const {
  const std::string name(member);
  const zip_int64_t index = zip_name_locate(archive_.get(), name.c_str(), 0);
  if (index < 0) {
    return Error(Errc::kNotFound, fmt::format("{}: no member {}", path_, name));
  }
  zip_stat_t stat;
  uint64_t max_bytes = max_unpacked_bytes_;
  if (zip_stat_index(archive_.get(), static_cast<zip_uint64_t>(index), 0, &stat) == 0 &&
      (stat.valid & ZIP_STAT_SIZE) != 0) {
    max_bytes = std::min<uint64_t>(max_bytes, stat.size);
  }
  std::unique_ptr<zip_file_t, ZipFileDeleter> file(
      zip_fopen_index(archive_.get(), static_cast<zip_uint64_t>(index), 0));
  if (!file) {
    return Error(Errc::kCorrupt, fmt::format("{}: cannot open member {}: {}", path_, name,
                                             zip_strerror(archive_.get())));
  }
  return ZipMemberReader(std::move(file), fmt::format("{}: {}", path_, name), max_bytes);
}

Result<std::string> ZipArchive::ReadMember(std::string_view member, uint64_t max_bytes) const {
  QUARRY_ASSIGN_OR_RETURN(ZipMemberReader reader, OpenMember(member));
  reader.max_bytes_ = std::min(reader.max_bytes_, max_bytes);
  std::string data;
  char buffer[64 * 1024];
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const size_t got, reader.Read(buffer, sizeof buffer));
    if (got == 0) break;
    data.append(buffer, got);
  }
  return data;
}

Result<size_t> ZipMemberReader::Read(char* buffer, size_t size) {
  // One byte more than allowed is asked for, so a member that inflates past its limit shows.
  const uint64_t allowed = max_bytes_ - std::min(read_, max_bytes_);
  const uint64_t wanted = std::min<uint64_t>(size, allowed + 1);
  const zip_int64_t got = zip_fread(file_.get(), buffer, wanted);
  if (got < 0) {
    return Error(Errc::kCorrupt, fmt::format("{}: cannot inflate: {}", what_,
                                             zip_error_strerror(zip_file_get_error(file_.get()))));
  }
  read_ += static_cast<uint64_t>(got);
  if (read_ > max_bytes_) {
    return Error(Errc::kUnsupported,
                 fmt::format("{}: zip bomb refused: member inflates beyond {} bytes (its "
                             "declared size or the limit)",
                             what_, max_bytes_));
  }
  return static_cast<size_t>(got);
}

}  // namespace quarry::extract
