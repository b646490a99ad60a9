// XSD numbers for open mode: see sql_numeric_functions.h.
#include "store/engine/sql_numeric_functions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace quarry::engine::numeric {
namespace {

__int128 Abs(__int128 value) { return value < 0 ? -value : value; }

bool InRange(__int128 value) { return value <= kDecimalLimit && value >= -kDecimalLimit; }

// Drops trailing zeros of the fraction: 1.50 -> 1.5, 3.0 -> 3.
Decimal Normalized(Decimal value) {
  while (value.scale > 0 && value.unscaled % 10 == 0) {
    value.unscaled /= 10;
    --value.scale;
  }
  return value;
}

// floor(unscaled / 10^scale) and ceil(...) as integers.
__int128 FloorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The shortest round-tripping scientific form of `value`: digits without the point, exponent of
// the first digit. `max_precision` 17 for double, 9 for float.
std::pair<std::string, int> ShortestDigits(double value, int max_precision, bool as_float) {
  std::string text;
  for (int precision = 1; precision <= max_precision; ++precision) {
    text = fmt::format("{:.{}e}", value, precision - 1);
    if (as_float ? std::strtof(text.c_str(), nullptr) == static_cast<float>(value)
                 : std::strtod(text.c_str(), nullptr) == value) {
      break;
    }
  }
  const size_t e = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (text[i] >= '0' && text[i] <= '9') digits.push_back(text[i]);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return {digits, std::atoi(text.c_str() + e + 1)};
}

std::string ScientificText(double value, int max_precision, bool as_float) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-INF" : "INF";
  if (value == 0) return std::signbit(value) ? "-0.0E0" : "0.0E0";
  const auto [digits, exponent] = ShortestDigits(std::fabs(value), max_precision, as_float);
  const std::string fraction = digits.size() > 1 ? digits.substr(1) : "0";
  return fmt::format("{}{}.{}E{}", value < 0 ? "-" : "", digits[0], fraction, exponent);
}

std::optional<Decimal> DecimalFromDouble(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  if (value == 0) return Decimal{};
  const auto [digits, exponent] = ShortestDigits(std::fabs(value), 17, false);
  Decimal result;
  for (const char c : digits) {
    if (!InRange(result.unscaled)) return std::nullopt;
    result.unscaled = result.unscaled * 10 + (c - '0');
  }
  // digits d1 d2 ... dn with the point after d1, times 10^exponent.
  int scale = static_cast<int>(digits.size()) - 1 - exponent;
  while (scale < 0) {
    if (!InRange(result.unscaled)) return std::nullopt;
    result.unscaled *= 10;
    ++scale;
  }
  while (scale > kMaxScale) {
    result.unscaled /= 10;
    --scale;
  }
  result.scale = scale;
  if (value < 0) result.unscaled = -result.unscaled;
  return Normalized(result);
}

Number Exact(NumberType type, Decimal value) {
  return Number{type, value, DecimalToDouble(value)};
}

Number Approximate(NumberType type, double value) {
  if (type == NumberType::kFloat) value = static_cast<double>(static_cast<float>(value));
  return Number{type, Decimal{}, value};
}

std::string LocalName(NumberType type) {
  switch (type) {
    case NumberType::kInteger: return "integer";
    case NumberType::kDecimal: return "decimal";
    case NumberType::kFloat: return "float";
    case NumberType::kDouble: return "double";
  }
  return "double";
}

std::string OutputForm(std::string_view local, std::string_view lexical) {
  return fmt::format("L{}{}\x1f{}", kXsd, local, lexical);
}

// The datatype's local name and the lexical form of an xsd literal's output form ('S' is an
// xsd:string); nullopt for anything else.
std::optional<std::pair<std::string_view, std::string_view>> XsdLiteral(std::string_view output) {
  if (output.empty()) return std::nullopt;
  if (output[0] == 'S') return std::pair{std::string_view("string"), output.substr(1)};
  const size_t separator = output.find('\x1f');
  if (output[0] != 'L' || separator == std::string_view::npos ||
      output.substr(1, kXsd.size()) != kXsd || separator < 1 + kXsd.size()) {
    return std::nullopt;
  }
  return std::pair{output.substr(1 + kXsd.size(), separator - 1 - kXsd.size()),
                   output.substr(separator + 1)};
}

std::optional<Decimal> ParseInteger(std::string_view text) {
  if (text.find('.') != std::string_view::npos) return std::nullopt;
  return ParseDecimal(text);
}

}  // namespace

