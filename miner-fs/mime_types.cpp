#include "miner-fs/mime_types.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "extract/core/mime.h"
#include "store/common/unique_fd.h"

namespace quarry::miner {

std::string_view GuessMimeType(std::string_view name) { return extract::MimeTypeFromName(name); }

std::string MimeDetector::Detect(std::string_view name, std::string_view folder) {
  if (const std::string_view by_name = GuessMimeType(name); !by_name.empty()) {
    return std::string(by_name);
  }
  std::string path(folder);
  path += '/';
  path += name;
  // O_NONBLOCK: a FIFO must not wait for a writer.
  const UniqueFd fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  struct stat info {};
  if (fd.get() >= 0 && fstat(fd.get(), &info) == 0 && S_ISREG(info.st_mode)) {
    if (auto detected = extract::DetectMimeType(fd.get(), path)) return std::move(*detected);
  }
  const auto candidates = extract::MimeInfo().MatchName(name);
  return candidates.empty() ? "application/octet-stream" : std::string(candidates.front());
}

}  // namespace quarry::miner
