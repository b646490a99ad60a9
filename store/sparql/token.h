// Tokens of the SPARQL 1.1 grammar (https://www.w3.org/TR/sparql11-query/#terminals).
//
// A Token borrows its text from the source string (std::string_view); nothing is decoded or
// copied while lexing. Keywords are classified once by the lexer so the parser compares enums.
// Thread-safety: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace quarry::sparql {

enum class TokenKind : uint8_t {
  kEnd,             // end of input
  kError,           // a lexical error; Lexer::error_message() says which
  kIriRef,          // <...>; text excludes the angle brackets
  kPnameNs,         // prefix: (text includes the colon)
  kPnameLn,         // prefix:local (raw, local escapes not yet removed)
  kBlankNodeLabel,  // _:label; text is the label without "_:"
  kVar,             // ?name or $name; text is the name
  kParameter,       // ~name (Tracker extension); text is the name
  kLangTag,         // @en-GB; text excludes '@'
  kInteger,         // [+-]?[0-9]+ (sign included in text)
  kDecimal,         // [+-]?[0-9]*.[0-9]+
  kDouble,          // with exponent
  kString,          // any of the four quote styles; text includes the quotes
  kWord,            // a bare word: keyword, builtin name, or unknown
  kNil,             // '(' WS* ')'
  kAnon,            // '[' WS* ']'
  kLBrace,
  kRBrace,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kDot,
  kComma,
  kSemicolon,
  kStar,
  kSlash,
  kPipe,
  kCaret,
  kCaretCaret,
  kQuestion,
  kPlus,
  kMinus,
  kBang,
  kEq,
  kNotEq,
  kLess,
  kGreater,
  kLessEq,
  kGreaterEq,
  kAndAnd,
  kOrOr,
};

// Structural keywords. Built-in function names have their own enum (ast.h: Builtin); a word
// may be both (REPLACE is a built-in and part of Tracker's INSERT OR REPLACE).
enum class Keyword : uint8_t {
  kNone,
  kA,  // 'a', the only case-sensitive keyword
  kAdd,
  kAll,
  kAs,
  kAsc,
  kAsk,
  kAvg,
  kBase,
  kBind,
  kBy,
  kClear,
  kConstruct,
  kCopy,
  kCount,
  kCreate,
  kData,
  kDefault,
  kDelete,
  kDesc,
  kDescribe,
  kDistinct,
  kDrop,
  kExists,
  kFalse,
  kFilter,
  kFrom,
  kGraph,
  kGroup,
  kGroupConcat,
  kHaving,
  kIn,
  kInsert,
  kInto,
  kLimit,
  kLoad,
  kMax,
  kMin,
  kMinus,
  kMove,
  kNamed,
  kNot,
  kOffset,
  kOptional,
  kOr,
  kOrder,
  kPrefix,
  kReduced,
  kSample,
  kSelect,
  kSeparator,
  kService,
  kSilent,
  kSum,
  kTo,
  kTrue,
  kUndef,
  kUnion,
  kUsing,
  kValues,
  kWhere,
  kWith,
};

// The built-in call index stored in Token::builtin when a word names one; kNoBuiltin otherwise.
inline constexpr uint8_t kNoBuiltin = 0xff;

struct Token {
  TokenKind kind = TokenKind::kEnd;
  Keyword keyword = Keyword::kNone;  // for kWord
  uint8_t builtin = kNoBuiltin;      // for kWord: static_cast<uint8_t>(Builtin)
  bool has_escape = false;           // kString/kIriRef/kPnameLn: contains a backslash
  size_t offset = 0;                 // byte offset of the token's first character
  size_t end = 0;                    // byte offset just past the token
  std::string_view text;
};

// Classifies a bare word (case-insensitive except 'a'). Returns kNone for unknown words.
Keyword LookupKeyword(std::string_view word);
// Returns the Builtin index of a word, or kNoBuiltin.
uint8_t LookupBuiltin(std::string_view word);
// Both at once, as the lexer classifies a word ('a' is the keyword kA and no built-in).
void LookupWord(std::string_view word, Keyword& keyword, uint8_t& builtin);
// "SELECT", "GROUP_CONCAT", ... for messages and printing.
std::string_view KeywordName(Keyword keyword);
// A short description of a token kind for messages: "'{'", "IRI", "variable".
std::string_view TokenKindName(TokenKind kind);

}  // namespace quarry::sparql
