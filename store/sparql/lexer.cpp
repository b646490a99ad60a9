#include "store/sparql/lexer.h"

#include <array>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "store/sparql/char_class.h"

namespace quarry::sparql {

namespace {

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The characters LexString must look at in a string opened by `quote`: a backslash, the quote,
// and in a short string the line breaks it may not hold. Every other byte is skipped (issue 5:
// the extractor's plain-text content is most of the bytes the store lexes; stopping at the
// other quote and, in a long string, at each line break cost an apostrophe- or line-dense text
// a scalar step per stop).
bool IsStringStop(char c, char quote, bool is_long) {
  return c == '\\' || c == quote || (!is_long && (c == '\n' || c == '\r'));
}

// The characters LexIriOrLess must look at: those IRIREF excludes ([^<>"{}|^`\]-[#x00-#x20]),
// '>' that ends it and '\\' that starts an escape.
constexpr std::array<bool, 256> kIriStops = [] {
  std::array<bool, 256> stops{};
  for (unsigned c = 0; c <= 0x20; ++c) stops[c] = true;
  for (const unsigned char c : {'<', '>', '"', '{', '}', '|', '^', '`', '\\'}) stops[c] = true;
  return stops;
}();

// Skips 16 bytes at a time while none of them is a stop (IsStringStop; SSE2, part of x86-64):
// the text content of a file is most of an extractor update's bytes. Returns where the
// byte-wise scan must continue (at a stop, or within 16 bytes of the end).
size_t SkipStringBytes(std::string_view source, size_t i, char quote, bool is_long) {
#if defined(__SSE2__)
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i quotes = _mm_set1_epi8(quote);
  // A long string's line breaks are content: compared as backslashes, they stop nothing new.
  const __m128i line_feed = _mm_set1_epi8(is_long ? '\\' : '\n');
  const __m128i carriage_return = _mm_set1_epi8(is_long ? '\\' : '\r');
  while (i + 16 <= source.size()) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(source.data() + i));
    const __m128i stops = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, backslash), _mm_cmpeq_epi8(bytes, quotes)),
        _mm_or_si128(_mm_cmpeq_epi8(bytes, line_feed), _mm_cmpeq_epi8(bytes, carriage_return)));
    const int mask = _mm_movemask_epi8(stops);
    if (mask != 0) return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)));
    i += 16;
  }
#else
  (void)quote;
  (void)is_long;
#endif
  return i;
}

}  // namespace

Token Lexer::Make(TokenKind kind, size_t start, size_t end) {
  Token token;
  token.kind = kind;
  token.offset = start;
  token.text = source_.substr(start, end - start);
  pos_ = end;
  return token;
}

Token Lexer::Fail(size_t offset, std::string message) {
  error_message_ = std::move(message);
  Token token;
  token.kind = TokenKind::kError;
  token.offset = offset;
  // Stay at the error: every later Next() reports end of input, the parser stops anyway.
  pos_ = source_.size();
  return token;
}

void Lexer::SkipWhitespaceAndComments() {
  const size_t size = source_.size();
  while (pos_ < size) {
    const char c = source_[pos_];
    if (IsWhitespace(c)) {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < size && source_[pos_] != '\n' && source_[pos_] != '\r') ++pos_;
    } else {
      return;
    }
  }
}

Token Lexer::NextToken() {
  SkipWhitespaceAndComments();
  const size_t start = pos_;
  if (start >= source_.size()) return Make(TokenKind::kEnd, start, start);
  const char c = source_[start];
  const char next = start + 1 < source_.size() ? source_[start + 1] : '\0';
  switch (c) {
    case '<':
      return LexIriOrLess(start);
    case '"':
    case '\'':
      return LexString(start);
    case '?':
      if (start + 1 < source_.size() && IsVarNameStartAt(source_, start + 1)) {
        return LexVariable(start, TokenKind::kVar);
      }
      return Make(TokenKind::kQuestion, start, start + 1);
    case '$':
      return LexVariable(start, TokenKind::kVar);
    case '~':
      return LexVariable(start, TokenKind::kParameter);
    case '@':
      return LexLangTag(start);
    case '_':
      if (next == ':') return LexBlankNodeLabel(start);
      return Fail(start, "unexpected character '_'");
    case '+':
    case '-':
      if (IsDigit(next) ||
          (next == '.' && start + 2 < source_.size() && IsDigit(source_[start + 2]))) {
        return LexNumber(start);
      }
      return LexPunctuation(start);
    case '.':
      if (IsDigit(next)) return LexNumber(start);
      return Make(TokenKind::kDot, start, start + 1);
    case ':':
      return LexPrefixedName(start, start);
    default:
      break;
  }
  if (IsDigit(c)) return LexNumber(start);
  if (IsAsciiLetter(c) || static_cast<unsigned char>(c) >= 0x80) {
    return LexWordOrPrefixedName(start);
  }
  return LexPunctuation(start);
}

