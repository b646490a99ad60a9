// REGEX and REPLACE (ICU regular expressions with XPath flags) and Tracker's string and URI
// functions (tracker:case-folding, tracker:normalize, tracker:unaccent,
// tracker:string-from-filename, tracker:uri-is-parent, tracker:uri-is-descendant).
#include <unicode/normalizer2.h>
#include <unicode/regex.h>
#include <unicode/uchar.h>

#include <cctype>
#include <memory>

#include "store/engine/sql_function_util.h"
#include "store/sparql/translate/regex_flags.h"

namespace quarry::engine::sqlfn {
namespace {

// A compiled pattern cached on the pattern argument, valid while pattern and flags stay the same.
struct CachedPattern {
  std::string pattern;
  std::string flags;
  std::unique_ptr<icu::RegexPattern> compiled;
};

// The pattern of args[pattern_at] with the flags of args[flags_at]; null after a type error or
// an invalid pattern (both SPARQL errors: the expression is unbound).
const icu::RegexPattern* Pattern(sqlite3_context* context, sqlite3_value** args, int pattern_at,
                                 int flags_at) {
  const auto pattern = AsString(args[pattern_at]);
  const auto flags = AsString(args[flags_at]);
  if (!pattern || !flags || !pattern->lang.empty()) return nullptr;
  auto* cached = static_cast<CachedPattern*>(sqlite3_get_auxdata(context, pattern_at));
  if (cached && cached->pattern == pattern->text && cached->flags == flags->text) {
    return cached->compiled.get();
  }
  const auto icu_flags = sparql::RegexFlags(flags->text);
  if (!icu_flags) return nullptr;
  UErrorCode status = U_ZERO_ERROR;
  UParseError parse_error;
  auto entry = std::make_unique<CachedPattern>();
  entry->pattern = std::string(pattern->text);
  entry->flags = std::string(flags->text);
  entry->compiled.reset(
      icu::RegexPattern::compile(ToUnicode(pattern->text), *icu_flags, parse_error, status));
  if (U_FAILURE(status)) return nullptr;
  sqlite3_set_auxdata(context, pattern_at, entry.release(),
                      [](void* p) { delete static_cast<CachedPattern*>(p); });
  // Null only when SQLite dropped the data at once (out of memory).
  const auto* kept = static_cast<CachedPattern*>(sqlite3_get_auxdata(context, pattern_at));
  return kept ? kept->compiled.get() : nullptr;
}

void Regex(sqlite3_context* context, int, sqlite3_value** args) {
  const auto text = AsString(args[0]);
  const icu::RegexPattern* pattern = text ? Pattern(context, args, 1, 2) : nullptr;
  if (!pattern) return sqlite3_result_null(context);
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString unicode = ToUnicode(text->text);
  std::unique_ptr<icu::RegexMatcher> matcher(pattern->matcher(unicode, status));
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  const bool found = matcher->find(status);
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  sqlite3_result_int(context, found);
}

// REPLACE(text, pattern, replacement, flags); a pattern that matches "" is an error (fn:replace).
void Replace(sqlite3_context* context, int, sqlite3_value** args) {
  const auto text = AsString(args[0]);
  const auto replacement = AsString(args[2]);
  const icu::RegexPattern* pattern = text && replacement ? Pattern(context, args, 1, 3) : nullptr;
  if (!pattern) return sqlite3_result_null(context);
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString empty;
  std::unique_ptr<icu::RegexMatcher> empty_matcher(pattern->matcher(empty, status));
  if (U_FAILURE(status) || empty_matcher->matches(status)) return sqlite3_result_null(context);
  const icu::UnicodeString unicode = ToUnicode(text->text);
  std::unique_ptr<icu::RegexMatcher> matcher(pattern->matcher(unicode, status));
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  const icu::UnicodeString result = matcher->replaceAll(ToUnicode(replacement->text), status);
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  ResultString(context, ToUtf8(result), text->lang);
}

void CaseFolding(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value) return sqlite3_result_null(context);
  ResultString(context, ToUtf8(ToUnicode(value->text).foldCase()), value->lang);
}

const icu::Normalizer2* NormalizerNamed(std::string_view name, UErrorCode& status) {
  std::string lower;
  for (const char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "nfc") return icu::Normalizer2::getNFCInstance(status);
  if (lower == "nfd") return icu::Normalizer2::getNFDInstance(status);
  if (lower == "nfkc") return icu::Normalizer2::getNFKCInstance(status);
  if (lower == "nfkd") return icu::Normalizer2::getNFKDInstance(status);
  return nullptr;
}

void Normalize(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  const auto form = AsString(args[1]);
  if (!value || !form) return sqlite3_result_null(context);
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = NormalizerNamed(form->text, status);
  if (!normalizer) {
    const std::string message = "tracker:normalize: unknown form \"" + std::string(form->text) +
                                "\" (nfc, nfd, nfkc or nfkd)";
    return sqlite3_result_error(context, message.c_str(), -1);
  }
  const icu::UnicodeString normal = normalizer->normalize(ToUnicode(value->text), status);
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  ResultString(context, ToUtf8(normal), value->lang);
}

// tracker:unaccent: compatibility decomposition, then every combining mark removed.
void Unaccent(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value) return sqlite3_result_null(context);
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkd = icu::Normalizer2::getNFKDInstance(status);
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  const icu::UnicodeString decomposed = nfkd->normalize(ToUnicode(value->text), status);
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  icu::UnicodeString stripped;
  for (int32_t i = 0; i < decomposed.length(); i = decomposed.moveIndex32(i, 1)) {
    const UChar32 c = decomposed.char32At(i);
    if (u_charType(c) != U_NON_SPACING_MARK) stripped.append(c);
  }
  ResultString(context, ToUtf8(stripped), value->lang);
}