__int128 Pow10(int n) {
  __int128 value = 1;
  for (int i = 0; i < n; ++i) value *= 10;
  return value;
}

std::optional<Decimal> ParseDecimal(std::string_view text) {
  Decimal result;
  bool negative = false, digits = false, point = false;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
    } else if (c >= '0' && c <= '9') {
      digits = true;
      if (point && result.scale >= kMaxScale) continue;  // digits past the precision dropped
      if (result.unscaled > kDecimalLimit) return std::nullopt;
      result.unscaled = result.unscaled * 10 + (c - '0');
      if (point) ++result.scale;
    } else {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  if (negative) result.unscaled = -result.unscaled;
  return result;
}

std::optional<Decimal> Align(Decimal value, int scale) {
  while (value.scale < scale) {
    if (!InRange(value.unscaled)) return std::nullopt;
    value.unscaled *= 10;
    ++value.scale;
  }
  return value;
}

std::string DecimalText(Decimal value, bool strip) {
  if (strip) value = Normalized(value);
  const bool negative = value.unscaled < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-value.unscaled)
                                         : static_cast<unsigned __int128>(value.unscaled);
  std::string reversed;  // least significant digit first
  for (int place = 0; magnitude > 0 || place <= value.scale; ++place) {
    if (place == value.scale && place > 0) reversed.push_back('.');
    reversed.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) reversed.push_back('-');
  return std::string(reversed.rbegin(), reversed.rend());
}

double DecimalToDouble(Decimal value) {
  return std::strtod(DecimalText(value, false).c_str(), nullptr);
}

std::string DoubleText(double value) { return ScientificText(value, 17, false); }

std::string FloatText(float value) { return ScientificText(static_cast<double>(value), 9, true); }

std::optional<double> ParseDouble(std::string_view text) {
  if (text == "INF" || text == "+INF") return HUGE_VAL;
  if (text == "-INF") return -HUGE_VAL;
  if (text == "NaN") return std::nan("");
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  bool digits = false, point = false;
  for (; i < text.size() && ((text[i] >= '0' && text[i] <= '9') || (text[i] == '.' && !point)); ++i) {
    if (text[i] == '.') point = true; else digits = true;
  }
  if (!digits) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const size_t exponent = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == exponent) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  return std::strtod(std::string(text).c_str(), nullptr);
}

bool IsIntegerType(std::string_view local) {
  for (std::string_view name : {"integer", "int", "long", "short", "byte", "nonNegativeInteger",
                                "nonPositiveInteger", "negativeInteger", "positiveInteger",
                                "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte"}) {
    if (local == name) return true;
  }
  return false;
}

std::optional<Number> ParseNumberTerm(std::string_view output) {
  const auto literal = XsdLiteral(output);
  if (!literal) return std::nullopt;
  const auto [local, lexical] = *literal;
  if (local == "double" || local == "float") {
    const std::optional<double> value = ParseDouble(lexical);
    if (!value) return std::nullopt;
    return Approximate(local == "float" ? NumberType::kFloat : NumberType::kDouble, *value);
  }
  const bool integer = IsIntegerType(local);
  if (!integer && local != "decimal") return std::nullopt;
  const std::optional<Decimal> value = integer ? ParseInteger(lexical) : ParseDecimal(lexical);
  if (!value) return std::nullopt;
  return Exact(integer ? NumberType::kInteger : NumberType::kDecimal, *value);
}

std::string NumberTerm(const Number& number, bool strip) {
  switch (number.type) {
    case NumberType::kInteger:
    case NumberType::kDecimal:
      return OutputForm(LocalName(number.type), DecimalText(number.exact, strip));
    case NumberType::kFloat:
    case NumberType::kDouble: {
      const double value = number.approximate;
      std::string lexical;
      if (std::isnan(value)) {
        lexical = "NaN";
      } else if (std::isinf(value)) {
        lexical = value < 0 ? "-INF" : "INF";
      } else if (number.type == NumberType::kFloat) {
        lexical = fmt::format("{}", static_cast<float>(value));
      } else {
        lexical = fmt::format("{}", value);
      }
      return OutputForm(LocalName(number.type), lexical);
    }
  }
  return {};
}

