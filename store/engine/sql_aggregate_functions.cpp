// Aggregates for open mode (SCHEMA.md "Open mode"): quarry_term_min(value, term_id) and
// quarry_term_max(value, term_id) return the term ID of the row whose value SQLite's min()/max()
// would pick, so MIN/MAX of quad-table values keep the stored term ("1.0"^^xsd:decimal, not the
// double 1). Values are ordered as SQLite orders them: numbers, then text, then blobs.
// SQLite refuses an aggregate inside a subquery, so the picked ID is turned into its output form
// and its value by quarry_term_output(id) and quarry_term_value(id), which run the subqueries of
// store/schema/quad_table.h themselves.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "store/engine/sql_functions.h"
#include "store/engine/sql_numeric_functions.h"
#include "store/schema/quad_table.h"

namespace quarry::engine {
namespace {

struct Best {
  sqlite3_value* value;  // sqlite3_value_dup'ed; null until the first non-NULL row
  sqlite3_value* id;     // dup'ed too: an ID, or an unstored IRI's 'I' + IRI (quad_table.h)
};

int Rank(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: return 1;
    case SQLITE_TEXT: return 2;
    default: return 3;
  }
}

int CompareBytes(const void* a, int a_size, const void* b, int b_size) {
  const int common = a_size < b_size ? a_size : b_size;
  const int order = common > 0 ? std::memcmp(a, b, static_cast<size_t>(common)) : 0;
  if (order != 0) return order;
  return a_size - b_size;
}

int Compare(sqlite3_value* a, sqlite3_value* b) {
  const int rank_a = Rank(a), rank_b = Rank(b);
  if (rank_a != rank_b) return rank_a - rank_b;
  if (rank_a == 1) {
    if (sqlite3_value_type(a) == SQLITE_INTEGER && sqlite3_value_type(b) == SQLITE_INTEGER) {
      const sqlite3_int64 x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    const double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (rank_a == 2) {
    return CompareBytes(sqlite3_value_text(a), sqlite3_value_bytes(a), sqlite3_value_text(b),
                        sqlite3_value_bytes(b));
  }
  return CompareBytes(sqlite3_value_blob(a), sqlite3_value_bytes(a), sqlite3_value_blob(b),
                      sqlite3_value_bytes(b));
}

template <bool kMax>
void Step(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL || sqlite3_value_type(args[1]) == SQLITE_NULL) {
    return;  // an unbound value (or a type error) takes no part, as in min()/max()
  }
  auto* best = static_cast<Best*>(sqlite3_aggregate_context(context, sizeof(Best)));
  if (!best) return sqlite3_result_error_nomem(context);
  if (best->value) {
    const int order = Compare(args[0], best->value);
    if (kMax ? order <= 0 : order >= 0) return;
    sqlite3_value_free(best->value);
    sqlite3_value_free(best->id);
  }
  best->value = sqlite3_value_dup(args[0]);
  best->id = sqlite3_value_dup(args[1]);
  if (!best->value || !best->id) {
    sqlite3_value_free(best->value);
    sqlite3_value_free(best->id);
    best->value = best->id = nullptr;
    return sqlite3_result_error_nomem(context);
  }
}

void Final(sqlite3_context* context) {
  auto* best = static_cast<Best*>(sqlite3_aggregate_context(context, 0));
  if (!best || !best->value) return sqlite3_result_null(context);
  sqlite3_result_value(context, best->id);
  sqlite3_value_free(best->value);
  sqlite3_value_free(best->id);
  best->value = best->id = nullptr;
}

// quarry_term_output(id) / quarry_term_value(id): the SQL of TermOutputSql / TermValueSql run
// on the calling connection (user data: which of the two).
void TermLookup(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) return sqlite3_result_null(context);
  const bool output = sqlite3_user_data(context) != nullptr;
  const std::string sql = fmt::format(
      "SELECT {}", output ? schema::TermOutputSql("?1") : schema::TermValueSql("?1"));
  sqlite3_stmt* statement = nullptr;
  sqlite3* db = sqlite3_context_db_handle(context);
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    sqlite3_finalize(statement);
    return sqlite3_result_error(context, sqlite3_errmsg(db), -1);
  }
  sqlite3_bind_value(statement, 1, args[0]);  // an ID, or an unstored IRI's text form
  if (sqlite3_step(statement) == SQLITE_ROW) {
    sqlite3_result_value(context, sqlite3_column_value(statement, 0));
  } else {
    sqlite3_result_null(context);
  }
  sqlite3_finalize(statement);
}

