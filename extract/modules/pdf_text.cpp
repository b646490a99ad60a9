#include "extract/modules/pdf_text.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poppler-page.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>

#include "extract/modules/pdf_keeper.h"
#include "store/common/unique_fd.h"

namespace quarry::extract {
namespace {

// Fewer pages than this are not worth a second thread and a second parse of the file.
constexpr int kMinPagesPerThread = 3;

// Content-stream ("raw") order whose lines hold fewer words than this on average, over at least
// kMinRawLinesJudged lines, is glyphs drawn out of reading order (right to left, rotated, one
// by one): such a page is taken again in reading order. Prose has 8+ words a line (gen-corpus
// pages 10.9; LaTeX documents' pages at least 3 but for a TOC or a table now and then).
constexpr size_t kMinWordsPerRawLine = 3;
constexpr size_t kMinRawLinesJudged = 4;

// What ends a word in poppler's page text.
bool IsSpace(uint32_t unit) { return unit == ' ' || unit == '\n' || unit == '\f'; }

// Raw order writes one space between the words of a line and one line break after each line, so
// words = spaces + lines: one branch-free pass (a word scan branching on every unit was 1 % of a
// PDF's instructions).
bool IsFragmented(const poppler::ustring& text) {
  size_t lines = 0;
  size_t spaces = 0;
  for (const auto unit : text) {
    lines += unit == u'\n' ? 1 : 0;
    spaces += unit == u' ' ? 1 : 0;
  }
  return lines >= kMinRawLinesJudged && spaces + lines < kMinWordsPerRawLine * lines;
}

// Appends UTF-16 `text` as UTF-8, stopping before `max_bytes` would be exceeded (never inside a
// code point). Returns false when the cap was reached. Unpaired surrogates become U+FFFD. With
// `join_hyphens`, a line ending in '-' is joined to the next one without the hyphen, as
// poppler's reading order does ("exam-\nple" -> "example"), except on the page's last line
// (followed by nothing, a blank line or a page break).
// Written through a pointer into room made once (at most 3 bytes per UTF-16 unit: a pair of
// surrogates is 2 units and 4 bytes), not one push_back per byte.
bool AppendUtf16AsUtf8(const poppler::ustring& text, bool join_hyphens, size_t max_bytes,
                       std::string& out) {
  const size_t length = text.size();
  const size_t start = out.size();
  const size_t room = max_bytes > start ? max_bytes - start : 0;
  out.resize(start + std::min(room, length * 3));
  char* const begin = out.data() + start;
  char* const limit = out.data() + out.size();
  char* cursor = begin;
  bool complete = true;
  for (size_t i = 0; i < length; ++i) {
    uint32_t code = text[i];
    if (code < 0x80) {  // most text: one byte, no surrogate or width to work out
      if (code == '-' && join_hyphens && i + 2 < length && text[i + 1] == '\n' &&
          !IsSpace(text[i + 2])) {
        ++i;  // the hyphen and the line break go; the next line's first word continues this one
        continue;
      }
      if (cursor == limit) {
        complete = false;
        break;
      }
      *cursor++ = static_cast<char>(code);
      continue;
    }
    if (code >= 0xD800 && code <= 0xDBFF && i + 1 < length && text[i + 1] >= 0xDC00 &&
        text[i + 1] <= 0xDFFF) {
      code = 0x10000 + ((code - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    } else if (code >= 0xD800 && code <= 0xDFFF) {
      code = 0xFFFD;
    }
    const ptrdiff_t width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (limit - cursor < width) {
      complete = false;
      break;
    }
    if (width == 1) {
      *cursor++ = static_cast<char>(code);
    } else if (width == 2) {
      *cursor++ = static_cast<char>(0xC0 | (code >> 6));
      *cursor++ = static_cast<char>(0x80 | (code & 0x3F));
    } else if (width == 3) {
      *cursor++ = static_cast<char>(0xE0 | (code >> 12));
      *cursor++ = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *cursor++ = static_cast<char>(0x80 | (code & 0x3F));
    } else {
      *cursor++ = static_cast<char>(0xF0 | (code >> 18));
      *cursor++ = static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      *cursor++ = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *cursor++ = static_cast<char>(0x80 | (code & 0x3F));
    }
  }
  out.resize(start + static_cast<size_t>(cursor - begin));
  return complete;
}

// Pages [first, last) of `document` into `out`, each followed by a form feed. Returns false
// when the cap cut the text short.
bool AppendPages(const poppler::document& document, int first, int last, size_t max_bytes,
                 std::string& out) {
  for (int index = first; index < last; ++index) {
    const std::unique_ptr<poppler::page> page(document.create_page(index));
    if (!page) continue;  // a page poppler cannot build has no text; the others still count
    // Content-stream order: what generators write in reading order, without poppler's block
    // and column analysis (TextPage::coalesce, ~10 % of a PDF's instructions; issue 5). A page
    // whose stream is not in reading order is taken again with that analysis.
    poppler::ustring text = page->text(poppler::rectf(), poppler::page::raw_order_layout);
    const bool is_raw = !IsFragmented(text);
    if (!is_raw) text = page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout);
    if (!AppendUtf16AsUtf8(text, is_raw, max_bytes, out)) return false;
    if (out.size() + 1 > max_bytes) return false;
    out.push_back('\f');
  }
  return true;
}

}  // namespace

std::unique_ptr<poppler::document> PdfSource::Open() const {
  if (!in_memory) {
    return std::unique_ptr<poppler::document>(poppler::document::load_from_file(path));
  }
  return std::unique_ptr<poppler::document>(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
}

Result<PdfSource> ReadPdfSource(const std::string& path, size_t in_memory_max) {
  const UniqueFd fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    const int open_errno = errno;
    return Error(open_errno == ENOENT ? Errc::kNotFound : Errc::kIo,
                 fmt::format("{}: cannot open: {}", path, std::strerror(open_errno)));
  }
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) {
    return Error(Errc::kIo, fmt::format("{}: cannot stat: {}", path, std::strerror(errno)));
  }
  if (info.st_size == 0) {
    return Error(Errc::kCorrupt, fmt::format("{}: empty file, not a PDF", path));
  }
  PdfSource source;
  source.path = path;
  const auto size = static_cast<size_t>(info.st_size);
  // load_from_raw_data takes an int length: the cap keeps far below INT_MAX.
  if (size > std::min(in_memory_max, kPdfInMemoryMaxBytes)) return source;
  source.bytes.resize(size);
  size_t done = 0;
  while (done < size) {
    const ssize_t got = pread(fd.get(), source.bytes.data() + done, size - done,
                              static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return Error(Errc::kIo, fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    }
    if (got == 0) break;  // shrank while read: parse what is there, as poppler would
    done += static_cast<size_t>(got);
  }
  source.bytes.resize(done);
  source.in_memory = true;
  return source;
}

bool HoldPopplerGlobals() {
  static const bool held = [] {
    // Deliberately never freed: it pins poppler's global parameters until exit.
    static const poppler::document* const keeper =
        poppler::document::load_from_raw_data(kKeeperPdf.data(),
                                              static_cast<int>(kKeeperPdf.size()));
    return keeper != nullptr;
  }();
  return held;
}

Result<std::string> ExtractPdfText(const poppler::document& document, const PdfSource& source,
                                   const PdfTextOptions& options) {
  const int pages = document.pages();
  std::string text;
  if (options.threads < 2 || pages < 2 * kMinPagesPerThread) {
    (void)AppendPages(document, 0, pages, options.max_bytes, text);
    return text;
  }
  // The second half runs on its own document: poppler::document is not safe to share.
  const std::unique_ptr<poppler::document> second = source.Open();
  if (!second || second->pages() != pages) {
    return Error(Errc::kIo,
                 fmt::format("{}: the PDF changed or vanished while being read", source.path));
  }
  const int middle = pages / 2;
  std::string tail;
  bool head_complete = false;
  {
    std::jthread worker(
        [&] { (void)AppendPages(*second, middle, pages, options.max_bytes, tail); });
    head_complete = AppendPages(document, 0, middle, options.max_bytes, text);
  }
  // The head decides how much of the tail fits; cut the tail on a code point boundary.
  if (head_complete) {
    size_t room = std::min(options.max_bytes - text.size(), tail.size());
    while (room > 0 && room < tail.size() &&
           (static_cast<unsigned char>(tail[room]) & 0xC0) == 0x80) {
      --room;
    }
    text.append(tail, 0, room);
  }
  return text;
}

}  // namespace quarry::extract
