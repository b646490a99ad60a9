// MIME types at crawl time (issue 5), with shared-mime-info's names as GIO gives them
// (extract/core/mime.h): the file name decides when one best glob matches, so most files cost
// no read; a name without a glob, or with conflicting globs (.ogg, .json), costs a libmagic
// look at the first bytes. The extractor types files with the same function, so the miner's
// nie:mimeType and the extractor's agree.
// Thread-safety: a MimeDetector may be used from any thread (libmagic handles are per thread).
#pragma once

#include <string>
#include <string_view>

namespace quarry::miner {

// By name alone: the type when one best glob decides, else "".
std::string_view GuessMimeType(std::string_view name);

class MimeDetector {
 public:
  // The type of the file folder/name: by name, else by content (the path is only built
  // then), else the name's first glob, else application/octet-stream.
  std::string Detect(std::string_view name, std::string_view folder);
};

}  // namespace quarry::miner
