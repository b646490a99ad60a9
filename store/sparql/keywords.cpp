// Keyword and built-in name tables (token.h, ast.h).
#include <algorithm>
#include <array>
#include <cstdint>
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

// Every keyword and built-in name in one open-addressing table (FNV-1a of the upper-case name,
// linear probing), built at compile time: a word costs one hash and one comparison instead of
// two binary searches (issue 5: ~340 instructions a word, mostly an update's PREFIX lines).
struct WordEntry {
  std::string_view name;  // upper case; empty: a free slot
  Keyword keyword = Keyword::kNone;
  uint8_t builtin = kNoBuiltin;
};

constexpr size_t kWordSlots = 256;

constexpr size_t WordSlot(std::string_view upper) {
  uint32_t hash = 2166136261u;
  for (const char c : upper) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash % kWordSlots;
}

constexpr auto kWordTable = [] {
  std::array<WordEntry, kWordSlots> table{};
  // Every slot set explicitly: with GCC 12 the constant `{}` above left `builtin` at 0.
  for (WordEntry& entry : table) entry = WordEntry{{}, Keyword::kNone, kNoBuiltin};
  const auto place = [&table](std::string_view name, Keyword keyword, uint8_t builtin) {
    size_t slot = WordSlot(name);
    while (!table[slot].name.empty() && table[slot].name != name) slot = (slot + 1) % kWordSlots;
    table[slot].name = name;
    if (keyword != Keyword::kNone) table[slot].keyword = keyword;
    if (builtin != kNoBuiltin) table[slot].builtin = builtin;
  };
  for (const KeywordEntry& entry : kKeywords) place(entry.name, entry.keyword, kNoBuiltin);
  for (size_t i = 0; i < kBuiltinNames.size(); ++i) {
    place(kBuiltinNames[i], Keyword::kNone, static_cast<uint8_t>(i));
  }
  return table;
}();
static_assert(kKeywords.size() + kBuiltinNames.size() < kWordSlots / 2,
              "keep the word table at most half full");

const WordEntry* FindWord(std::string_view word) {
  std::array<char, 16> buffer;
  std::string_view upper;
  if (!ToUpper(word, buffer, upper)) return nullptr;
  for (size_t slot = WordSlot(upper); !kWordTable[slot].name.empty();
       slot = (slot + 1) % kWordSlots) {
    if (kWordTable[slot].name == upper) return &kWordTable[slot];
  }
  return nullptr;
}

}  // namespace

Keyword LookupKeyword(std::string_view word) {
  if (word == "a") return Keyword::kA;
  const WordEntry* entry = FindWord(word);
  return entry ? entry->keyword : Keyword::kNone;
}

uint8_t LookupBuiltin(std::string_view word) {
  const WordEntry* entry = FindWord(word);
  return entry ? entry->builtin : kNoBuiltin;
}

void LookupWord(std::string_view word, Keyword& keyword, uint8_t& builtin) {
  keyword = Keyword::kNone;
  builtin = kNoBuiltin;
  if (word == "a") {
    keyword = Keyword::kA;
    return;
  }
  if (const WordEntry* entry = FindWord(word)) {
    keyword = entry->keyword;
    builtin = entry->builtin;
  }
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
