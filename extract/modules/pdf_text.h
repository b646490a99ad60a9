// The text of a PDF's pages through poppler-cpp's text output (no rendering), converted from
// poppler's UTF-16 straight into one UTF-8 string, so the text is copied once on its way to
// nie:plainTextContent. Long documents are split into two page ranges extracted by two
// threads, each with its own poppler::document (poppler objects are not shared across threads).
// Thread-safety: reentrant.
#pragma once

#include <poppler-document.h>

#include <cstddef>
#include <string>

#include "store/common/result.h"

namespace quarry::extract {

struct PdfTextOptions {
  size_t max_bytes = 1 << 20;  // the cap, cut on a UTF-8 code point boundary
  unsigned threads = 2;        // at most this many threads (1: the calling thread only)
};

// Text of every page of `document` (opened from `path`, which further threads reopen), pages
// separated by a form feed as pdftotext does. Fails only when a second opening fails.
Result<std::string> ExtractPdfText(const poppler::document& document, const std::string& path,
                                   const PdfTextOptions& options);

}  // namespace quarry::extract
