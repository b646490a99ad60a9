// SPARQL string functions (§17.4.3) over TEXT and lang-tagged BLOB values: lengths and
// positions count Unicode code points, and results keep the first argument's language tag
// where the spec says so.
#include <unicode/locid.h>
#include <unicode/uchar.h>

#include <cctype>
#include <cmath>
#include <vector>

#include "store/engine/sql_function_util.h"
#include "store/engine/sql_functions.h"

namespace quarry::engine::sqlfn {
namespace {

size_t CodePoints(std::string_view text) {
  size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// Byte offset of code point `index` (the end when the text is shorter).
size_t ByteOffset(std::string_view text, size_t index) {
  size_t seen = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (seen++ == index) return i;
  }
  return text.size();
}

void Strlen(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value) return sqlite3_result_null(context);
  sqlite3_result_int64(context, static_cast<int64_t>(CodePoints(value->text)));
}

bool IsNumber(sqlite3_value* value) {
  const int type = sqlite3_value_type(value);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

// XPath fn:round: halves go up.
double XpathRound(double value) { return std::floor(value + 0.5); }

// SUBSTR(str, start [, length]): fn:substring, 1-based code points, positions p with
// round(start) <= p < round(start) + round(length).
void Substr(sqlite3_context* context, int argc, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value || !IsNumber(args[1]) || (argc > 2 && !IsNumber(args[2]))) {
    return sqlite3_result_null(context);
  }
  const double first = XpathRound(sqlite3_value_double(args[1]));
  const double last = argc > 2 ? first + XpathRound(sqlite3_value_double(args[2])) : INFINITY;
  const double length = static_cast<double>(CodePoints(value->text));
  const double from = std::max(first, 1.0);
  const double to = std::min(last, length + 1);
  if (std::isnan(from) || std::isnan(to) || to <= from)
    return ResultString(context, "", value->lang);
  const size_t begin = ByteOffset(value->text, static_cast<size_t>(from) - 1);
  const size_t end = ByteOffset(value->text, static_cast<size_t>(to) - 1);
  ResultString(context, value->text.substr(begin, end - begin), value->lang);
}

void ChangeCase(sqlite3_context* context, sqlite3_value** args, bool upper) {
  const auto value = AsString(args[0]);
  if (!value) return sqlite3_result_null(context);
  icu::UnicodeString text = ToUnicode(value->text);
  if (upper)
    text.toUpper(icu::Locale::getRoot());
  else
    text.toLower(icu::Locale::getRoot());
  ResultString(context, ToUtf8(text), value->lang);
}
void Ucase(sqlite3_context* context, int, sqlite3_value** args) { ChangeCase(context, args, true); }
void Lcase(sqlite3_context* context, int, sqlite3_value** args) {
  ChangeCase(context, args, false);
}

// The two compatible string arguments of STRSTARTS & co; false after a type error.
bool TwoStrings(sqlite3_context* context, sqlite3_value** args, StringArg* a, StringArg* b) {
  const auto first = AsString(args[0]);
  const auto second = AsString(args[1]);
  if (!first || !second || !Compatible(*first, *second)) {
    sqlite3_result_null(context);
    return false;
  }
  *a = *first;
  *b = *second;
  return true;
}

void StrStarts(sqlite3_context* context, int, sqlite3_value** args) {
  StringArg a, b;
  if (!TwoStrings(context, args, &a, &b)) return;
  sqlite3_result_int(context, a.text.substr(0, b.text.size()) == b.text);
}

void StrEnds(sqlite3_context* context, int, sqlite3_value** args) {
  StringArg a, b;
  if (!TwoStrings(context, args, &a, &b)) return;
  sqlite3_result_int(context, a.text.size() >= b.text.size() &&
                                  a.text.substr(a.text.size() - b.text.size()) == b.text);
}

void Contains(sqlite3_context* context, int, sqlite3_value** args) {
  StringArg a, b;
  if (!TwoStrings(context, args, &a, &b)) return;
  sqlite3_result_int(context, a.text.find(b.text) != std::string_view::npos);
}

// STRBEFORE/STRAFTER: the match keeps arg1's language; no match gives "" (simple).
void StrBeforeAfter(sqlite3_context* context, sqlite3_value** args, bool before) {
  StringArg a, b;
  if (!TwoStrings(context, args, &a, &b)) return;
  const size_t at = a.text.find(b.text);
  if (at == std::string_view::npos) return ResultText(context, "");
  ResultString(context, before ? a.text.substr(0, at) : a.text.substr(at + b.text.size()), a.lang);
}
void StrBefore(sqlite3_context* context, int, sqlite3_value** args) {
  StrBeforeAfter(context, args, true);
}
void StrAfter(sqlite3_context* context, int, sqlite3_value** args) {
  StrBeforeAfter(context, args, false);
}

void EncodeForUri(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value) return sqlite3_result_null(context);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (const char c : value->text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) && byte < 0x80) {
      encoded += c;
    } else if (c == '-' || c == '.' || c == '_' || c == '~') {
      encoded += c;
    } else {
      encoded += '%';
      encoded += kHex[byte >> 4];
      encoded += kHex[byte & 0xF];
    }
  }
  ResultText(context, encoded);
}