// [139] IRIREF ::= '<' ([^<>"{}|^`\]-[#x00-#x20])* '>'
// When the characters after '<' cannot form an IRIREF, '<' is the less-than operator.
Token Lexer::LexIriOrLess(size_t start) {
  bool has_escape = false;
  for (size_t i = start + 1; i < source_.size(); ++i) {
    while (i < source_.size() && !kIriStops[static_cast<unsigned char>(source_[i])]) ++i;
    if (i >= source_.size()) break;
    const unsigned char c = static_cast<unsigned char>(source_[i]);
    if (c == '>') {
      Token token = Make(TokenKind::kIriRef, start + 1, i);
      token.offset = start;
      token.has_escape = has_escape;
      pos_ = i + 1;
      return token;
    }
    if (c == '\\') {
      // Only codepoint escapes may appear in an IRI; they are decoded by DecodeIri().
      if (i + 1 < source_.size() && (source_[i + 1] == 'u' || source_[i + 1] == 'U')) {
        has_escape = true;
        continue;
      }
      break;
    }
    if (c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' ||
        c == '`') {
      break;
    }
  }
  if (start + 1 < source_.size() && source_[start + 1] == '=') {
    return Make(TokenKind::kLessEq, start, start + 2);
  }
  return Make(TokenKind::kLess, start, start + 1);
}

// [156] STRING_LITERAL1 ::= "'" ( ([^#x27#x5C#xA#xD]) | ECHAR )* "'"   (and LITERAL2 with '"')
// [158] STRING_LITERAL_LONG1 ::= "'''" ( ( "'" | "''" )? ( [^'\] | ECHAR ) )* "'''"
Token Lexer::LexString(size_t start) {
  const char quote = source_[start];
  const size_t size = source_.size();
  const bool is_long =
      start + 2 < size && source_[start + 1] == quote && source_[start + 2] == quote;
  size_t i = start + (is_long ? 3 : 1);
  bool has_escape = false;
  while (i < size) {
    i = SkipStringBytes(source_, i, quote, is_long);
    while (i < size && !IsStringStop(source_[i], quote, is_long)) ++i;
    if (i >= size) break;
    const char c = source_[i];
    if (c == '\\') {
      if (i + 1 >= size) break;
      has_escape = true;
      i += 2;
      continue;
    }
    if (c == quote) {
      if (!is_long) {
        Token token = Make(TokenKind::kString, start, i + 1);
        token.has_escape = has_escape;
        return token;
      }
      if (i + 2 < size && source_[i + 1] == quote && source_[i + 2] == quote) {
        // The first unescaped triple quote ends it: the content cannot end with a quote.
        Token token = Make(TokenKind::kString, start, i + 3);
        token.has_escape = has_escape;
        return token;
      }
    } else if (!is_long && (c == '\n' || c == '\r')) {
      return Fail(start, "line break inside a short string (use \"\"\" or \\n)");
    }
    ++i;
  }
  return Fail(start, "unterminated string");
}

// [146] INTEGER ::= [0-9]+   [147] DECIMAL ::= [0-9]* '.' [0-9]+
// [148] DOUBLE ::= [0-9]+ '.' [0-9]* EXPONENT | '.' ([0-9])+ EXPONENT | ([0-9])+ EXPONENT
// [149..154] the same with a leading '+' or '-'.
Token Lexer::LexNumber(size_t start) {
  const size_t size = source_.size();
  size_t i = start;
  if (source_[i] == '+' || source_[i] == '-') ++i;
  while (i < size && IsDigit(source_[i])) ++i;
  const size_t integer_end = i;
  const bool has_integer_digits = integer_end > start && IsDigit(source_[integer_end - 1]);
  TokenKind kind = TokenKind::kInteger;
  if (i < size && source_[i] == '.') {
    size_t j = i + 1;
    while (j < size && IsDigit(source_[j])) ++j;
    const bool has_fraction = j > i + 1;
    const bool has_exponent = j < size && (source_[j] == 'e' || source_[j] == 'E');
    if (has_fraction || (has_exponent && has_integer_digits)) {
      i = j;
      kind = TokenKind::kDecimal;
    }
    // Otherwise "1." is the integer 1 followed by the '.' that ends a triple.
  }
  if (i < size && (source_[i] == 'e' || source_[i] == 'E')) {
    size_t j = i + 1;
    if (j < size && (source_[j] == '+' || source_[j] == '-')) ++j;
    const size_t digits_start = j;
    while (j < size && IsDigit(source_[j])) ++j;
    if (j == digits_start) return Fail(i, "missing digits in the exponent of a number");
    i = j;
    kind = TokenKind::kDouble;
  }
  return Make(kind, start, i);
}

