// File URLs and element IRIs (no ICU here: DeterministicIri's case folding is in iri_fold.cpp,
// linked only where modules run, so the extractor's executables do not load ICU).
#include "extract/core/iri.h"

#include <string>

namespace quarry::extract {
namespace {

bool IsUnreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// `keep` lists the reserved characters left as they are.
void AppendPercentEncoded(std::string_view bytes, std::string_view keep, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || keep.find(ch) != std::string_view::npos) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
}

}  // namespace

void AppendIriEncoded(std::string_view bytes, std::string_view keep, std::string& out) {
  AppendPercentEncoded(bytes, keep, out);
}

std::string FileUrl(std::string_view absolute_path) {
  std::string url = "file://";
  url.reserve(url.size() + absolute_path.size());
  // GLib's g_filename_to_uri() set, as miner-fs/file_uri.h: the extractor and the miner (and
  // every GNOME application) spell one file's URL the same, so nie:url lookups meet.
  AppendPercentEncoded(absolute_path, "!$&'()*+,;=:@/", url);
  return url;
}

std::optional<std::string> FileUrlToPath(std::string_view url) {
  constexpr std::string_view kScheme = "file://";
  if (!url.starts_with(kScheme)) return std::nullopt;
  url.remove_prefix(kScheme.size());
  if (url.empty() || url.front() != '/') return std::nullopt;
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string path;
  path.reserve(url.size());
  for (size_t i = 0; i < url.size(); ++i) {
    if (url[i] != '%') {
      path.push_back(url[i]);
      continue;
    }
    const int high = i + 1 < url.size() ? hex(url[i + 1]) : -1;
    const int low = i + 2 < url.size() ? hex(url[i + 2]) : -1;
    if (high < 0 || low < 0) return std::nullopt;
    path.push_back(static_cast<char>(high << 4 | low));
    i += 2;
  }
  // A NUL byte cannot be in a path: refuse it rather than open a truncated name.
  if (path.find('\0') != std::string::npos) return std::nullopt;
  return path;
}

std::string ElementIri(std::string_view file_url) {
  std::string iri = "urn:quarry:ie:";
  iri.append(file_url);
  return iri;
}

}  // namespace quarry::extract