std::optional<Number> Arith(ArithOp op, const Number& a, const Number& b) {
  NumberType type = std::max(a.type, b.type);
  if (op == ArithOp::kDivide && type == NumberType::kInteger) type = NumberType::kDecimal;
  const auto approximate = [&](NumberType as) -> Number {
    const double x = a.approximate, y = b.approximate;
    switch (op) {
      case ArithOp::kAdd: return Approximate(as, x + y);
      case ArithOp::kSubtract: return Approximate(as, x - y);
      case ArithOp::kMultiply: return Approximate(as, x * y);
      case ArithOp::kDivide: return Approximate(as, x / y);
    }
    return Approximate(as, 0);
  };
  if (type == NumberType::kFloat || type == NumberType::kDouble) return approximate(type);
  // Exact: a result past the exact range is computed as a double.
  if (op == ArithOp::kAdd || op == ArithOp::kSubtract) {
    const int scale = std::max(a.exact.scale, b.exact.scale);
    const std::optional<Decimal> x = Align(a.exact, scale), y = Align(b.exact, scale);
    if (!x || !y) return approximate(NumberType::kDouble);
    const __int128 sum = op == ArithOp::kAdd ? x->unscaled + y->unscaled : x->unscaled - y->unscaled;
    if (!InRange(sum)) return approximate(NumberType::kDouble);
    return Exact(type, Decimal{sum, scale});
  }
  if (op == ArithOp::kMultiply) {
    __int128 product = 0;
    if (__builtin_mul_overflow(a.exact.unscaled, b.exact.unscaled, &product)) {
      return approximate(NumberType::kDouble);
    }
    Decimal result{product, a.exact.scale + b.exact.scale};
    while (result.scale > kMaxScale) {
      result.unscaled /= 10;
      --result.scale;
    }
    if (!InRange(result.unscaled)) return approximate(NumberType::kDouble);
    return Exact(type, result);
  }
  // Division: kMaxScale fraction digits, rounded half away from zero, trailing zeros dropped.
  if (b.exact.unscaled == 0) return std::nullopt;  // an error for exact numbers
  const int shift = kMaxScale + 1 + b.exact.scale - a.exact.scale;
  __int128 numerator = 0;
  if (shift < 0 || __builtin_mul_overflow(a.exact.unscaled, Pow10(shift), &numerator)) {
    return approximate(NumberType::kDouble);
  }
  __int128 quotient = numerator / b.exact.unscaled;
  quotient = (quotient + (quotient < 0 ? -5 : 5)) / 10;
  if (!InRange(quotient)) return approximate(NumberType::kDouble);
  return Exact(NumberType::kDecimal, Normalized(Decimal{quotient, kMaxScale}));
}

std::optional<Number> Unary(UnaryOp op, const Number& a) {
  if (op == UnaryOp::kPlus) return a;
  if (a.type == NumberType::kFloat || a.type == NumberType::kDouble) {
    const double x = a.approximate;
    switch (op) {
      case UnaryOp::kMinus: return Approximate(a.type, -x);
      case UnaryOp::kAbs: return Approximate(a.type, std::fabs(x));
      case UnaryOp::kCeil: return Approximate(a.type, std::ceil(x));
      case UnaryOp::kFloor: return Approximate(a.type, std::floor(x));
      case UnaryOp::kRound: return Approximate(a.type, std::floor(x + 0.5));
      default: return a;
    }
  }
  const Decimal x = a.exact;
  const __int128 unit = Pow10(x.scale);
  switch (op) {
    case UnaryOp::kMinus: return Exact(a.type, Decimal{-x.unscaled, x.scale});
    case UnaryOp::kAbs: return Exact(a.type, Decimal{Abs(x.unscaled), x.scale});
    case UnaryOp::kFloor: return Exact(a.type, Decimal{FloorDiv(x.unscaled, unit), 0});
    case UnaryOp::kCeil: return Exact(a.type, Decimal{-FloorDiv(-x.unscaled, unit), 0});
    case UnaryOp::kRound:  // fn:round: halves towards positive infinity
      return Exact(a.type, Decimal{FloorDiv(2 * x.unscaled + unit, 2 * unit), 0});
    default: return a;
  }
}