// [143] VAR1 ::= '?' VARNAME   [144] VAR2 ::= '$' VARNAME   Tracker: '~' VARNAME
// [166] VARNAME ::= ( PN_CHARS_U | [0-9] ) ( PN_CHARS_U | [0-9] | #x00B7 | [#x0300-#x036F]
//                   | [#x203F-#x2040] )*
Token Lexer::LexVariable(size_t start, TokenKind kind) {
  size_t i = start + 1;
  if (i >= source_.size() || !IsVarNameStartAt(source_, i)) {
    return Fail(start, std::string("expected a name after '") + source_[start] + "'");
  }
  while (i < source_.size()) {
    const size_t length = VarNameCharLengthAt(source_, i);
    if (length == 0) break;
    i += length;
  }
  Token token = Make(kind, start + 1, i);
  token.offset = start;
  return token;
}

// [142] BLANK_NODE_LABEL ::= '_:' ( PN_CHARS_U | [0-9] ) ((PN_CHARS|'.')* PN_CHARS)?
Token Lexer::LexBlankNodeLabel(size_t start) {
  size_t i = start + 2;
  char32_t cp = 0;
  const size_t first = i < source_.size() ? DecodeUtf8(source_, i, cp) : 0;
  if (first == 0 || !(IsPnCharsU(cp) || (cp >= '0' && cp <= '9'))) {
    return Fail(start, "expected a blank node label after '_:'");
  }
  i += first;
  size_t last_good = i;
  while (i < source_.size()) {
    const size_t length = DecodeUtf8(source_, i, cp);
    if (length == 0) break;
    if (IsPnChars(cp)) {
      i += length;
      last_good = i;
    } else if (cp == '.') {
      i += length;
    } else {
      break;
    }
  }
  Token token = Make(TokenKind::kBlankNodeLabel, start + 2, last_good);
  token.offset = start;
  return token;
}

// [145] LANGTAG ::= '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*
Token Lexer::LexLangTag(size_t start) {
  size_t i = start + 1;
  while (i < source_.size() && IsAsciiLetter(source_[i])) ++i;
  if (i == start + 1) return Fail(start, "expected a language tag after '@'");
  while (i + 1 < source_.size() && source_[i] == '-' && IsAsciiAlnum(source_[i + 1])) {
    ++i;
    while (i < source_.size() && IsAsciiAlnum(source_[i])) ++i;
  }
  Token token = Make(TokenKind::kLangTag, start + 1, i);
  token.offset = start;
  return token;
}

// A keyword (letters, digits, '_') unless followed by ':', which makes it a PNAME:
// [140] PNAME_NS ::= PN_PREFIX? ':'   [167] PN_PREFIX ::= PN_CHARS_BASE ((PN_CHARS|'.')* PN_CHARS)?
Token Lexer::LexWordOrPrefixedName(size_t start) {
  size_t i = start;
  char32_t cp = 0;
  size_t length = DecodeUtf8(source_, i, cp);
  if (length == 0) return Fail(start, "invalid UTF-8");
  if (!IsPnCharsBase(cp)) return Fail(start, "unexpected character");
  i += length;
  while (i < source_.size()) {
    const unsigned char byte = static_cast<unsigned char>(source_[i]);
    if (byte < 0x80) {  // ASCII without decoding (most words and prefixes)
      if (!kAsciiPnChars[byte] && byte != '.') break;
      ++i;
      continue;
    }
    length = DecodeUtf8(source_, i, cp);
    if (length == 0 || !(IsPnChars(cp) || cp == '.')) break;
    i += length;
  }
  if (i < source_.size() && source_[i] == ':') {
    if (source_[i - 1] == '.') return Fail(i - 1, "a prefix name may not end with '.'");
    return LexPrefixedName(start, i);
  }
  size_t end = start;
  while (end < source_.size() && (IsAsciiAlnum(source_[end]) || source_[end] == '_')) ++end;
  if (end == start) return Fail(start, "unexpected character");
  Token token = Make(TokenKind::kWord, start, end);
  LookupWord(token.text, token.keyword, token.builtin);
  return token;
}

