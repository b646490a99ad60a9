#include "extract/modules/png_text.h"

#include <cstdint>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "extract/modules/text_reader.h"

namespace quarry::extract {
namespace {

constexpr size_t kScanBytes = 1 << 20;
constexpr std::string_view kSignature = "\x89PNG\r\n\x1a\n";

uint32_t BigEndian32(std::string_view bytes) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

std::string Latin1ToUtf8(std::string_view latin1) {
  std::string utf8;
  utf8.reserve(latin1.size());
  for (const char c : latin1) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      utf8.push_back(c);
    } else {
      utf8.push_back(static_cast<char>(0xC0 | (byte >> 6)));
      utf8.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
    }
  }
  return utf8;
}

// tEXt: keyword NUL text (Latin-1).
std::optional<PngTextChunk> ParseText(std::string_view data) {
  const size_t nul = data.find('\0');
  if (nul == std::string_view::npos) return std::nullopt;
  return PngTextChunk{Latin1ToUtf8(data.substr(0, nul)), Latin1ToUtf8(data.substr(nul + 1))};
}

// iTXt: keyword NUL compressed-flag method language NUL translated-keyword NUL text (UTF-8).
std::optional<PngTextChunk> ParseInternationalText(std::string_view data) {
  const size_t nul = data.find('\0');
  if (nul == std::string_view::npos || nul + 3 > data.size()) return std::nullopt;
  if (data[nul + 1] != 0) return std::nullopt;  // compressed: not worth a zlib dependency
  const size_t language_end = data.find('\0', nul + 3);
  if (language_end == std::string_view::npos) return std::nullopt;
  const size_t translated_end = data.find('\0', language_end + 1);
  if (translated_end == std::string_view::npos) return std::nullopt;
  const std::string_view text = data.substr(translated_end + 1);
  auto decoded = DecodeText(text, true, text.size(), "PNG iTXt");
  if (!decoded) return std::nullopt;
  return PngTextChunk{Latin1ToUtf8(data.substr(0, nul)), std::move(decoded->utf8)};
}

}  // namespace

Result<std::vector<PngTextChunk>> ReadPngText(const std::string& path) {
  const Result<FilePrefix> prefix = ReadFilePrefix(path, kScanBytes);
  if (!prefix.ok()) return prefix.error();
  std::string_view bytes = prefix->bytes;
  if (!bytes.starts_with(kSignature)) {
    return Error(Errc::kInvalidArgument, fmt::format("{}: not a PNG file", path));
  }
  bytes.remove_prefix(kSignature.size());
  std::vector<PngTextChunk> chunks;
  // Each chunk: length (4), type (4), data (length), CRC (4).
  while (bytes.size() >= 12) {
    const uint32_t length = BigEndian32(bytes);
    const std::string_view type = bytes.substr(4, 4);
    if (type == "IDAT" || type == "IEND" || length > bytes.size() - 12) break;
    const std::string_view data = bytes.substr(8, length);
    std::optional<PngTextChunk> chunk;
    if (type == "tEXt") chunk = ParseText(data);
    if (type == "iTXt") chunk = ParseInternationalText(data);
    if (chunk) chunks.push_back(std::move(*chunk));
    bytes.remove_prefix(12 + static_cast<size_t>(length));
  }
  return chunks;
}

}  // namespace quarry::extract