// quarry_term_sum(output) / quarry_term_avg(output): SUM and AVG of open-mode terms, given in
// their output form ('L' + datatype + 0x1F + lexical), with XPath's numeric type promotion
// (§17.4, §18.5.1.3): integers sum to an xsd:integer, integers and decimals to an exact
// xsd:decimal, anything with a float or double to an xsd:double. AVG of integers and decimals is
// an xsd:decimal; of nothing, "0"^^xsd:integer, as is SUM. A value that is not a number is an
// error: the result is unbound. The result is an output form too. The decimals are those of
// sql_numeric_functions.h.
using numeric::Align;
using numeric::Decimal;
using numeric::DecimalText;
using numeric::DoubleText;
using numeric::IsIntegerType;
using numeric::kDecimalLimit;
using numeric::kMaxScale;
using numeric::kXsd;
using numeric::NumberType;
using numeric::ParseDecimal;
using numeric::Pow10;

struct NumericSum {
  NumberType type = NumberType::kInteger;
  Decimal exact;
  double approximate = 0;
  long long count = 0;
  bool error = false;
};

void AddNumber(NumericSum& sum, sqlite3_value* value) {
  if (sqlite3_value_type(value) != SQLITE_TEXT) {
    sum.error = true;  // an IRI, blank node or language-tagged string: not a number
    return;
  }
  const std::string_view text(reinterpret_cast<const char*>(sqlite3_value_text(value)),
                              static_cast<size_t>(sqlite3_value_bytes(value)));
  const size_t separator = text.find('\x1f');
  if (text.empty() || text[0] != 'L' || separator == std::string_view::npos ||
      text.substr(1, kXsd.size()) != kXsd) {
    sum.error = true;
    return;
  }
  const std::string_view local = text.substr(1 + kXsd.size(), separator - 1 - kXsd.size());
  const std::string lexical(text.substr(separator + 1));
  ++sum.count;
  if (local == "double" || local == "float") {
    char* end = nullptr;
    const double number = std::strtod(lexical.c_str(), &end);
    if (lexical.empty() || *end != '\0') {
      sum.error = true;
      return;
    }
    sum.type = NumberType::kDouble;
    sum.approximate += number;
    return;
  }
  const bool integer = IsIntegerType(local);
  if (!integer && local != "decimal") {
    sum.error = true;
    return;
  }
  const std::optional<Decimal> number = ParseDecimal(lexical);
  if (!number || (integer && number->scale > 0)) {
    sum.error = true;
    return;
  }
  if (!integer && sum.type == NumberType::kInteger) sum.type = NumberType::kDecimal;
  sum.approximate += static_cast<double>(number->unscaled) / static_cast<double>(Pow10(number->scale));
  const int scale = std::max(number->scale, sum.exact.scale);
  const std::optional<Decimal> a = Align(sum.exact, scale), b = Align(*number, scale);
  if (!a || !b || a->unscaled > kDecimalLimit || a->unscaled < -kDecimalLimit) {
    sum.type = NumberType::kDouble;  // past the exact range
    return;
  }
  sum.exact = Decimal{a->unscaled + b->unscaled, scale};
}

