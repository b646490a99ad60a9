// Character classes of the SPARQL 1.1 terminals ([164]-[173]) for the lexer.
// ASCII is tested inline; other codepoints go through the ranges of PN_CHARS_BASE.
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "store/sparql/lexer.h"

namespace quarry::sparql {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool IsAsciiAlnum(char c) { return IsDigit(c) || IsAsciiLetter(c); }
inline bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// [164] PN_CHARS_BASE
constexpr bool IsPnCharsBase(char32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  return (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) ||
         (c >= 0x370 && c <= 0x37D) || (c >= 0x37F && c <= 0x1FFF) ||
         (c >= 0x200C && c <= 0x200D) || (c >= 0x2070 && c <= 0x218F) ||
         (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) ||
         (c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0xEFFFF);
}

// [165] PN_CHARS_U ::= PN_CHARS_BASE | '_'
constexpr bool IsPnCharsU(char32_t c) { return c == '_' || IsPnCharsBase(c); }

// The tail characters VARNAME and PN_CHARS share besides PN_CHARS_U and digits.
constexpr bool IsNameExtender(char32_t c) {
  return c == 0xB7 || (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

// [168] PN_CHARS ::= PN_CHARS_U | '-' | [0-9] | #x00B7 | [#x0300-#x036F] | [#x203F-#x2040]
constexpr bool IsPnChars(char32_t c) {
  return IsPnCharsU(c) || c == '-' || (c >= '0' && c <= '9') || IsNameExtender(c);
}

// ASCII bytes that are PN_CHARS, for the lexer's fast paths (a byte >= 0x80 starts a multi-byte
// character and goes through DecodeUtf8 and IsPnChars).
inline constexpr std::array<bool, 128> kAsciiPnChars = [] {
  std::array<bool, 128> table{};
  for (char32_t c = 0; c < 128; ++c) table[c] = IsPnChars(c);
  return table;
}();
inline bool IsAsciiPnChars(unsigned char c) { return c < 0x80 && kAsciiPnChars[c]; }

// [173] PN_LOCAL_ESC: the characters that may follow '\' in a local name.
inline bool IsLocalEscapeChar(char c) {
  constexpr std::string_view kAllowed = "_~.-!$&'()*+,;=/?#@%";
  return kAllowed.find(c) != std::string_view::npos;
}

// VARNAME's first character at text[pos].
inline bool IsVarNameStartAt(std::string_view text, size_t pos) {
  char32_t cp = 0;
  const size_t length = DecodeUtf8(text, pos, cp);
  return length != 0 && (IsPnCharsU(cp) || (cp >= '0' && cp <= '9'));
}

// Length in bytes of the VARNAME continuation character at text[pos], 0 when there is none.
inline size_t VarNameCharLengthAt(std::string_view text, size_t pos) {
  char32_t cp = 0;
  const size_t length = DecodeUtf8(text, pos, cp);
  if (length == 0) return 0;
  return IsPnCharsU(cp) || (cp >= '0' && cp <= '9') || IsNameExtender(cp) ? length : 0;
}

}  // namespace quarry::sparql