// tracker:string-from-filename: "My_holiday.photo.jpg" -> "My holiday photo" (extension
// removed, '.' and '_' read as spaces), Tracker's title-from-file-name rule.
void StringFromFilename(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value) return sqlite3_result_null(context);
  std::string name(value->text);
  if (const size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
  for (char& c : name) {
    if (c == '.' || c == '_') c = ' ';
  }
  ResultText(context, name);
}

// The part of `uri` below `parent` ("" when uri is not strictly below it).
std::string_view Below(std::string_view parent, std::string_view uri) {
  if (parent.empty() || uri.size() <= parent.size() || uri.substr(0, parent.size()) != parent)
    return {};
  std::string_view rest = uri.substr(parent.size());
  if (parent.back() != '/') {
    if (rest.front() != '/') return {};
    rest.remove_prefix(1);
  }
  return rest;
}

void UriIsParent(sqlite3_context* context, int, sqlite3_value** args) {
  const auto parent = AsString(args[0]);
  const auto uri = AsString(args[1]);
  if (!parent || !uri) return sqlite3_result_null(context);
  std::string_view rest = Below(parent->text, uri->text);
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  sqlite3_result_int(context, !rest.empty() && rest.find('/') == std::string_view::npos);
}

// tracker:uri-is-descendant(parent1, …, parentN, uri): below any of the parents.
void UriIsDescendant(sqlite3_context* context, int argc, sqlite3_value** args) {
  if (argc < 2)
    return sqlite3_result_error(context, "tracker:uri-is-descendant needs a parent and a uri", -1);
  const auto uri = AsString(args[argc - 1]);
  if (!uri) return sqlite3_result_null(context);
  for (int i = 0; i < argc - 1; ++i) {
    const auto parent = AsString(args[i]);
    if (parent && !Below(parent->text, uri->text).empty()) return sqlite3_result_int(context, 1);
  }
  sqlite3_result_int(context, 0);
}

}  // namespace

const std::vector<FunctionSpec>& TrackerFunctions() {
  static const std::vector<FunctionSpec> kFunctions = {
      {"quarry_regex", 3, Regex},
      {"quarry_replace", 4, Replace},
      {"quarry_case_folding", 1, CaseFolding},
      {"quarry_normalize", 2, Normalize},
      {"quarry_unaccent", 1, Unaccent},
      {"quarry_string_from_filename", 1, StringFromFilename},
      {"quarry_uri_is_parent", 2, UriIsParent},
      {"quarry_uri_is_descendant", -1, UriIsDescendant},
  };
  return kFunctions;
}

}  // namespace quarry::engine::sqlfn
