// Keyword and built-in name tables (token.h, ast.h).
#include <algorithm>
#include <array>
#include <utility>

#include "store/sparql/ast.h"
#include "store/sparql/token.h"

namespace quarry::sparql {

namespace {

struct KeywordEntry {
  std::string_view name;  // upper case, sorted
  Keyword keyword;
};

constexpr std::array kKeywords = {
    KeywordEntry{"ADD", Keyword::kAdd},
    KeywordEntry{"ALL", Keyword::kAll},
    KeywordEntry{"AS", Keyword::kAs},
    KeywordEntry{"ASC", Keyword::kAsc},
    KeywordEntry{"ASK", Keyword::kAsk},
    KeywordEntry{"AVG", Keyword::kAvg},
    KeywordEntry{"BASE", Keyword::kBase},
    KeywordEntry{"BIND", Keyword::kBind},
    KeywordEntry{"BY", Keyword::kBy},
    KeywordEntry{"CLEAR", Keyword::kClear},
    KeywordEntry{"CONSTRUCT", Keyword::kConstruct},
    KeywordEntry{"COPY", Keyword::kCopy},
    KeywordEntry{"COUNT", Keyword::kCount},
    KeywordEntry{"CREATE", Keyword::kCreate},
    KeywordEntry{"DATA", Keyword::kData},
    KeywordEntry{"DEFAULT", Keyword::kDefault},
    KeywordEntry{"DELETE", Keyword::kDelete},
    KeywordEntry{"DESC", Keyword::kDesc},
    KeywordEntry{"DESCRIBE", Keyword::kDescribe},
    KeywordEntry{"DISTINCT", Keyword::kDistinct},
    KeywordEntry{"DROP", Keyword::kDrop},
    KeywordEntry{"EXISTS", Keyword::kExists},
    KeywordEntry{"FALSE", Keyword::kFalse},
    KeywordEntry{"FILTER", Keyword::kFilter},
    KeywordEntry{"FROM", Keyword::kFrom},
    KeywordEntry{"GRAPH", Keyword::kGraph},
    KeywordEntry{"GROUP", Keyword::kGroup},
    KeywordEntry{"GROUP_CONCAT", Keyword::kGroupConcat},
    KeywordEntry{"HAVING", Keyword::kHaving},
    KeywordEntry{"IN", Keyword::kIn},
    KeywordEntry{"INSERT", Keyword::kInsert},
    KeywordEntry{"INTO", Keyword::kInto},
    KeywordEntry{"LIMIT", Keyword::kLimit},
    KeywordEntry{"LOAD", Keyword::kLoad},
    KeywordEntry{"MAX", Keyword::kMax},
    KeywordEntry{"MIN", Keyword::kMin},
    KeywordEntry{"MINUS", Keyword::kMinus},
    KeywordEntry{"MOVE", Keyword::kMove},
    KeywordEntry{"NAMED", Keyword::kNamed},
    KeywordEntry{"NOT", Keyword::kNot},
    KeywordEntry{"OFFSET", Keyword::kOffset},
    KeywordEntry{"OPTIONAL", Keyword::kOptional},
    KeywordEntry{"OR", Keyword::kOr},
    KeywordEntry{"ORDER", Keyword::kOrder},
    KeywordEntry{"PREFIX", Keyword::kPrefix},
    KeywordEntry{"REDUCED", Keyword::kReduced},
    KeywordEntry{"SAMPLE", Keyword::kSample},
    KeywordEntry{"SELECT", Keyword::kSelect},
    KeywordEntry{"SEPARATOR", Keyword::kSeparator},
    KeywordEntry{"SERVICE", Keyword::kService},
    KeywordEntry{"SILENT", Keyword::kSilent},
    KeywordEntry{"SUM", Keyword::kSum},
    KeywordEntry{"TO", Keyword::kTo},
    KeywordEntry{"TRUE", Keyword::kTrue},
    KeywordEntry{"UNDEF", Keyword::kUndef},
    KeywordEntry{"UNION", Keyword::kUnion},
    KeywordEntry{"USING", Keyword::kUsing},
    KeywordEntry{"VALUES", Keyword::kValues},
    KeywordEntry{"WHERE", Keyword::kWhere},
    KeywordEntry{"WITH", Keyword::kWith},
};

constexpr std::array kBuiltinNames = {
#define QUARRY_SPARQL_BUILTIN_NAME(id, name) std::string_view(name),
    QUARRY_SPARQL_BUILTINS(QUARRY_SPARQL_BUILTIN_NAME)
#undef QUARRY_SPARQL_BUILTIN_NAME
};

// Built-in names sorted for binary search, with their enum index.
constexpr auto kSortedBuiltins = [] {
  std::array<std::pair<std::string_view, uint8_t>, kBuiltinNames.size()> sorted{};
  for (size_t i = 0; i < kBuiltinNames.size(); ++i) {
    sorted[i] = {kBuiltinNames[i], static_cast<uint8_t>(i)};
  }
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}();

static_assert(std::is_sorted(kKeywords.begin(), kKeywords.end(),
                             [](const KeywordEntry& a, const KeywordEntry& b) {
                               return a.name < b.name;
                             }));

// Upper-cases an ASCII word into `buffer`; false when it is too long to be any keyword.
bool ToUpper(std::string_view word, std::array<char, 16>& buffer, std::string_view& upper) {
  if (word.size() > buffer.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    buffer[i] = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  upper = std::string_view(buffer.data(), word.size());
  return true;
}

}  // namespace

Keyword LookupKeyword(std::string_view word) {
  if (word == "a") return Keyword::kA;
  std::array<char, 16> buffer;
  std::string_view upper;
  if (!ToUpper(word, buffer, upper)) return Keyword::kNone;
  const auto it = std::lower_bound(
      kKeywords.begin(), kKeywords.end(), upper,
      [](const KeywordEntry& entry, std::string_view name) { return entry.name < name; });
  return it != kKeywords.end() && it->name == upper ? it->keyword : Keyword::kNone;
}

uint8_t LookupBuiltin(std::string_view word) {
  std::array<char, 16> buffer;
  std::string_view upper;
  if (!ToUpper(word, buffer, upper)) return kNoBuiltin;
  const auto it =
      std::lower_bound(kSortedBuiltins.begin(), kSortedBuiltins.end(), upper,
                       [](const auto& entry, std::string_view name) { return entry.first < name; });
  return it != kSortedBuiltins.end() && it->first == upper ? it->second : kNoBuiltin;
}

std::string_view KeywordName(Keyword keyword) {
  if (keyword == Keyword::kA) return "a";
  for (const KeywordEntry& entry : kKeywords) {
    if (entry.keyword == keyword) return entry.name;
  }
  return "";
}

std::string_view BuiltinName(Builtin builtin) {
  return kBuiltinNames[static_cast<size_t>(builtin)];
}

std::string_view AggregateName(AggregateOp op) {
  switch (op) {
    case AggregateOp::kCount:
      return "COUNT";
    case AggregateOp::kSum:
      return "SUM";
    case AggregateOp::kMin:
      return "MIN";
    case AggregateOp::kMax:
      return "MAX";
    case AggregateOp::kAvg:
      return "AVG";
    case AggregateOp::kSample:
      return "SAMPLE";
    case AggregateOp::kGroupConcat:
      return "GROUP_CONCAT";
  }
  return "";
}

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kError:
      return "invalid token";
    case TokenKind::kIriRef:
      return "IRI";
    case TokenKind::kPnameNs:
    case TokenKind::kPnameLn:
      return "prefixed name";
    case TokenKind::kBlankNodeLabel:
      return "blank node";
    case TokenKind::kVar:
      return "variable";
    case TokenKind::kParameter:
      return "parameter";
    case TokenKind::kLangTag:
      return "language tag";
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
      return "number";
    case TokenKind::kString:
      return "string";
    case TokenKind::kWord:
      return "word";
    case TokenKind::kNil:
      return "'()'";
    case TokenKind::kAnon:
      return "'[]'";
    case TokenKind::kLBrace:
      return "'{'";
    case TokenKind::kRBrace:
      return "'}'";
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLBracket:
      return "'['";
    case TokenKind::kRBracket:
      return "']'";
    case TokenKind::kDot:
      return "'.'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kSemicolon:
      return "';'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kSlash:
      return "'/'";
    case TokenKind::kPipe:
      return "'|'";
    case TokenKind::kCaret:
      return "'^'";
    case TokenKind::kCaretCaret:
      return "'^^'";
    case TokenKind::kQuestion:
      return "'?'";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kMinus:
      return "'-'";
    case TokenKind::kBang:
      return "'!'";
    case TokenKind::kEq:
      return "'='";
    case TokenKind::kNotEq:
      return "'!='";
    case TokenKind::kLess:
      return "'<'";
    case TokenKind::kGreater:
      return "'>'";
    case TokenKind::kLessEq:
      return "'<='";
    case TokenKind::kGreaterEq:
      return "'>='";
    case TokenKind::kAndAnd:
      return "'&&'";
    case TokenKind::kOrOr:
      return "'||'";
  }
  return "token";
}

}  // namespace quarry::sparql
