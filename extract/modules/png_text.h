// The text chunks of a PNG file (tEXt, uncompressed iTXt): Title, Author, Description,
// Copyright, Creation Time … Exiv2 0.27 shows only the description of these, so the image
// module reads them itself. Reads at most the first MiB of the file; chunks after the image
// data are ignored (writers put text first).
// Thread-safety: pure function; any thread.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "store/common/result.h"

namespace quarry::extract {

struct PngTextChunk {
  std::string keyword;  // as written ("Title"); Latin-1 keywords are converted to UTF-8
  std::string text;     // UTF-8
};

// The text chunks of the PNG at `path`, in file order. A file that is not a PNG is an error;
// a chunk cut short or with an implausible length ends the scan without failing.
Result<std::vector<PngTextChunk>> ReadPngText(const std::string& path);

}  // namespace quarry::extract