void NumericStep(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) return;  // unbound: takes no part
  // SQLite's aggregate context is 8-byte aligned, __int128 wants 16: copy in and out (the
  // zeroed context is a default NumericSum).
  void* state = sqlite3_aggregate_context(context, sizeof(NumericSum));
  if (!state) return sqlite3_result_error_nomem(context);
  NumericSum sum;
  std::memcpy(static_cast<void*>(&sum), state, sizeof(NumericSum));
  if (!sum.error) AddNumber(sum, args[0]);
  std::memcpy(state, static_cast<const void*>(&sum), sizeof(NumericSum));
}

void ResultTerm(sqlite3_context* context, std::string_view local, const std::string& lexical) {
  const std::string text = fmt::format("L{}{}\x1f{}", kXsd, local, lexical);
  sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void NumericFinal(sqlite3_context* context) {
  const bool average = sqlite3_user_data(context) != nullptr;
  void* state = sqlite3_aggregate_context(context, 0);
  NumericSum copy;
  if (state) std::memcpy(static_cast<void*>(&copy), state, sizeof(NumericSum));
  const NumericSum* sum = state ? &copy : nullptr;
  if (!sum || sum->count == 0) {
    if (sum && sum->error) return sqlite3_result_null(context);
    return ResultTerm(context, "integer", "0");
  }
  if (sum->error) return sqlite3_result_null(context);
  if (sum->type == NumberType::kDouble) {
    const double value = average ? sum->approximate / static_cast<double>(sum->count) : sum->approximate;
    return ResultTerm(context, "double", DoubleText(value));
  }
  if (!average) {
    return ResultTerm(context, sum->type == NumberType::kInteger ? "integer" : "decimal",
                      DecimalText(sum->exact));
  }
  // exact / count to kMaxScale places, rounded half away from zero.
  const std::optional<Decimal> scaled = Align(sum->exact, kMaxScale + 1);
  if (!scaled) {  // past the exact range: six fraction digits of the double average
    return ResultTerm(context, "decimal",
                      fmt::format("{:.6f}", sum->approximate / static_cast<double>(sum->count)));
  }
  __int128 quotient = scaled->unscaled / sum->count;
  quotient = (quotient + (quotient < 0 ? -5 : 5)) / 10;
  return ResultTerm(context, "decimal", DecimalText(Decimal{quotient, kMaxScale}));
}

}  // namespace

Result<void> RegisterAggregateFunctions(sqlite3* db) {
  static int output_tag = 1;
  for (const auto& [name, tag] : {std::pair{"quarry_term_output", static_cast<void*>(&output_tag)},
                                  std::pair{"quarry_term_value", static_cast<void*>(nullptr)}}) {
    if (sqlite3_create_function_v2(db, name, 1, SQLITE_UTF8, tag, TermLookup, nullptr, nullptr,
                                   nullptr) != SQLITE_OK) {
      return Error(Errc::kInternal, std::string("cannot register SQL function ") + name);
    }
  }
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
  for (const auto& [name, step] : {std::pair{"quarry_term_min", &Step<false>},
                                   std::pair{"quarry_term_max", &Step<true>}}) {
    if (sqlite3_create_function_v2(db, name, 2, flags, nullptr, nullptr, step, Final, nullptr) !=
        SQLITE_OK) {
      return Error(Errc::kInternal, std::string("cannot register SQL aggregate ") + name);
    }
  }
  static int average_tag = 1;
  for (const auto& [name, tag] : {std::pair{"quarry_term_sum", static_cast<void*>(nullptr)},
                                  std::pair{"quarry_term_avg", static_cast<void*>(&average_tag)}}) {
    if (sqlite3_create_function_v2(db, name, 1, flags, tag, nullptr, NumericStep, NumericFinal,
                                   nullptr) != SQLITE_OK) {
      return Error(Errc::kInternal, std::string("cannot register SQL aggregate ") + name);
    }
  }
  return Ok();
}

}  // namespace quarry::engine
