#include "extract/core/pipeline.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "extract/core/iri.h"
#include "extract/core/mime.h"
#include "store/common/unique_fd.h"

namespace quarry::extract {
namespace {

Result<std::string> AbsolutePath(std::string_view path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(std::string(path), error);
  if (error) {
    return Error(Errc::kIo,
                 fmt::format("{}: cannot make the path absolute: {}", path, error.message()));
  }
  return absolute.lexically_normal().string();
}

}  // namespace

Result<PreparedFile> PrepareFile(const Registry& registry, std::string_view path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  const UniqueFd fd(open(std::string(path).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    const int open_errno = errno;
    return Error(open_errno == ENOENT ? Errc::kNotFound : Errc::kIo,
                 fmt::format("{}: cannot open: {}", path, std::strerror(open_errno)));
  }
  struct stat info {};
  if (fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return Error(Errc::kUnsupported, fmt::format("{}: not a regular file", path));
  }
  PreparedFile prepared;
  QUARRY_ASSIGN_OR_RETURN(prepared.mime_type, DetectMimeType(fd.get(), path));
  prepared.module = registry.Find(prepared.mime_type, path);
  if (prepared.module == nullptr) {
    return Error(Errc::kUnsupported,
                 fmt::format("{}: no extractor for its type {}", path, prepared.mime_type));
  }
  QUARRY_ASSIGN_OR_RETURN(prepared.absolute_path, AbsolutePath(path));
  return prepared;
}

Result<FileResult> ExtractPrepared(const PreparedFile& file, const Limits& limits) {
  FileResult result;
  result.file_url = FileUrl(file.absolute_path);
  result.element_iri = ElementIri(result.file_url);
  result.mime_type = file.mime_type;
  result.extraction.extractor = std::string(file.module->name());
  const FileInput input{file.absolute_path, result.mime_type};
  if (auto extracted = file.module->Extract(input, limits, result.extraction); !extracted) {
    return std::move(extracted.error()).WithContext(fmt::format("extractor {}", file.module->name()));
  }
  return result;
}

Result<FileResult> ExtractFile(const Registry& registry, std::string_view path,
                               const Limits& limits) {
  QUARRY_ASSIGN_OR_RETURN(const PreparedFile prepared, PrepareFile(registry, path));
  return ExtractPrepared(prepared, limits);
}

}  // namespace quarry::extract
