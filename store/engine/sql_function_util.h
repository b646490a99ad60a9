// Helpers shared by the SQL functions of sql_functions*.cpp: reading SPARQL values out of
// sqlite3_value (strings may be TEXT or lang-tagged BLOB "text\0lang", SCHEMA.md) and writing
// results back. A function that meets a value of the wrong type returns NULL: SPARQL's type
// error, which leaves the expression unbound and makes a FILTER false.
// Thread-safety: called by SQLite on the connection's thread.
#pragma once

#include <sqlite3.h>
#include <unicode/unistr.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quarry::engine::sqlfn {

// A string literal: its text and language tag (empty for a simple literal).
struct StringArg {
  std::string_view text;
  std::string_view lang;
};

inline std::string_view ArgBytes(sqlite3_value* value) {
  const auto* data = static_cast<const char*>(sqlite3_value_blob(value));
  const int size = sqlite3_value_bytes(value);
  return data ? std::string_view(data, static_cast<size_t>(size)) : std::string_view();
}

inline std::string_view ArgText(sqlite3_value* value) {
  const auto* data = reinterpret_cast<const char*>(sqlite3_value_text(value));
  const int size = sqlite3_value_bytes(value);
  return data ? std::string_view(data, static_cast<size_t>(size)) : std::string_view();
}

// A TEXT or lang BLOB argument; nullopt for NULL, numbers (a type error).
inline std::optional<StringArg> AsString(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_TEXT:
      return StringArg{ArgText(value), {}};
    case SQLITE_BLOB: {
      const std::string_view bytes = ArgBytes(value);
      const size_t nul = bytes.rfind('\0');
      if (nul == std::string_view::npos) return StringArg{bytes, {}};
      return StringArg{bytes.substr(0, nul), bytes.substr(nul + 1)};
    }
    default:
      return std::nullopt;
  }
}

inline void ResultText(sqlite3_context* context, std::string_view text) {
  sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

// A string result keeping `lang`: TEXT for a simple literal, BLOB "text\0lang" otherwise.
inline void ResultString(sqlite3_context* context, std::string_view text, std::string_view lang) {
  if (lang.empty()) return ResultText(context, text);
  std::string bytes(text);
  bytes += '\0';
  bytes += lang;
  sqlite3_result_blob(context, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
}

inline icu::UnicodeString ToUnicode(std::string_view text) {
  return icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
}

inline std::string ToUtf8(const icu::UnicodeString& text) {
  std::string utf8;
  text.toUTF8String(utf8);
  return utf8;
}

// SPARQL's argument compatibility (§17.4.3.1.1) for STRSTARTS, CONTAINS, STRBEFORE, …: both
// simple, or the same language, or the second simple.
inline bool Compatible(const StringArg& a, const StringArg& b) {
  return b.lang.empty() || a.lang == b.lang;
}

using SqlFunction = void (*)(sqlite3_context*, int, sqlite3_value**);
struct FunctionSpec {
  const char* name;
  int arguments;  // -1: any number
  SqlFunction call;
  bool deterministic = true;
};

// The function tables of sql_string_functions.cpp, sql_term_functions.cpp and
// sql_tracker_functions.cpp.
const std::vector<FunctionSpec>& StringFunctions();
const std::vector<FunctionSpec>& TermFunctions();
const std::vector<FunctionSpec>& TrackerFunctions();
// quarry_rdf_compare (sql_compare_functions.cpp): SPARQL comparison of open-mode values.
const std::vector<FunctionSpec>& CompareFunctions();

}  // namespace quarry::engine::sqlfn
