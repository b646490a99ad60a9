// quarry_rdf_compare(op, a, type_a, b, type_b): SPARQL 1.1's comparison operators (§17.3,
// operator mapping; RDFterm-equal for the rest) over open-mode values, which the compiler
// passes with their datatypes (translate_term_compare.cpp). `op` is 0 =, 1 !=, 2 <, 3 <=, 4 >,
// 5 >=; a value is the comparable form of the literal table (SCHEMA.md "Open mode"), a type
// the datatype IRI or '' for a resource. NULL is SPARQL's type error.
#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>

#include "store/common/datetime.h"
#include "store/engine/sql_function_util.h"

namespace quarry::engine {
namespace {

using sqlfn::ArgBytes;
using sqlfn::ArgText;

constexpr std::string_view kXsd = "http://www.w3.org/2001/XMLSchema#";

// Datatypes with an operator mapping; kOther compares only as RDF terms.
enum class Family { kResource, kNumeric, kString, kLangString, kBoolean, kDateTime, kOther };

Family FamilyOf(std::string_view type, sqlite3_value* value) {
  if (type.empty()) return Family::kResource;
  if (type == "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString") return Family::kLangString;
  if (type.substr(0, kXsd.size()) != kXsd) return Family::kOther;
  const std::string_view local = type.substr(kXsd.size());
  const int stored = sqlite3_value_type(value);
  const bool number = stored == SQLITE_INTEGER || stored == SQLITE_FLOAT;
  // An ill-typed lexical form ("abc"^^xsd:integer) keeps its text: it has no value to compare.
  if (local == "string") return Family::kString;
  if (local == "boolean") return number ? Family::kBoolean : Family::kOther;
  if (local == "dateTime") return Family::kDateTime;
  static constexpr std::string_view kNumeric[] = {
      "integer", "decimal", "float", "double", "long", "int", "short", "byte",
      "nonNegativeInteger", "positiveInteger", "nonPositiveInteger", "negativeInteger",
      "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte"};
  for (const std::string_view numeric : kNumeric) {
    if (local == numeric) return number ? Family::kNumeric : Family::kOther;
  }
  return Family::kOther;
}

// Instants compare in UTC. A value without zone is some instant within ±14:00 of its wall-clock
// time read as UTC (XPath's implicit timezone): against a zoned value it is ordered only when
// the two are further apart than that, else indeterminate (XPath F&O §10.4).
std::optional<int> DateTimeOrder(std::string_view a, std::string_view b) {
  const Result<std::string> x = EncodeDateTime(a), y = EncodeDateTime(b);
  if (!x || !y) return std::nullopt;
  const auto is_local = [](const std::string& stored) {
    return stored.size() > kStoredDateTimeUtcLength && stored[kStoredDateTimeUtcLength] == 'L';
  };
  const Result<int64_t> x_micros = UnixMicros(*x), y_micros = UnixMicros(*y);
  if (!x_micros || !y_micros) return std::nullopt;
  const int64_t slack = is_local(*x) == is_local(*y) ? 0 : int64_t{14} * 3600 * 1000000;
  if (*x_micros + slack < *y_micros) return -1;
  if (*x_micros > *y_micros + slack) return 1;
  if (slack == 0) return 0;
  return std::nullopt;
}

// -1, 0, 1; nullopt when the two values have no order.
std::optional<int> Order(Family family, sqlite3_value* a, sqlite3_value* b) {
  const auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (family) {
    case Family::kNumeric:
    case Family::kBoolean:
      if (sqlite3_value_type(a) == SQLITE_INTEGER && sqlite3_value_type(b) == SQLITE_INTEGER) {
        return sign(sqlite3_value_int64(a), sqlite3_value_int64(b));
      }
      return sign(sqlite3_value_double(a), sqlite3_value_double(b));
    case Family::kString:
      return sign(ArgText(a), ArgText(b));
    case Family::kDateTime:
      return DateTimeOrder(ArgText(a), ArgText(b));
    default:
      return std::nullopt;
  }
}

// Language tags compare case-insensitively (BCP 47); the texts exactly.
bool SameLangString(sqlite3_value* a, sqlite3_value* b) {
  const std::string_view x = ArgBytes(a), y = ArgBytes(b);
  const size_t x_nul = x.rfind('\0'), y_nul = y.rfind('\0');
  if (x_nul == std::string_view::npos || y_nul == std::string_view::npos) return x == y;
  if (x.substr(0, x_nul) != y.substr(0, y_nul)) return false;
  const std::string_view x_lang = x.substr(x_nul + 1), y_lang = y.substr(y_nul + 1);
  if (x_lang.size() != y_lang.size()) return false;
  for (size_t i = 0; i < x_lang.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(x_lang[i]) != lower(y_lang[i])) return false;
  }
  return true;
}

void ResultTruth(sqlite3_context* context, std::optional<bool> truth) {
  if (!truth) return sqlite3_result_null(context);
  sqlite3_result_int(context, *truth ? 1 : 0);
}

// = and != (op 0/1): the operator mapping for known datatypes, else RDFterm-equal, which is an
// error for two literals that are not the same term (their values might still be equal).
std::optional<bool> Equal(Family x, Family y, std::string_view type_x, std::string_view type_y,
                          sqlite3_value* a, sqlite3_value* b) {
  if (x == Family::kResource || y == Family::kResource) {
    if (x != y) return false;
    return ArgText(a) == ArgText(b);
  }
  if (x == y && x == Family::kLangString) return SameLangString(a, b);
  if (x == y && x != Family::kOther) {
    const std::optional<int> order = Order(x, a, b);
    if (!order) return std::nullopt;
    return *order == 0;
  }
  if (type_x == type_y && ArgBytes(a) == ArgBytes(b)) return true;  // the same term
  if (x != Family::kOther && y != Family::kOther) return false;     // known, different types
  return std::nullopt;
}

void RdfCompareFunction(sqlite3_context* context, int, sqlite3_value** args) {
  for (int i = 1; i < 5; ++i) {
    if (sqlite3_value_type(args[i]) == SQLITE_NULL) return sqlite3_result_null(context);
  }
  const int op = sqlite3_value_int(args[0]);
  sqlite3_value* a = args[1];
  sqlite3_value* b = args[3];
  const std::string_view type_a = ArgText(args[2]), type_b = ArgText(args[4]);
  const Family x = FamilyOf(type_a, a), y = FamilyOf(type_b, b);
  if (op <= 1) {
    const std::optional<bool> equal = Equal(x, y, type_a, type_b, a, b);
    return ResultTruth(context, equal ? std::optional<bool>(*equal == (op == 0)) : std::nullopt);
  }
  if (x != y || x == Family::kResource || x == Family::kLangString) return sqlite3_result_null(context);
  const std::optional<int> order = Order(x, a, b);
  if (!order) return sqlite3_result_null(context);
  switch (op) {
    case 2: return ResultTruth(context, *order < 0);
    case 3: return ResultTruth(context, *order <= 0);
    case 4: return ResultTruth(context, *order > 0);
    default: return ResultTruth(context, *order >= 0);
  }
}

}  // namespace

const std::vector<sqlfn::FunctionSpec>& sqlfn::CompareFunctions() {
  static const std::vector<FunctionSpec> kFunctions = {{"quarry_rdf_compare", 5, RdfCompareFunction}};
  return kFunctions;
}

}  // namespace quarry::engine
