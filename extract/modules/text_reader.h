// Reading text files for extraction: a bounded prefix of the file (never the whole of a 100 MB
// one-line log), its encoding found (byte-order mark, then UTF-8 validity, then uchardet) and
// converted to UTF-8 with ICU. Shared by the text, HTML and playlist modules.
// Thread-safety: free functions without shared state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::extract {

struct FilePrefix {
  std::string bytes;         // the first bytes of the file, at most the requested budget
  bool is_complete = false;  // true when `bytes` is the whole file
};

// Reads at most `max_bytes` of the regular file `path`. Anything else (a FIFO, a device, a
// folder) is refused before reading, because opening a FIFO for reading could block forever.
Result<FilePrefix> ReadFilePrefix(const std::string& path, size_t max_bytes);

struct DecodedText {
  std::string utf8;          // at most the budget, cut on a code point boundary
  std::string charset;       // the source encoding as detected, e.g. "UTF-8", "WINDOWS-1252"
  bool is_complete = false;  // false when the file or the text was cut to the budget
};

// Detects the encoding of `bytes` and converts them to UTF-8, keeping at most `max_bytes`.
// `is_complete` says whether `bytes` is the whole file (a cut file may end inside a
// character). Binary data (NUL bytes outside UTF-16/32) is an error naming `what`.
Result<DecodedText> DecodeText(std::string_view bytes, bool is_complete, size_t max_bytes,
                               std::string_view what);

// ReadFilePrefix then DecodeText.
Result<DecodedText> ReadTextFile(const std::string& path, size_t max_bytes);

// Cuts `utf8` to at most `max_bytes` without splitting a code point.
void TruncateUtf8(std::string& utf8, size_t max_bytes);

struct TextCounts {
  int64_t lines = 0;       // "a\nb" and "a\nb\n" both have 2 lines; "" has 0
  int64_t words = 0;       // runs of non-whitespace
  int64_t characters = 0;  // Unicode code points
};
TextCounts CountText(std::string_view utf8);

}  // namespace quarry::extract
