#include "store/engine/sql_functions.h"

#include <unicode/unistr.h>

#include <string>
#include <string_view>

#include "store/common/datetime.h"
#include "store/engine/sql_function_util.h"
#include "store/engine/sql_numeric_functions.h"

namespace quarry::engine {
namespace {

using sqlfn::ArgBytes;
using sqlfn::ResultText;

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

Result<void> Register(sqlite3* db, const sqlfn::FunctionSpec& function) {
  const int flags = SQLITE_UTF8 | (function.deterministic ? SQLITE_DETERMINISTIC : 0);
  const int rc = sqlite3_create_function_v2(db, function.name, function.arguments, flags, nullptr,
                                            function.call, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return Error(Errc::kInternal, std::string("cannot register SQL function ") + function.name);
  }
  return Ok();
}

}  // namespace

Result<void> RegisterSqlFunctions(sqlite3* db) {
  const sqlfn::FunctionSpec kFunctions[] = {
      {"quarry_text", 1, TextFunction},         {"quarry_lang", 1, LangFunction},
      {"quarry_datetime", 1, DateTimeFunction}, {"quarry_lower", 1, LowerFunction},
      {"quarry_upper", 1, UpperFunction},
  };
  for (const sqlfn::FunctionSpec& function : kFunctions) QUARRY_TRY(Register(db, function));
  for (const auto* table : {&sqlfn::StringFunctions(), &sqlfn::TermFunctions(), &sqlfn::TrackerFunctions(),
                            &sqlfn::CompareFunctions(), &sqlfn::NumericFunctions()}) {
    for (const sqlfn::FunctionSpec& function : *table) QUARRY_TRY(Register(db, function));
  }
  QUARRY_TRY(RegisterAggregateFunctions(db));
  return RegisterFtsFunctions(db);
}

}  // namespace quarry::engine
