// XSD numbers for open mode (SCHEMA.md "Open mode"): the numeric tower xsd:integer ⊂
// xsd:decimal, xsd:float, xsd:double with XPath's type promotion (SPARQL 1.1 §17.3, XPath
// Functions §6.2), exact decimals, and the SQL functions that compute with numeric terms in their
// output form ('L' + datatype + 0x1F + lexical, store/schema/quad_table.h TermOutputSql):
//
//   quarry_term_arith(op, a, b)   a + - * / b (op 0..3); the result's datatype is the promoted
//                                 type of a and b (integer / integer is a decimal)
//   quarry_term_unary(op, a)      +a, -a, ABS, CEIL, FLOOR, ROUND (op 0..5), type kept
//   quarry_term_cast(local, a)    xsd:<local>(a) for integer, decimal, float, double
//   quarry_term_datatype(a)       the datatype IRI of any output form (DATATYPE)
//
// An operand that is not a number (or an invalid lexical form) is a type error: NULL.
// The aggregates SUM and AVG (sql_aggregate_functions.cpp) use the same decimals.
// Thread-safety: pure functions; the SQL functions run on the connection's thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/engine/sql_function_util.h"

namespace quarry::engine::numeric {

inline constexpr std::string_view kXsd = "http://www.w3.org/2001/XMLSchema#";

// In promotion order: a binary operation's result has the larger of its operands' types.
enum class NumberType { kInteger = 0, kDecimal = 1, kFloat = 2, kDouble = 3 };

// An exact decimal: unscaled / 10^scale. Values past ~1e30 are out of the exact range.
struct Decimal {
  __int128 unscaled = 0;
  int scale = 0;
};

inline constexpr int kMaxScale = 20;
inline constexpr __int128 kDecimalLimit =
    static_cast<__int128>(1000000000000000000LL) * 1000000000000LL;  // 1e30

__int128 Pow10(int n);
// A decimal lexical form ("-1.50", "+3", ".5"): no exponent.
std::optional<Decimal> ParseDecimal(std::string_view text);
// `value` with `scale` fraction digits (scale >= value.scale); nullopt past the exact range.
std::optional<Decimal> Align(Decimal value, int scale);
// No exponent; `strip` drops trailing zeros of the fraction ("3.0" -> "3"), else the scale is
// kept ("1.0" + 2 is "3.0").
std::string DecimalText(Decimal value, bool strip = true);
double DecimalToDouble(Decimal value);
// xsd:double's canonical form: "1.0E0", "-1.02E4"; xsd:float's at float precision.
std::string DoubleText(double value);
std::string FloatText(float value);
// An xsd:double / xsd:float lexical form: digits with an optional exponent, INF, -INF, NaN.
std::optional<double> ParseDouble(std::string_view text);
bool IsIntegerType(std::string_view local);

// A numeric value with its type: `exact` for integers and decimals, `approximate` for all.
struct Number {
  NumberType type = NumberType::kInteger;
  Decimal exact;
  double approximate = 0;
};

// The number a term's output form holds; nullopt when it is not a valid numeric literal.
std::optional<Number> ParseNumberTerm(std::string_view output);
// The output form of `number`; float and double results are written as SQLite's REAL values
// are (shortest form, "6" for 6.0), exact ones as DecimalText(strip).
std::string NumberTerm(const Number& number, bool strip = true);

enum class ArithOp { kAdd = 0, kSubtract = 1, kMultiply = 2, kDivide = 3 };
// nullopt: a type error (division of exact numbers by zero, a result past the exact range
// becomes a double instead).
std::optional<Number> Arith(ArithOp op, const Number& a, const Number& b);

enum class UnaryOp { kPlus = 0, kMinus = 1, kAbs = 2, kCeil = 3, kFloor = 4, kRound = 5 };
std::optional<Number> Unary(UnaryOp op, const Number& a);

// xsd:<local>(output form) for local integer, decimal, float or double: the output form of the
// result, nullopt for a value that does not convert.
std::optional<std::string> CastTerm(std::string_view local, std::string_view output);

}  // namespace quarry::engine::numeric

namespace quarry::engine::sqlfn {
const std::vector<FunctionSpec>& NumericFunctions();
}  // namespace quarry::engine::sqlfn
