// Decoding of string, IRI and local-name token text, and the UTF-8 helpers (lexer.h).
#include <algorithm>

#include "store/sparql/char_class.h"
#include "store/sparql/lexer.h"

namespace quarry::sparql {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes \uXXXX or \UXXXXXXXX at text[pos] (pointing at the backslash). Returns the number of
// characters consumed, 0 on error.
size_t DecodeCodepointEscape(std::string_view text, size_t pos, std::string& out,
                             std::string& error) {
  const size_t digits = text[pos + 1] == 'u' ? 4 : 8;
  if (pos + 2 + digits > text.size()) {
    error = "incomplete \\u or \\U escape";
    return 0;
  }
  char32_t codepoint = 0;
  for (size_t i = 0; i < digits; ++i) {
    const int value = HexValue(text[pos + 2 + i]);
    if (value < 0) {
      error = "invalid hex digit in a \\u or \\U escape";
      return 0;
    }
    codepoint = codepoint * 16 + static_cast<char32_t>(value);
  }
  if ((codepoint >= 0xD800 && codepoint <= 0xDFFF) || codepoint > 0x10FFFF) {
    error = "escape denotes an invalid codepoint (surrogate or beyond U+10FFFF)";
    return 0;
  }
  AppendUtf8(codepoint, out);
  return 2 + digits;
}

// Appends text[pos, next backslash) to out in one append and returns the backslash's position,
// or appends the rest of text and returns npos when no backslash follows. The shared loop head
// of DecodeString and DecodeIri (issue 5: a per-byte push_back was ~7 % of the store's
// instructions for the extractor's updates, whose text content has "\n").
size_t AppendUntilBackslash(std::string_view text, size_t pos, std::string& out) {
  const size_t backslash = text.find('\\', pos);
  out.append(text.data() + pos, std::min(backslash, text.size()) - pos);
  return backslash;
}

}  // namespace

size_t DecodeUtf8(std::string_view text, size_t pos, char32_t& codepoint) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) {
    codepoint = lead;
    return 1;
  }
  size_t length = 0;
  char32_t value = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    value = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    value = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    value = lead & 0x07;
  } else {
    return 0;
  }
  if (pos + length > text.size()) return 0;
  for (size_t i = 1; i < length; ++i) {
    const unsigned char next = byte(pos + i);
    if ((next & 0xC0) != 0x80) return 0;
    value = (value << 6) | (next & 0x3F);
  }
  // Reject overlong forms, surrogates and values past U+10FFFF.
  constexpr char32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < kMinimum[length] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
    return 0;
  }
  codepoint = value;
  return length;
}

void AppendUtf8(char32_t codepoint, std::string& out) {
  if (codepoint < 0x80) {
    out += static_cast<char>(codepoint);
  } else if (codepoint < 0x800) {
    out += static_cast<char>(0xC0 | (codepoint >> 6));
    out += static_cast<char>(0x80 | (codepoint & 0x3F));
  } else if (codepoint < 0x10000) {
    out += static_cast<char>(0xE0 | (codepoint >> 12));
    out += static_cast<char>(0x80 | ((codepoint >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (codepoint & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (codepoint >> 18));
    out += static_cast<char>(0x80 | ((codepoint >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((codepoint >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (codepoint & 0x3F));
  }
}

// [160] ECHAR ::= '\' [tbnrf\"']  plus the codepoint escapes \u and \U.
bool DecodeString(std::string_view quoted, bool has_escape, std::string& out, std::string& error) {
  const bool is_long = quoted.size() >= 6 && quoted[1] == quoted[0] && quoted[2] == quoted[0];
  const size_t quote_length = is_long ? 3 : 1;
  const std::string_view body = quoted.substr(quote_length, quoted.size() - 2 * quote_length);
  if (!has_escape) {
    out.assign(body);
    return true;
  }
  out.clear();
  out.reserve(body.size());
  for (size_t i = AppendUntilBackslash(body, 0, out); i != std::string_view::npos;
       i = AppendUntilBackslash(body, i, out)) {
    const char escaped = i + 1 < body.size() ? body[i + 1] : '\0';
    switch (escaped) {
      case 't':
        out += '\t';
        break;
      case 'b':
        out += '\b';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'f':
        out += '\f';
        break;
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      case '\'':
        out += '\'';
        break;
      case 'u':
      case 'U': {
        const size_t used = DecodeCodepointEscape(body, i, out, error);
        if (used == 0) return false;
        i += used;
        continue;
      }
      default:
        error = std::string("invalid escape sequence '\\") + escaped + "' in a string";
        return false;
    }
    i += 2;
  }
  return true;
}

bool DecodeIri(std::string_view text, bool has_escape, std::string& out, std::string& error) {
  if (!has_escape) {
    out.assign(text);
    return true;
  }
  out.clear();
  for (size_t i = AppendUntilBackslash(text, 0, out); i != std::string_view::npos;
       i = AppendUntilBackslash(text, i, out)) {
    const size_t used = DecodeCodepointEscape(text, i, out, error);
    if (used == 0) return false;
    i += used;
  }
  return true;
}

void UnescapeLocalName(std::string_view local, std::string& out) {
  for (size_t i = 0; i < local.size(); ++i) {
    if (local[i] == '\\' && i + 1 < local.size()) ++i;
    out += local[i];
  }
}

}  // namespace quarry::sparql