std::optional<std::string> CastTerm(std::string_view target, std::string_view output) {
  const auto literal = XsdLiteral(output);
  if (!literal) return std::nullopt;
  const auto [local, lexical] = *literal;
  std::optional<Number> source;
  if (local == "string") {
    if (target == "integer") {
      if (const auto value = ParseInteger(lexical)) source = Exact(NumberType::kInteger, *value);
    } else if (target == "decimal") {
      if (const auto value = ParseDecimal(lexical)) source = Exact(NumberType::kDecimal, *value);
    } else if (const auto value = ParseDouble(lexical)) {
      source = Approximate(NumberType::kDouble, *value);
    }
  } else if (local == "boolean") {
    if (lexical == "true" || lexical == "1") source = Exact(NumberType::kInteger, Decimal{1, 0});
    if (lexical == "false" || lexical == "0") source = Exact(NumberType::kInteger, Decimal{0, 0});
  } else {
    source = ParseNumberTerm(output);
  }
  if (!source) return std::nullopt;
  const bool exact = source->type == NumberType::kInteger || source->type == NumberType::kDecimal;
  if (target == "integer") {
    Decimal value;
    if (exact) {
      value = Decimal{source->exact.unscaled / Pow10(source->exact.scale), 0};  // towards zero
    } else {
      const double truncated = std::trunc(source->approximate);
      if (!std::isfinite(truncated) || std::fabs(truncated) > 9.2e18) return std::nullopt;
      value = Decimal{static_cast<long long>(truncated), 0};
    }
    return OutputForm("integer", DecimalText(value));
  }
  if (target == "decimal") {
    const std::optional<Decimal> value = exact ? source->exact : DecimalFromDouble(source->approximate);
    if (!value) return std::nullopt;
    return OutputForm("decimal", DecimalText(*value));
  }
  if (target == "float") return OutputForm("float", FloatText(static_cast<float>(source->approximate)));
  if (target == "double") return OutputForm("double", DoubleText(source->approximate));
  return std::nullopt;
}

}  // namespace quarry::engine::numeric

namespace quarry::engine::sqlfn {
namespace {

using numeric::Number;

std::optional<Number> NumberArg(sqlite3_value* value) {
  if (sqlite3_value_type(value) != SQLITE_TEXT) return std::nullopt;
  return numeric::ParseNumberTerm(ArgText(value));
}

void ResultNumber(sqlite3_context* context, const std::optional<Number>& number, bool strip) {
  if (!number) return sqlite3_result_null(context);
  ResultText(context, numeric::NumberTerm(*number, strip));
}

void ArithFunction(sqlite3_context* context, int, sqlite3_value** args) {
  const int op = sqlite3_value_int(args[0]);
  const std::optional<Number> a = NumberArg(args[1]), b = NumberArg(args[2]);
  if (!a || !b || op < 0 || op > 3) return sqlite3_result_null(context);
  // + - * keep the operands' scale ("1.0" + 2 is "3.0"); a quotient is written without the
  // trailing zeros of its 20 computed digits.
  ResultNumber(context, numeric::Arith(static_cast<numeric::ArithOp>(op), *a, *b), false);
}

void UnaryFunction(sqlite3_context* context, int, sqlite3_value** args) {
  const int op = sqlite3_value_int(args[0]);
  const std::optional<Number> a = NumberArg(args[1]);
  if (!a || op < 0 || op > 5) return sqlite3_result_null(context);
  ResultNumber(context, numeric::Unary(static_cast<numeric::UnaryOp>(op), *a), false);
}

void CastFunction(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[1]) != SQLITE_TEXT) return sqlite3_result_null(context);
  const std::optional<std::string> result = numeric::CastTerm(ArgText(args[0]), ArgText(args[1]));
  if (!result) return sqlite3_result_null(context);
  ResultText(context, *result);
}

void DatatypeFunction(sqlite3_context* context, int, sqlite3_value** args) {
  switch (sqlite3_value_type(args[0])) {
    case SQLITE_BLOB:
      return ResultText(context, "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString");
    case SQLITE_TEXT: break;
    default: return sqlite3_result_null(context);
  }
  const std::string_view text = ArgText(args[0]);
  if (text.empty()) return sqlite3_result_null(context);
  if (text[0] == 'S') return ResultText(context, std::string(numeric::kXsd) + "string");
  const size_t separator = text.find('\x1f');
  if (text[0] != 'L' || separator == std::string_view::npos) return sqlite3_result_null(context);
  ResultText(context, text.substr(1, separator - 1));
}

}  // namespace

const std::vector<FunctionSpec>& NumericFunctions() {
  static const std::vector<FunctionSpec> kFunctions = {
      {"quarry_term_arith", 3, ArithFunction},
      {"quarry_term_unary", 2, UnaryFunction},
      {"quarry_term_cast", 2, CastFunction},
      {"quarry_term_datatype", 1, DatatypeFunction},
  };
  return kFunctions;
}

}  // namespace quarry::engine::sqlfn
