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

Result<FileResult> ExtractFile(const Registry& registry, std::string_view path,
                               const Limits& limits) {
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
  QUARRY_ASSIGN_OR_RETURN(std::string mime_type, DetectMimeType(fd.get(), path));
  const Module* module = registry.Find(mime_type, path);
  if (module == nullptr) {
    return Error(Errc::kUnsupported,
                 fmt::format("{}: no extractor for its type {}", path, mime_type));
  }
  QUARRY_ASSIGN_OR_RETURN(std::string absolute, AbsolutePath(path));
  FileResult result;
  result.file_url = FileUrl(absolute);
  result.element_iri = ElementIri(result.file_url);
  result.mime_type = std::move(mime_type);
  result.extraction.extractor = std::string(module->name());
  const FileInput input{absolute, result.mime_type};
  if (auto extracted = module->Extract(input, limits, result.extraction); !extracted) {
    return std::move(extracted.error()).WithContext(fmt::format("extractor {}", module->name()));
  }
  return result;
}

}  // namespace quarry::extract
