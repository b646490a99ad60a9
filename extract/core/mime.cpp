// libmagic behind one RAII handle per thread: magic_load() costs about a millisecond, too much
// to repeat for each of thousands of files, and a magic_t must not be shared across threads.
// Before it, a signature check: when the extension names a format with an unmistakable
// signature at offset 0 and the first bytes carry it, that is the answer, without libmagic
// (loading its 8 MB database and the first query cost ~3 ms of a one-shot process). libmagic
// itself (and its libbz2) is loaded with dlopen on first use, so such a process never maps it.
// Text formats whose first 4 KiB are clean text are typed by extension too (SniffTextType):
// libmagic's text rules cost ~1.4 ms a file and would end at the same type.
#include "extract/core/mime.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <magic.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "extract/core/dl_symbol.h"

namespace quarry::extract {
namespace {

// libmagic's soname has been libmagic.so.1 since file 4.x.
constexpr char kLibmagic[] = "libmagic.so.1";

struct Libmagic {
  decltype(&magic_open) open = nullptr;
  decltype(&magic_load) load = nullptr;
  decltype(&magic_descriptor) descriptor = nullptr;
  decltype(&magic_error) error = nullptr;
  decltype(&magic_close) close = nullptr;
  std::string load_error;  // why it could not be loaded; empty when loaded
};

const Libmagic& LoadLibmagic() {
  static const Libmagic libmagic = [] {
    Libmagic loaded;
    void* library = dlopen(kLibmagic, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* reason = dlerror();
      loaded.load_error = fmt::format("libmagic: cannot load {}: {}", kLibmagic,
                                      reason ? reason : "dlopen failed");
      return loaded;
    }
    BindSymbol(library, "magic_open", loaded.open);
    BindSymbol(library, "magic_load", loaded.load);
    BindSymbol(library, "magic_descriptor", loaded.descriptor);
    BindSymbol(library, "magic_error", loaded.error);
    BindSymbol(library, "magic_close", loaded.close);
    if (!loaded.open || !loaded.load || !loaded.descriptor || !loaded.error || !loaded.close) {
      loaded.load_error = fmt::format("libmagic: {} lacks the magic_* functions", kLibmagic);
    }
    return loaded;
  }();
  return libmagic;
}

struct MagicCloser {
  void operator()(magic_t handle) const noexcept { LoadLibmagic().close(handle); }
};
using MagicHandle = std::unique_ptr<std::remove_pointer_t<magic_t>, MagicCloser>;

Result<magic_t> ThreadMagic() {
  thread_local MagicHandle handle;
  if (handle) return handle.get();
  const Libmagic& libmagic = LoadLibmagic();
  if (!libmagic.load_error.empty()) return Error(Errc::kUnsupported, libmagic.load_error);
  MagicHandle opened(libmagic.open(MAGIC_MIME_TYPE | MAGIC_ERROR));
  if (!opened) return Error(Errc::kInternal, "libmagic: magic_open failed");
  if (libmagic.load(opened.get(), nullptr) != 0) {
    return Error(Errc::kNotFound, fmt::format("libmagic: cannot load its database: {}",
                                              libmagic.error(opened.get())));
  }
  handle = std::move(opened);
  return handle.get();
}

struct ExtensionMime {
  std::string_view extension;
  std::string_view mime_type;
};
constexpr ExtensionMime kExtensionMimes[] = {
    {"pdf", "application/pdf"},
    {"mp3", "audio/mpeg"},
    {"flac", "audio/flac"},
    {"ogg", "audio/ogg"},
    {"oga", "audio/ogg"},
    {"opus", "audio/ogg"},
    {"m4a", "audio/mp4"},
    {"wav", "audio/x-wav"},
    {"jpg", "image/jpeg"},
    {"jpeg", "image/jpeg"},
    {"png", "image/png"},
    {"txt", "text/plain"},
    {"md", "text/markdown"},
    {"markdown", "text/markdown"},
    {"html", "text/html"},
    {"htm", "text/html"},
    {"csv", "text/csv"},
    {"json", "application/json"},
    {"xml", "application/xml"},
    {"odt", "application/vnd.oasis.opendocument.text"},
    {"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
    {"m3u", "audio/x-mpegurl"},
    {"m3u8", "audio/x-mpegurl"},
    {"pls", "audio/x-scpls"},
};

// Whether the extension may make libmagic's vague answer precise: text stays text (Markdown,
// CSV, playlists), a zip only becomes an office document, unknown bytes take the extension.
// An empty file keeps inode/x-empty (the registry still picks a module by extension).
bool ExtensionRefines(std::string_view detected, std::string_view by_extension) {
  if (by_extension.empty()) return false;
  if (detected == "application/octet-stream") return true;
  if (detected == "application/zip") return by_extension.substr(0, 16) == "application/vnd.";
  if (detected == "text/plain") {
    return by_extension.substr(0, 5) == "text/" || by_extension == "application/json" ||
           by_extension == "application/xml" || by_extension.substr(0, 8) == "audio/x-";
  }
  return false;
}

// Extensions whose format starts with a fixed signature, and the type libmagic gives such a
// file (tests/extract/core_test.cpp checks both agree on the whole corpus, hostile set included).
struct Signature {
  std::string_view extension;
  std::string_view magic;
  std::string_view mime_type;
};
constexpr Signature kSignatures[] = {
    {"pdf", "%PDF-", "application/pdf"},
    {"flac", "fLaC", "audio/flac"},
    {"png", "\x89PNG\r\n\x1a\n", "image/png"},
    {"jpg", "\xff\xd8\xff", "image/jpeg"},
    {"jpeg", "\xff\xd8\xff", "image/jpeg"},
    {"mp3", "ID3", "audio/mpeg"},
};

// Text formats the extension decides when the content is clean text. libmagic's answer for
// such a file is text/plain, octet-stream (a NUL or control byte after the bytes it checks for
// encoding) or the format itself (text/csv, application/json), all of which end as the
// extension's type, unless libmagic recognises something specific (HTML, XML, a script, PDF):
// a head starting like that goes to libmagic. libmagic runs its text rules (regular
// expressions over the first 8 KiB) on every text file: ~1.4 ms a .txt or .md, the largest
// part of a worker's CPU per file on a mixed tree (bench/index/README.md "after indexcpu").
// HTML only when the page opens with <!DOCTYPE html or <html (case-insensitive).
struct TextFormat {
  std::string_view extension;
  std::string_view mime_type;
};
constexpr TextFormat kTextFormats[] = {
    {"txt", "text/plain"},       {"md", "text/markdown"}, {"markdown", "text/markdown"},
    {"csv", "text/csv"},         {"json", "application/json"},
    {"html", "text/html"},       {"htm", "text/html"},
};
// Starts (after blanks and a UTF-8 byte order mark) that libmagic may turn into a specific
// type: markup, a #! script, PostScript/PDF, RTF, a mail, troff, TeX.
constexpr std::string_view kSpecificStarts[] = {"<", "#!", "%", "{\\rtf", "From ", "Received:",
                                                "Return-Path:", ".\\\"", "\\"};

// Whether `head` is UTF-8 text without NUL or control bytes (tab, newline, carriage return,
// form feed and escape allowed). `truncated`: `head` stops inside the file, so a multi-byte
// sequence cut at its end is fine.
bool IsCleanText(std::string_view head, bool truncated) {
  size_t i = 0;
  while (i < head.size()) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) return false;
      if (c == 0x7f) return false;
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned min = 0;
    if ((c & 0xe0) == 0xc0) { length = 2; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { length = 3; min = 0x800; }
    else if ((c & 0xf8) == 0xf0) { length = 4; min = 0x10000; }
    else return false;
    if (i + length > head.size()) return truncated;
    unsigned code = c & (0x7fu >> length);
    for (size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(head[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3fu);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += length;
  }
  return true;
}

std::string_view SniffTextType(std::string_view lower_extension, std::string_view head,
                               bool truncated) {
  std::string_view mime_type;
  for (const TextFormat& format : kTextFormats) {
    if (format.extension == lower_extension) mime_type = format.mime_type;
  }
  if (mime_type.empty() || head.empty() || !IsCleanText(head, truncated)) return {};
  std::string_view start = head;
  if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);
  while (!start.empty() && (start.front() == ' ' || start.front() == '\t' ||
                            start.front() == '\n' || start.front() == '\r' || start.front() == '\f')) {
    start.remove_prefix(1);
  }
  if (start.empty()) return {};  // only blanks: libmagic's call
  if (mime_type == "text/html") {
    // HTML is markup: only a page that opens as one (libmagic's text/html rules) is sniffed.
    const auto opens_with = [&](std::string_view tag) {
      return start.size() >= tag.size() &&
             std::equal(tag.begin(), tag.end(), start.begin(), [](char a, char b) {
               return a == std::tolower(static_cast<unsigned char>(b));
             });
    };
    return opens_with("<!doctype html") || opens_with("<html") ? mime_type : std::string_view();
  }
  for (std::string_view specific : kSpecificStarts) {
    if (start.starts_with(specific)) return {};
  }
  // JSON in a .txt or .md is application/json to libmagic; a .json stays JSON either way.
  if (mime_type != "application/json" && (start.front() == '{' || start.front() == '[')) return {};
  return mime_type;
}

Result<std::string> LibmagicType(int fd, std::string_view path) {
  QUARRY_ASSIGN_OR_RETURN(magic_t magic, ThreadMagic());
  // magic_descriptor() reads from the current offset and moves it; start at 0 and put it back.
  if (lseek(fd, 0, SEEK_SET) < 0) {
    return Error(Errc::kIo, fmt::format("{}: cannot seek: not a regular file", path));
  }
  const Libmagic& libmagic = LoadLibmagic();
  const char* detected = libmagic.descriptor(magic, fd);
  const off_t rewound = lseek(fd, 0, SEEK_SET);
  if (detected == nullptr || rewound < 0) {
    const char* reason = libmagic.error(magic);
    return Error(Errc::kIo, fmt::format("{}: cannot read its type: {}", path,
                                        reason ? reason : "unknown libmagic error"));
  }
  std::string mime_type(detected);
  // libmagic names an empty file application/x-empty through a descriptor and inode/x-empty
  // through a path; keep the shared-mime-info name.
  if (mime_type == "application/x-empty") mime_type = "inode/x-empty";
  return mime_type;
}

}  // namespace

Result<void> LoadMimeDetection() {
  const Libmagic& libmagic = LoadLibmagic();
  if (!libmagic.load_error.empty()) return Error(Errc::kUnsupported, libmagic.load_error);
  return {};
}

std::string_view SniffMimeType(std::string_view lower_extension, std::string_view head,
                               bool truncated) {
  for (const Signature& signature : kSignatures) {
    if (signature.extension == lower_extension && head.starts_with(signature.magic)) {
      return signature.mime_type;
    }
  }
  return SniffTextType(lower_extension, head, truncated);
}

std::string LowerExtension(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  std::string extension(base.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

bool IsGenericMime(std::string_view mime_type) {
  return mime_type == "application/octet-stream" || mime_type == "text/plain" ||
         mime_type == "application/zip" || mime_type == "inode/x-empty";
}


std::string_view MimeTypeForExtension(std::string_view lower_extension) {
  for (const ExtensionMime& entry : kExtensionMimes) {
    if (entry.extension == lower_extension) return entry.mime_type;
  }
  return {};
}

Result<std::string> DetectMimeType(int fd, std::string_view path) {
  const std::string extension = LowerExtension(path);
  char head[kMimeHeadBytes];
  const ssize_t got = pread(fd, head, sizeof head, 0);
  if (got > 0) {
    const std::string_view sniffed =
        SniffMimeType(extension, std::string_view(head, static_cast<size_t>(got)),
                      static_cast<size_t>(got) == sizeof head);
    if (!sniffed.empty()) return std::string(sniffed);
  }
  QUARRY_ASSIGN_OR_RETURN(std::string mime_type, LibmagicType(fd, path));
  if (IsGenericMime(mime_type)) {
    const std::string_view by_extension = MimeTypeForExtension(extension);
    if (ExtensionRefines(mime_type, by_extension)) mime_type = by_extension;
  }
  return mime_type;
}

Result<std::string> DetectMimeTypeWithLibmagic(int fd, std::string_view path) {
  QUARRY_ASSIGN_OR_RETURN(std::string mime_type, LibmagicType(fd, path));
  if (IsGenericMime(mime_type)) {
    const std::string_view by_extension = MimeTypeForExtension(LowerExtension(path));
    if (ExtensionRefines(mime_type, by_extension)) mime_type = by_extension;
  }
  return mime_type;
}

}  // namespace quarry::extract
