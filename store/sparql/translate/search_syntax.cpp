#include "store/sparql/translate/search_syntax.h"

#include <fmt/format.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>

#include <vector>

namespace quarry::sparql {
namespace {

struct Token {
  enum class Kind { kTerm, kOr, kAnd, kNot };
  Kind kind = Kind::kTerm;
  std::string text;      // kTerm: the word or the phrase's words
  bool prefix = false;   // term*
  bool negated = false;  // -term
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Splits the search into words, "phrases" and operators.
std::vector<Token> Tokenize(std::string_view search) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < search.size()) {
    if (IsSpace(search[i])) {
      ++i;
      continue;
    }
    Token token;
    if (search[i] == '-' && i + 1 < search.size() && !IsSpace(search[i + 1])) {
      token.negated = true;
      ++i;
    }
    if (search[i] == '"') {
      const size_t close = search.find('"', i + 1);
      const size_t end = close == std::string_view::npos ? search.size() : close;
      token.text = std::string(search.substr(i + 1, end - i - 1));
      i = close == std::string_view::npos ? search.size() : close + 1;
      if (i < search.size() && search[i] == '*') {
        token.prefix = true;
        ++i;
      }
    } else {
      size_t end = i;
      while (end < search.size() && !IsSpace(search[end]) && search[end] != '"') ++end;
      token.text = std::string(search.substr(i, end - i));
      i = end;
      while (!token.text.empty() && token.text.back() == '*') {
        token.text.pop_back();
        token.prefix = true;
      }
      if (!token.negated && !token.prefix) {
        if (token.text == "OR") token.kind = Token::Kind::kOr;
        if (token.text == "AND") token.kind = Token::Kind::kAnd;
        if (token.text == "NOT") token.kind = Token::Kind::kNot;
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

bool HasWordCharacter(std::string_view text) {
  const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  for (int32_t i = 0; i < unicode.length(); i = unicode.moveIndex32(i, 1)) {
    if (u_isalnum(unicode.char32At(i))) return true;
  }
  return false;
}

// A quoted FTS5 string: inside "…" only '"' is special, and it is doubled.
std::string Fts5String(const Token& token) {
  std::string quoted = "\"";
  for (const char c : FoldForSearch(token.text)) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  quoted += '"';
  return token.prefix ? quoted + " *" : quoted;
}

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (const std::string& part : parts) {
    if (!joined.empty()) joined += separator;
    joined += part;
  }
  return joined;
}

// Groups: each positive clause is an OR of terms; excluded terms are collected apart.
struct Clauses {
  std::vector<std::vector<std::string>> positive;
  std::vector<std::string> excluded;
};

Clauses Group(const std::vector<Token>& tokens) {
  Clauses clauses;
  bool after_or = false, after_not = false;
  for (const Token& token : tokens) {
    switch (token.kind) {
      case Token::Kind::kOr:
        after_or = !clauses.positive.empty();
        continue;
      case Token::Kind::kAnd:
        after_or = false;
        continue;
      case Token::Kind::kNot:
        after_not = true;
        continue;
      case Token::Kind::kTerm:
        break;
    }
    const bool word = HasWordCharacter(token.text);
    if (token.negated || after_not) {
      if (word) clauses.excluded.push_back(Fts5String(token));
    } else if (word && after_or) {
      clauses.positive.back().push_back(Fts5String(token));
    } else if (word) {
      clauses.positive.push_back({Fts5String(token)});
    }
    after_or = after_not = false;
  }
  return clauses;
}

}  // namespace

std::string FoldForSearch(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) return std::string(text);
  icu::UnicodeString folded = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  folded.foldCase();
  const icu::UnicodeString decomposed = nfd->normalize(folded, status);
  if (U_FAILURE(status)) return std::string(text);
  // Only marks on Latin letters go, as unicode61's remove_diacritics does; a vowel sign in
  // another script is part of the word.
  icu::UnicodeString stripped;
  UChar32 base = 0;
  for (int32_t i = 0; i < decomposed.length(); i = decomposed.moveIndex32(i, 1)) {
    const UChar32 c = decomposed.char32At(i);
    if (u_charType(c) == U_NON_SPACING_MARK) {
      UErrorCode script_status = U_ZERO_ERROR;
      if (uscript_getScript(base, &script_status) == USCRIPT_LATIN) continue;
    } else {
      base = c;
    }
    stripped.append(c);
  }
  const icu::UnicodeString composed = nfc->normalize(stripped, status);
  std::string utf8;
  (U_FAILURE(status) ? stripped : composed).toUTF8String(utf8);
  return utf8;
}

Result<std::string> SearchToFts5(std::string_view search) {
  const Clauses clauses = Group(Tokenize(search));
  if (clauses.positive.empty()) {
    if (!clauses.excluded.empty()) {
      return Error(Errc::kParse, fmt::format("the search \"{}\" only excludes words; add a word "
                                             "to look for (\"report -draft\")",
                                             search));
    }
    return Error(Errc::kParse, fmt::format("the search \"{}\" has no word to look for", search));
  }
  std::vector<std::string> groups;
  for (const std::vector<std::string>& alternatives : clauses.positive) {
    groups.push_back(alternatives.size() == 1 ? alternatives[0]
                                              : "(" + Join(alternatives, " OR ") + ")");
  }
  std::string expression = Join(groups, " AND ");
  if (clauses.excluded.empty()) return expression;
  const std::string excluded = clauses.excluded.size() == 1
                                   ? clauses.excluded[0]
                                   : "(" + Join(clauses.excluded, " OR ") + ")";
  return fmt::format("({}) NOT {}", expression, excluded);
}

}  // namespace quarry::sparql
