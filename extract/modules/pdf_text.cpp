#include "extract/modules/pdf_text.h"

#include <fmt/format.h>
#include <poppler-page.h>

#include <algorithm>
#include <memory>
#include <thread>

namespace quarry::extract {
namespace {

// Fewer pages than this are not worth a second thread and a second parse of the file.
constexpr int kMinPagesPerThread = 3;

// Appends UTF-16 `text` as UTF-8, stopping before `max_bytes` would be exceeded (never inside a
// code point). Returns false when the cap was reached. Unpaired surrogates become U+FFFD.
bool AppendUtf16AsUtf8(const poppler::ustring& text, size_t max_bytes, std::string& out) {
  const size_t length = text.size();
  for (size_t i = 0; i < length; ++i) {
    uint32_t code = text[i];
    if (code >= 0xD800 && code <= 0xDBFF && i + 1 < length && text[i + 1] >= 0xDC00 &&
        text[i + 1] <= 0xDFFF) {
      code = 0x10000 + ((code - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    } else if (code >= 0xD800 && code <= 0xDFFF) {
      code = 0xFFFD;
    }
    const size_t width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (out.size() + width > max_bytes) return false;
    if (width == 1) {
      out.push_back(static_cast<char>(code));
    } else if (width == 2) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (width == 3) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }
  return true;
}

// Pages [first, last) of `document` into `out`, each followed by a form feed. Returns false
// when the cap cut the text short.
bool AppendPages(const poppler::document& document, int first, int last, size_t max_bytes,
                 std::string& out) {
  for (int index = first; index < last; ++index) {
    const std::unique_ptr<poppler::page> page(document.create_page(index));
    if (!page) continue;  // a page poppler cannot build has no text; the others still count
    // Reading order without physical layout: pdftotext's default, and the cheapest mode.
    const poppler::ustring text =
        page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout);
    if (!AppendUtf16AsUtf8(text, max_bytes, out)) return false;
    if (out.size() + 1 > max_bytes) return false;
    out.push_back('\f');
  }
  return true;
}

}  // namespace

Result<std::string> ExtractPdfText(const poppler::document& document, const std::string& path,
                                   const PdfTextOptions& options) {
  const int pages = document.pages();
  std::string text;
  if (options.threads < 2 || pages < 2 * kMinPagesPerThread) {
    (void)AppendPages(document, 0, pages, options.max_bytes, text);
    return text;
  }
  // The second half runs on its own document: poppler::document is not safe to share.
  const std::unique_ptr<poppler::document> second(poppler::document::load_from_file(path));
  if (!second || second->pages() != pages) {
    return Error(Errc::kIo, fmt::format("{}: the PDF changed or vanished while being read", path));
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
