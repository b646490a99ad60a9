// Reads PhotoFacts with Exiv2 (Exif, then XMP, then IPTC for each field). Exiv2 throws and
// logs to stderr; this file catches every throw and mutes its log, so nothing of Exiv2 leaks
// out of here.
// Thread-safety: call InitExiv2() once before any thread reads (Exiv2's XMP parser needs it).
#pragma once

#include <string>

#include "extract/modules/image_facts.h"
#include "store/common/result.h"

namespace quarry::extract {

void InitExiv2();

// Opens `path` (a regular file) with Exiv2 and fills `facts`. A file Exiv2 cannot read is
// an error naming the file and Exiv2's reason.
Result<void> ReadExiv2Facts(const std::string& path, PhotoFacts& facts);

}  // namespace quarry::extract
