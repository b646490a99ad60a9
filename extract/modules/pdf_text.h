// The text of a PDF's pages through poppler-cpp's text output (no rendering), in content-stream
// order with hyphenated line ends joined (reading order for a page drawn out of order),
// converted from poppler's UTF-16 straight into one UTF-8 string, so the text is copied once on
// its way to nie:plainTextContent. Long documents are split into two page ranges extracted by two
// threads, each with its own poppler::document (poppler objects are not shared across threads).
// Thread-safety: reentrant.
#pragma once

#include <poppler-document.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::extract {

struct PdfTextOptions {
  size_t max_bytes = 1 << 20;  // the cap, cut on a UTF-8 code point boundary
  unsigned threads = 2;        // at most this many threads (1: the calling thread only)
};

// Where a document comes from: a file read into memory once (`bytes`, which must outlive every
// document opened from it: poppler parses it in place instead of pread-ing the file 100+ times
// in 256-byte pieces), or, for a file too large to hold, the path.
struct PdfSource {
  std::string path;
  std::string bytes;     // the whole file, or empty when `in_memory` is false
  bool in_memory = false;
  // A new poppler::document over the source; null when poppler cannot read it.
  std::unique_ptr<poppler::document> Open() const;
};

// Files up to this size are read into memory whole (text PDFs are mostly far smaller); larger
// ones are read by poppler from the file, which skips what text extraction does not need (the
// image streams of a scanned or photo-heavy PDF) and keeps the worker's memory bounded.
inline constexpr size_t kPdfInMemoryMaxBytes = 4u << 20;

// Reads `path` as a PdfSource. Errors: kNotFound/kIo when it cannot be opened or read, kCorrupt
// for an empty file.
Result<PdfSource> ReadPdfSource(const std::string& path,
                                size_t in_memory_max = kPdfInMemoryMaxBytes);

// poppler-cpp builds its global parameters (built-in font and Unicode tables, a scan of
// /usr/share/poppler) when the first document opens and frees them when the last one closes, so
// a worker opening one PDF after another rebuilt them for every file (~0.8 ms each). This keeps
// one tiny in-memory document open for the life of the process (never freed), which keeps them.
// Idempotent and thread-safe; returns whether the keeper document is open.
bool HoldPopplerGlobals();

// Text of every page of `document` (opened from `source`, which further threads reopen), pages
// separated by a form feed as pdftotext does. Fails only when a second opening fails.
Result<std::string> ExtractPdfText(const poppler::document& document, const PdfSource& source,
                                   const PdfTextOptions& options);

}  // namespace quarry::extract
