#include "store/client/contacts/vcard_lines.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace quarry::contacts {
namespace {

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A 3.0 line whose value is quoted-printable and ends in "=" has a soft line break.
bool HasSoftBreak(const std::string& logical) {
  if (logical.empty() || logical.back() != '=') return false;
  const size_t colon = logical.find(':');
  if (colon == std::string::npos) return false;
  return Upper(std::string_view(logical).substr(0, colon)).find("QUOTED-PRINTABLE") !=
         std::string::npos;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// One parameter value list after '=': comma-separated, each optionally double-quoted.
Result<std::vector<std::string>> ParseParamValues(std::string_view text) {
  std::vector<std::string> values;
  std::string current;
  bool quoted = false;
  for (const char c : text) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      values.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (quoted) return Error(Errc::kParse, "unterminated quoted parameter");
  values.push_back(std::move(current));
  return values;
}

}  // namespace

std::vector<std::string> ContentLine::Param(std::string_view wanted) const {
  std::vector<std::string> out;
  for (const auto& [name, values] : params) {
    if (name != wanted) continue;
    for (const auto& value : values) out.push_back(Lower(value));
  }
  return out;
}

std::vector<std::pair<int, std::string>> UnfoldLines(std::string_view text) {
  std::vector<std::pair<int, std::string>> lines;
  int number = 0;
  bool soft_break = false;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view physical = text.substr(start, end - start);
    if (!physical.empty() && physical.back() == '\r') physical.remove_suffix(1);
    start = end + 1;
    ++number;
    if (soft_break) {
      lines.back().second.pop_back();  // the '='
      lines.back().second += physical;
    } else if (!physical.empty() && (physical[0] == ' ' || physical[0] == '\t') &&
               !lines.empty()) {
      lines.back().second += physical.substr(1);
    } else if (!physical.empty()) {
      lines.emplace_back(number, std::string(physical));
    }
    soft_break = !lines.empty() && HasSoftBreak(lines.back().second);
  }
  return lines;
}

Result<ContentLine> ParseContentLine(std::string_view logical, int line) {
  // The value starts at the first ':' outside a quoted parameter value.
  size_t colon = std::string_view::npos;
  bool quoted = false;
  for (size_t i = 0; i < logical.size(); ++i) {
    if (logical[i] == '"') quoted = !quoted;
    if (logical[i] == ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon == std::string_view::npos) {
    return Error(Errc::kParse, fmt::format("no ':' in \"{}\"",
                                           logical.substr(0, std::min<size_t>(40, logical.size()))));
  }
  ContentLine result;
  result.line = line;
  result.value = std::string(logical.substr(colon + 1));
  std::vector<std::string_view> head;
  quoted = false;
  size_t piece = 0;
  for (size_t i = 0; i <= colon; ++i) {
    if (i < colon && logical[i] == '"') quoted = !quoted;
    if (i == colon || (logical[i] == ';' && !quoted)) {
      head.push_back(logical.substr(piece, i - piece));
      piece = i + 1;
    }
  }
  std::string_view name = head[0];
  if (const size_t dot = name.find('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
  if (name.empty()) return Error(Errc::kParse, "property without a name");
  result.name = Upper(name);
  for (size_t i = 1; i < head.size(); ++i) {
    const size_t equals = head[i].find('=');
    if (equals == std::string_view::npos) {  // vCard 2.1 bare type: ;WORK;PREF
      result.params.push_back({"TYPE", {std::string(head[i])}});
      continue;
    }
    QUARRY_ASSIGN_OR_RETURN(auto values, ParseParamValues(head[i].substr(equals + 1)));
    result.params.push_back({Upper(head[i].substr(0, equals)), std::move(values)});
  }
  const auto encoding = result.Param("ENCODING");
  if (!encoding.empty() && encoding[0] == "quoted-printable") {
    auto decoded = DecodeQuotedPrintable(result.value);
    if (!decoded) {
      return Error(Errc::kParse, fmt::format("{} {}", result.name,
                                             decoded.error().message()));
    }
    result.value = std::move(*decoded);
  }
  return result;
}

std::vector<std::string> SplitValue(std::string_view value, char separator) {
  std::vector<std::string> parts;
  std::string current;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == '\\' && i + 1 < value.size()) {
      const char next = value[++i];
      current += (next == 'n' || next == 'N') ? '\n' : next;
    } else if (c == separator) {
      parts.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(std::move(current));
  return parts;
}

std::string UnescapeText(std::string_view value) {
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size()) {
      const char next = value[++i];
      out += (next == 'n' || next == 'N') ? '\n' : next;
    } else {
      out += value[i];
    }
  }
  return out;
}

std::string EscapeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\' || c == ',' || c == ';') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c != '\r') {
      out += c;
    }
  }
  return out;
}

Result<std::string> DecodeQuotedPrintable(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') {
      out += text[i];
      continue;
    }
    const int high = i + 2 < text.size() ? HexValue(text[i + 1]) : -1;
    const int low = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
    if (high < 0 || low < 0) {
      return Error(Errc::kParse, fmt::format("bad quoted-printable escape at offset {}", i));
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

Result<std::string> DecodeBase64(std::string_view text) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    if (c == '=' || c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    const size_t index = kBase64Alphabet.find(c);
    if (index == std::string_view::npos) {
      return Error(Errc::kParse, fmt::format("'{}' is not a base64 character", c));
    }
    buffer = (buffer << 6) | static_cast<uint32_t>(index);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

std::string EncodeBase64(std::string_view bytes) {
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8) |
                       uint8_t(bytes[i + 2]);
    for (const int shift : {18, 12, 6, 0}) out += kBase64Alphabet[(n >> shift) & 63];
  }
  if (i + 1 == bytes.size()) {
    const uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const uint32_t n = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8);
    for (const int shift : {18, 12, 6}) out += kBase64Alphabet[(n >> shift) & 63];
    out += '=';
  }
  return out;
}

std::string FoldLine(std::string_view line) {
  constexpr size_t kMaxOctets = 75;
  std::string out;
  size_t width = 0;
  for (size_t i = 0; i < line.size();) {
    const auto lead = static_cast<unsigned char>(line[i]);
    const size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (width + length > kMaxOctets) {
      out += "\r\n ";
      width = 1;
    }
    out += line.substr(i, length);
    width += length;
    i += length;
  }
  out += "\r\n";
  return out;
}

}  // namespace quarry::contacts
