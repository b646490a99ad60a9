// libmagic behind one RAII handle per thread: magic_load() costs about a millisecond, too much
// to repeat for each of thousands of files, and a magic_t must not be shared across threads.
#include "extract/core/mime.h"

#include <fmt/format.h>
#include <magic.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace quarry::extract {
namespace {

struct MagicCloser {
  void operator()(magic_t handle) const noexcept { magic_close(handle); }
};
using MagicHandle = std::unique_ptr<std::remove_pointer_t<magic_t>, MagicCloser>;

Result<magic_t> ThreadMagic() {
  thread_local MagicHandle handle;
  if (handle) return handle.get();
  MagicHandle opened(magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR));
  if (!opened) return Error(Errc::kInternal, "libmagic: magic_open failed");
  if (magic_load(opened.get(), nullptr) != 0) {
    return Error(Errc::kNotFound,
                 fmt::format("libmagic: cannot load its database: {}", magic_error(opened.get())));
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

}  // namespace

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
  QUARRY_ASSIGN_OR_RETURN(magic_t magic, ThreadMagic());
  // magic_descriptor() reads from the current offset and moves it; start at 0 and put it back.
  if (lseek(fd, 0, SEEK_SET) < 0) {
    return Error(Errc::kIo, fmt::format("{}: cannot seek: not a regular file", path));
  }
  const char* detected = magic_descriptor(magic, fd);
  const off_t rewound = lseek(fd, 0, SEEK_SET);
  if (detected == nullptr || rewound < 0) {
    const char* reason = magic_error(magic);
    return Error(Errc::kIo, fmt::format("{}: cannot read its type: {}", path,
                                        reason ? reason : "unknown libmagic error"));
  }
  std::string mime_type(detected);
  // libmagic names an empty file application/x-empty through a descriptor and inode/x-empty
  // through a path; keep the shared-mime-info name.
  if (mime_type == "application/x-empty") mime_type = "inode/x-empty";
  if (IsGenericMime(mime_type)) {
    const std::string_view by_extension = MimeTypeForExtension(LowerExtension(path));
    if (ExtensionRefines(mime_type, by_extension)) mime_type = by_extension;
  }
  return mime_type;
}

}  // namespace quarry::extract
