// The body text of an OpenDocument (content.xml) or OOXML (word/document.xml) document, read
// with libxml2's streaming reader straight from the zip member: memory stays flat however big
// the document, and reading stops once the text budget is full.
// Thread-safety: one thread per call.
#pragma once

#include <cstddef>
#include <string>

#include "extract/modules/zip_archive.h"
#include "store/common/result.h"

namespace quarry::extract {

enum class OfficeFormat { kOpenDocument, kOoxml };

struct BodyText {
  std::string text;
  bool is_complete = true;  // false when cut at the budget
};

Result<BodyText> ReadBodyText(const ZipArchive& archive, OfficeFormat format,
                              size_t max_text_bytes);

}  // namespace quarry::extract