// [141] PNAME_LN ::= PNAME_NS PN_LOCAL; `colon` is the position of the ':'.
Token Lexer::LexPrefixedName(size_t start, size_t colon) {
  pos_ = colon + 1;
  const size_t local_start = pos_;
  if (!ScanLocalName()) return Fail(pos_, error_message_);
  if (pos_ == local_start) return Make(TokenKind::kPnameNs, start, pos_);
  bool has_escape = false;
  for (size_t i = local_start; i < pos_; ++i) {
    if (source_[i] == '\\') has_escape = true;
  }
  Token token = Make(TokenKind::kPnameLn, start, pos_);
  token.has_escape = has_escape;
  return token;
}

// [169] PN_LOCAL ::= (PN_CHARS_U | ':' | [0-9] | PLX ) ((PN_CHARS | '.' | ':' | PLX)*
//                    (PN_CHARS | ':' | PLX) )?
// [170] PLX ::= PERCENT | PN_LOCAL_ESC
bool Lexer::ScanLocalName() {
  size_t i = pos_;
  size_t last_good = pos_;
  bool first = true;
  while (i < source_.size()) {
    const char c = source_[i];
    if (c == '%') {
      if (i + 2 >= source_.size() || !IsHexDigit(source_[i + 1]) || !IsHexDigit(source_[i + 2])) {
        pos_ = i;
        error_message_ = "'%' in a local name must be followed by two hex digits";
        return false;
      }
      i += 3;
      last_good = i;
    } else if (c == '\\') {
      if (i + 1 >= source_.size() || !IsLocalEscapeChar(source_[i + 1])) {
        pos_ = i;
        error_message_ = "invalid escape in a local name";
        return false;
      }
      i += 2;
      last_good = i;
    } else if (c == '.' && !first) {
      ++i;
    } else if (!first && IsAsciiPnChars(static_cast<unsigned char>(c))) {
      // The common case: a run of ASCII name characters, without decoding.
      ++i;
      while (i < source_.size() && IsAsciiPnChars(static_cast<unsigned char>(source_[i]))) ++i;
      last_good = i;
    } else {
      char32_t cp = 0;
      const size_t length = DecodeUtf8(source_, i, cp);
      if (length == 0) break;
      const bool ok = first ? (IsPnCharsU(cp) || cp == ':' || (cp >= '0' && cp <= '9'))
                            : (IsPnChars(cp) || cp == ':');
      if (!ok) break;
      i += length;
      last_good = i;
    }
    first = false;
  }
  pos_ = last_good;
  return true;
}

Token Lexer::LexPunctuation(size_t start) {
  const char c = source_[start];
  const char next = start + 1 < source_.size() ? source_[start + 1] : '\0';
  auto single = [&](TokenKind kind) { return Make(kind, start, start + 1); };
  auto pair = [&](TokenKind kind) { return Make(kind, start, start + 2); };
  switch (c) {
    case '{':
      return single(TokenKind::kLBrace);
    case '}':
      return single(TokenKind::kRBrace);
    case ')':
      return single(TokenKind::kRParen);
    case ']':
      return single(TokenKind::kRBracket);
    case '(':
    case '[': {
      // [161] NIL ::= '(' WS* ')'   [163] ANON ::= '[' WS* ']'
      const char close = c == '(' ? ')' : ']';
      pos_ = start + 1;
      SkipWhitespaceAndComments();
      if (pos_ < source_.size() && source_[pos_] == close) {
        return Make(c == '(' ? TokenKind::kNil : TokenKind::kAnon, start, pos_ + 1);
      }
      return single(c == '(' ? TokenKind::kLParen : TokenKind::kLBracket);
    }
    case ',':
      return single(TokenKind::kComma);
    case ';':
      return single(TokenKind::kSemicolon);
    case '*':
      return single(TokenKind::kStar);
    case '/':
      return single(TokenKind::kSlash);
    case '+':
      return single(TokenKind::kPlus);
    case '-':
      return single(TokenKind::kMinus);
    case '=':
      return single(TokenKind::kEq);
    case '^':
      return next == '^' ? pair(TokenKind::kCaretCaret) : single(TokenKind::kCaret);
    case '!':
      return next == '=' ? pair(TokenKind::kNotEq) : single(TokenKind::kBang);
    case '>':
      return next == '=' ? pair(TokenKind::kGreaterEq) : single(TokenKind::kGreater);
    case '|':
      return next == '|' ? pair(TokenKind::kOrOr) : single(TokenKind::kPipe);
    case '&':
      if (next == '&') return pair(TokenKind::kAndAnd);
      break;
    case '\\':
      return Fail(start, "codepoint escapes are only supported inside strings and IRIs");
    default:
      break;
  }
  return Fail(start, std::string("unexpected character '") + c + "'");
}

}  // namespace quarry::sparql
