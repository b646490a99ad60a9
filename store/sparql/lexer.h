// The SPARQL 1.1 lexer: turns a query string into Tokens on demand.
//
// Works over a std::string_view that must outlive the lexer and its tokens; no allocation per
// token (only an error message on failure). Tokenization follows the W3C terminals with
// longest match, e.g. "<a>" is an IRI but "< a" is '<', and "+1" is a signed integer.
// Codepoint escapes (\u, \U) are accepted inside strings and IRIs, where they are decoded by
// DecodeString()/DecodeIri(); elsewhere they are an error (the W3C tests only require them
// there, and rejecting them elsewhere keeps "\u005cU0031"-style double unescaping impossible).
// Thread-safety: one lexer per thread.
#pragma once

#include <string>
#include <string_view>

#include "store/sparql/token.h"

namespace quarry::sparql {

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  // The next token; kEnd at the end of input (repeatedly), kError on a lexical error.
  Token Next() {
    Token token = NextToken();
    token.end = pos_;
    return token;
  }

  // For kError tokens: what was wrong (e.g. "unterminated string").
  const std::string& error_message() const { return error_message_; }
  std::string_view source() const { return source_; }

 private:
  Token NextToken();
  Token Make(TokenKind kind, size_t start, size_t end);
  Token Fail(size_t offset, std::string message);
  void SkipWhitespaceAndComments();
  Token LexIriOrLess(size_t start);
  Token LexString(size_t start);
  Token LexNumber(size_t start);
  Token LexVariable(size_t start, TokenKind kind);
  Token LexBlankNodeLabel(size_t start);
  Token LexLangTag(size_t start);
  Token LexWordOrPrefixedName(size_t start);
  Token LexPrefixedName(size_t start, size_t colon);
  Token LexPunctuation(size_t start);
  // Scans a PN_LOCAL starting at pos_; returns false with an error set on a bad escape.
  bool ScanLocalName();

  std::string_view source_;
  size_t pos_ = 0;
  std::string error_message_;
};

// Decodes a kString token's text (with quotes) into `out`: ECHAR and \u \U escapes. Returns
// false with `error` set for an invalid escape or a surrogate codepoint.
bool DecodeString(std::string_view quoted, bool has_escape, std::string& out, std::string& error);
// Decodes a kIriRef token's text (\u \U escapes only).
bool DecodeIri(std::string_view text, bool has_escape, std::string& out, std::string& error);
// Removes PN_LOCAL_ESC backslashes from a prefixed name's local part ("a\.b" -> "a.b").
void UnescapeLocalName(std::string_view local, std::string& out);

// UTF-8 helpers shared by the lexer and diagnostics.
// Decodes one codepoint at text[pos]; returns its byte length (0 when malformed).
size_t DecodeUtf8(std::string_view text, size_t pos, char32_t& codepoint);
void AppendUtf8(char32_t codepoint, std::string& out);

}  // namespace quarry::sparql
