// Deterministic IRIs: case folding and NFC with ICU, then percent-encoding, so the key is a
// valid IRI whatever the tag said and two spellings of one name meet.
#include "extract/core/iri.h"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

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

// Case-folded NFC form of a UTF-8 string (invalid bytes become U+FFFD, as ICU reads them).
std::string FoldedKey(std::string_view part) {
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(part.data(), static_cast<int32_t>(part.size())));
  text.foldCase();
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  std::string key;
  if (U_SUCCESS(status)) {
    const icu::UnicodeString normalized = nfc->normalize(text, status);
    if (U_SUCCESS(status)) return normalized.toUTF8String(key);
  }
  // ICU's NFC data ships with libicu; without it the folded text is still a stable key.
  return text.toUTF8String(key);
}

}  // namespace

std::string DeterministicIri(std::string_view kind,
                             std::initializer_list<std::string_view> identifying_parts) {
  std::string iri = "urn:quarry:";
  iri.append(kind);
  iri.push_back(':');
  bool first = true;
  // Parts are percent-encoded without keeping '/', so the '/' separators are unambiguous.
  for (const std::string_view part : identifying_parts) {
    if (!first) iri.push_back('/');
    first = false;
    AppendPercentEncoded(FoldedKey(part), /*keep=*/"", iri);
  }
  return iri;
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
