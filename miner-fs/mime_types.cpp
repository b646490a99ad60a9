#include "miner-fs/mime_types.h"

#include <magic.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace quarry::miner {
namespace {

struct ExtensionType {
  std::string_view extension;
  std::string_view mime_type;
};

// Sorted by extension for binary search.
constexpr std::array kTypes = std::to_array<ExtensionType>({
    {"7z", "application/x-7z-compressed"}, {"aac", "audio/aac"}, {"avi", "video/x-msvideo"},
    {"bmp", "image/bmp"}, {"c", "text/x-csrc"}, {"cc", "text/x-c++src"},
    {"cpp", "text/x-c++src"}, {"css", "text/css"}, {"csv", "text/csv"},
    {"doc", "application/msword"},
    {"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
    {"epub", "application/epub+zip"}, {"flac", "audio/flac"}, {"gif", "image/gif"},
    {"go", "text/x-go"}, {"gz", "application/gzip"}, {"h", "text/x-chdr"},
    {"heic", "image/heic"}, {"hpp", "text/x-c++hdr"}, {"htm", "text/html"},
    {"html", "text/html"}, {"ics", "text/calendar"}, {"java", "text/x-java"},
    {"jpeg", "image/jpeg"}, {"jpg", "image/jpeg"}, {"js", "text/javascript"},
    {"json", "application/json"}, {"m4a", "audio/mp4"}, {"md", "text/markdown"},
    {"mkv", "video/x-matroska"}, {"mov", "video/quicktime"}, {"mp3", "audio/mpeg"},
    {"mp4", "video/mp4"}, {"odp", "application/vnd.oasis.opendocument.presentation"},
    {"ods", "application/vnd.oasis.opendocument.spreadsheet"},
    {"odt", "application/vnd.oasis.opendocument.text"}, {"oga", "audio/ogg"},
    {"ogg", "audio/ogg"}, {"ogv", "video/ogg"}, {"opus", "audio/ogg"},
    {"pdf", "application/pdf"}, {"png", "image/png"},
    {"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
    {"py", "text/x-python"}, {"rs", "text/rust"}, {"rtf", "application/rtf"},
    {"sh", "application/x-shellscript"}, {"svg", "image/svg+xml"}, {"tar", "application/x-tar"},
    {"tif", "image/tiff"}, {"tiff", "image/tiff"}, {"txt", "text/plain"},
    {"vcf", "text/vcard"}, {"wav", "audio/x-wav"}, {"webm", "video/webm"},
    {"webp", "image/webp"}, {"xls", "application/vnd.ms-excel"},
    {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
    {"xml", "application/xml"}, {"zip", "application/zip"},
});

static_assert(std::is_sorted(kTypes.begin(), kTypes.end(),
                             [](const ExtensionType& a, const ExtensionType& b) {
                               return a.extension < b.extension;
                             }));

}  // namespace

std::optional<std::string_view> GuessMimeType(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || name.size() - dot > 6) return std::nullopt;
  std::string extension(name.substr(dot + 1));
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto found = std::lower_bound(
      kTypes.begin(), kTypes.end(), extension,
      [](const ExtensionType& entry, const std::string& key) { return entry.extension < key; });
  if (found == kTypes.end() || found->extension != extension) return std::nullopt;
  return found->mime_type;
}

void MimeDetector::MagicCloser::operator()(magic_set* cookie) const noexcept { magic_close(cookie); }

MimeDetector::MimeDetector() : magic_(magic_open(MAGIC_MIME_TYPE | MAGIC_NO_CHECK_COMPRESS)) {
  // Without its database libmagic is useless; the extension table still answers.
  if (magic_ && magic_load(magic_.get(), nullptr) != 0) magic_.reset();
}

MimeDetector::~MimeDetector() = default;

std::string MimeDetector::Detect(std::string_view name, std::string_view folder) {
  if (const auto by_extension = GuessMimeType(name)) return std::string(*by_extension);
  if (magic_) {
    std::string path(folder);
    path += '/';
    path += name;
    if (const char* type = magic_file(magic_.get(), path.c_str())) return type;
  }
  return "application/octet-stream";
}

}  // namespace quarry::miner
