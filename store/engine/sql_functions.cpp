#include "store/engine/sql_functions.h"

#include <unicode/regex.h>
#include <unicode/unistr.h>

#include <memory>
#include <string>
#include <string_view>

#include "store/common/datetime.h"

namespace quarry::engine {
namespace {

std::string_view ArgBytes(sqlite3_value* value) {
  const auto* data = static_cast<const char*>(sqlite3_value_blob(value));
  const int size = sqlite3_value_bytes(value);
  return data ? std::string_view(data, static_cast<size_t>(size)) : std::string_view();
}

void ResultText(sqlite3_context* context, std::string_view text) {
  sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

// Lang-tagged strings are BLOBs "text\0lang" (SCHEMA.md).
void TextFunction(sqlite3_context* context, int, sqlite3_value** args) {
  const int type = sqlite3_value_type(args[0]);
  if (type == SQLITE_NULL) return sqlite3_result_null(context);
  if (type != SQLITE_BLOB) return ResultText(context, reinterpret_cast<const char*>(sqlite3_value_text(args[0])));
  const std::string_view bytes = ArgBytes(args[0]);
  ResultText(context, bytes.substr(0, bytes.rfind('\0')));
}

void LangFunction(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) return sqlite3_result_null(context);
  if (sqlite3_value_type(args[0]) != SQLITE_BLOB) return ResultText(context, "");
  const std::string_view bytes = ArgBytes(args[0]);
  const size_t nul = bytes.rfind('\0');
  ResultText(context, nul == std::string_view::npos ? std::string_view() : bytes.substr(nul + 1));
}

void DateTimeFunction(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) != SQLITE_TEXT) return sqlite3_result_value(context, args[0]);
  ResultText(context, DecodeDateTime(reinterpret_cast<const char*>(sqlite3_value_text(args[0]))));
}

icu::UnicodeString ToUnicode(sqlite3_value* value) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
  return icu::UnicodeString::fromUTF8(text ? text : "");
}

void CaseFunction(sqlite3_context* context, sqlite3_value** args, bool upper) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) return sqlite3_result_null(context);
  icu::UnicodeString text = ToUnicode(args[0]);
  if (upper) text.toUpper(); else text.toLower();
  std::string utf8;
  text.toUTF8String(utf8);
  ResultText(context, utf8);
}

void LowerFunction(sqlite3_context* context, int, sqlite3_value** args) { CaseFunction(context, args, false); }
void UpperFunction(sqlite3_context* context, int, sqlite3_value** args) { CaseFunction(context, args, true); }

// REGEX(text, pattern, flags) with ICU; the compiled pattern is cached per statement.
void RegexFunction(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL || sqlite3_value_type(args[1]) == SQLITE_NULL) {
    return sqlite3_result_null(context);
  }
  auto* pattern = static_cast<icu::RegexPattern*>(sqlite3_get_auxdata(context, 1));
  if (!pattern) {
    uint32_t flags = 0;
    const auto* flag_text = reinterpret_cast<const char*>(sqlite3_value_text(args[2]));
    for (const char* flag = flag_text ? flag_text : ""; *flag; ++flag) {
      if (*flag == 'i') flags |= UREGEX_CASE_INSENSITIVE;
      if (*flag == 's') flags |= UREGEX_DOTALL;
      if (*flag == 'm') flags |= UREGEX_MULTILINE;
      if (*flag == 'x') flags |= UREGEX_COMMENTS;
    }
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse_error;
    std::unique_ptr<icu::RegexPattern> compiled(
        icu::RegexPattern::compile(ToUnicode(args[1]), flags, parse_error, status));
    if (U_FAILURE(status)) return sqlite3_result_null(context);  // SPARQL: an error, not a match
    pattern = compiled.release();
    sqlite3_set_auxdata(context, 1, pattern, [](void* p) { delete static_cast<icu::RegexPattern*>(p); });
    pattern = static_cast<icu::RegexPattern*>(sqlite3_get_auxdata(context, 1));
    if (!pattern) return sqlite3_result_null(context);
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString text = ToUnicode(args[0]);
  std::unique_ptr<icu::RegexMatcher> matcher(pattern->matcher(text, status));
  if (U_FAILURE(status)) return sqlite3_result_null(context);
  const bool found = matcher->find(status);
  sqlite3_result_int(context, found ? 1 : 0);
}

}  // namespace

Result<void> RegisterSqlFunctions(sqlite3* db) {
  struct Function {
    const char* name;
    int arguments;
    void (*call)(sqlite3_context*, int, sqlite3_value**);
  };
  constexpr Function kFunctions[] = {
      {"quarry_text", 1, TextFunction},       {"quarry_lang", 1, LangFunction},
      {"quarry_datetime", 1, DateTimeFunction}, {"quarry_lower", 1, LowerFunction},
      {"quarry_upper", 1, UpperFunction},     {"quarry_regex", 3, RegexFunction},
  };
  for (const Function& function : kFunctions) {
    const int rc = sqlite3_create_function_v2(db, function.name, function.arguments,
                                              SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                              function.call, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
      return Error(Errc::kInternal, std::string("cannot register SQL function ") + function.name);
    }
  }
  return Ok();
}

}  // namespace quarry::engine