// CONCAT: the language survives only when every argument has the same one. Numbers are
// accepted as their lexical form, as Tracker does (SPARQL would call them a type error).
void Concat(sqlite3_context* context, int argc, sqlite3_value** args) {
  std::string text;
  std::string lang;
  for (int i = 0; i < argc; ++i) {
    if (IsNumber(args[i])) {
      text += ArgText(args[i]);
      lang.clear();
      continue;
    }
    const auto value = AsString(args[i]);
    if (!value) return sqlite3_result_null(context);
    if (i == 0) lang = value->lang;
    if (value->lang != lang) lang.clear();
    text += value->text;
  }
  ResultString(context, text, lang);
}

bool EqualsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// LANGMATCHES: RFC 4647 basic filtering.
void LangMatches(sqlite3_context* context, int, sqlite3_value** args) {
  const auto tag = AsString(args[0]);
  const auto range = AsString(args[1]);
  if (!tag || !range) return sqlite3_result_null(context);
  if (range->text == "*") return sqlite3_result_int(context, !tag->text.empty());
  const bool match =
      EqualsIgnoringAsciiCase(tag->text, range->text) ||
      (tag->text.size() > range->text.size() && tag->text[range->text.size()] == '-' &&
       EqualsIgnoringAsciiCase(tag->text.substr(0, range->text.size()), range->text));
  sqlite3_result_int(context, match && !range->text.empty());
}

bool IsLanguageTag(std::string_view tag) {
  size_t part = 0;
  for (size_t i = 0; i <= tag.size(); ++i) {
    if (i == tag.size() || tag[i] == '-') {
      if (part == 0 || part > 8) return false;
      part = 0;
      continue;
    }
    if (!std::isalnum(static_cast<unsigned char>(tag[i]))) return false;
    ++part;
  }
  return !tag.empty() && std::isalpha(static_cast<unsigned char>(tag[0]));
}

// STRLANG(simple literal, tag).
void StrLang(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  const auto tag = AsString(args[1]);
  if (!value || !tag || !value->lang.empty() || !IsLanguageTag(tag->text)) {
    return sqlite3_result_null(context);
  }
  ResultString(context, value->text, tag->text);
}

}  // namespace

const std::vector<FunctionSpec>& StringFunctions() {
  static const std::vector<FunctionSpec> kFunctions = {
      {"quarry_strlen", 1, Strlen},       {"quarry_substr", -1, Substr},
      {"quarry_ucase", 1, Ucase},         {"quarry_lcase", 1, Lcase},
      {"quarry_strstarts", 2, StrStarts}, {"quarry_strends", 2, StrEnds},
      {"quarry_contains", 2, Contains},   {"quarry_strbefore", 2, StrBefore},
      {"quarry_strafter", 2, StrAfter},   {"quarry_encode_for_uri", 1, EncodeForUri},
      {"quarry_concat", -1, Concat},      {"quarry_langmatches", 2, LangMatches},
      {"quarry_strlang", 2, StrLang},
  };
  return kFunctions;
}

}  // namespace quarry::engine::sqlfn
