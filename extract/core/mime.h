// MIME type of a file: libmagic reads the content; the extension breaks ties when libmagic can
// only say application/octet-stream, text/plain, application/zip or "empty" (a Markdown file
// is text/plain to libmagic, a .docx is a zip). Content wins over a lying extension: a PDF
// named .mp3 is application/pdf.
// Fast path first: a file whose extension names a format with a fixed signature (.pdf, .flac,
// .png, .jpg, .mp3 with an ID3v2 tag) and whose first bytes carry it gets that type without
// libmagic. So does a text format (.txt, .md, .markdown, .csv, .json; .html/.htm opening
// with <!DOCTYPE html or <html) whose first
// kMimeHeadBytes are clean UTF-8 text not starting like markup, a script, PDF/PostScript, RTF,
// a mail, troff or TeX (and, for .txt/.md, not like JSON): libmagic would end at the
// extension's type too, after ~1.4 ms of text rules; a .txt that libmagic would call text/csv,
// or a .md it would call text/x-c for a `#include` deeper in, keeps the extension's type.
// Anything else (no signature, another one, an empty file) goes to libmagic.
// Thread-safety: any thread (each thread keeps its own libmagic handle).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::extract {

// The MIME type of the open regular file `fd` named `path` (used for the extension and in
// errors). Never empty on success.
Result<std::string> DetectMimeType(int fd, std::string_view path);

// DetectMimeType without the signature fast path: libmagic always reads the file (tests check
// both agree).
Result<std::string> DetectMimeTypeWithLibmagic(int fd, std::string_view path);

// How many first bytes DetectMimeType reads for SniffMimeType.
inline constexpr size_t kMimeHeadBytes = 4096;

// The type the first bytes `head` confirm for a lower-case extension ("pdf" + "%PDF-" →
// "application/pdf", "md" + clean text → "text/markdown"), or "" when the fast path cannot
// tell. `truncated`: the file goes on after `head` (a UTF-8 sequence cut at its end is fine).
std::string_view SniffMimeType(std::string_view lower_extension, std::string_view head,
                               bool truncated = false);

// Loads libmagic now (it is otherwise loaded with dlopen by the first file the signature check
// cannot decide); the quarry-extract worker does, before its seccomp filter.
Result<void> LoadMimeDetection();

// The MIME type an extension stands for ("md" → "text/markdown"), or "" when unknown.
std::string_view MimeTypeForExtension(std::string_view lower_extension);

// The lower-case extension of the last path segment, without the dot; "" for none or a
// dot file (".bashrc").
std::string LowerExtension(std::string_view path);

// A type libmagic gives when it cannot tell (octet-stream, text/plain, zip, empty): the file's
// extension may then decide.
bool IsGenericMime(std::string_view mime_type);

}  // namespace quarry::extract
