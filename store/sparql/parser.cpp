// Parser core: token handling, error messages and the public entry points.
#include <fmt/format.h>

#include "store/sparql/diagnostics.h"
#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

Parser::Parser(std::string_view text, const ParseOptions& options)
    : source_(text),
      options_(options),
      lexer_(text),
      prefixes_(options.prefixes.begin(), options.prefixes.end()),
      base_(options.base_iri) {
  current_ = lexer_.Next();
}

const Token& Parser::PeekNext() {
  if (!has_next_) {
    next_ = current_.kind == TokenKind::kError ? current_ : lexer_.Next();
    has_next_ = true;
  }
  return next_;
}

void Parser::Advance() {
  if (current_.kind == TokenKind::kEnd || current_.kind == TokenKind::kError) return;
  previous_end_ = current_.end;
  if (has_next_) {
    current_ = next_;
    has_next_ = false;
  } else {
    current_ = lexer_.Next();
  }
}

bool Parser::Accept(TokenKind kind) {
  if (!At(kind)) return false;
  Advance();
  return true;
}

bool Parser::AcceptKeyword(Keyword keyword) {
  if (!AtKeyword(keyword)) return false;
  Advance();
  return true;
}

Result<void> Parser::Expect(TokenKind kind) {
  if (Accept(kind)) return Ok();
  return ErrorExpected(TokenKindName(kind));
}

Result<void> Parser::ExpectKeyword(Keyword keyword) {
  if (AcceptKeyword(keyword)) return Ok();
  return ErrorExpected(KeywordName(keyword));
}

std::string Parser::Describe(const Token& token) const {
  if (token.kind == TokenKind::kEnd) return "end of input";
  constexpr size_t kMaxShown = 40;
  std::string_view text = source_.substr(token.offset, token.end - token.offset);
  if (text.size() > kMaxShown) {
    size_t cut = kMaxShown;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return fmt::format("'{}...'", text.substr(0, cut));
  }
  return fmt::format("'{}'", text);
}

Error Parser::ErrorAt(size_t offset, std::string_view message) const {
  return MakeParseError(source_, offset, message);
}

Error Parser::ErrorExpected(std::string_view what) const {
  if (current_.kind == TokenKind::kError) return ErrorAt(current_.offset, lexer_.error_message());
  // At the end of input, point just past the last token rather than at trailing whitespace.
  const size_t offset = current_.kind == TokenKind::kEnd ? previous_end_ : current_.offset;
  return ErrorAt(offset, fmt::format("expected {} but found {}", what, Describe(current_)));
}

Result<void> Parser::CheckExtension(size_t offset, std::string_view what) const {
  if (!strict()) return Ok();
  return ErrorAt(offset, fmt::format("{} is a Tracker extension, not SPARQL 1.1", what));
}

Result<Query> ParseQuery(std::string_view text, const ParseOptions& options) {
  Parser parser(text, options);
  return parser.ParseQueryUnit();
}

Result<Update> ParseUpdate(std::string_view text, const ParseOptions& options) {
  Parser parser(text, options);
  return parser.ParseUpdateUnit();
}

}  // namespace quarry::sparql
