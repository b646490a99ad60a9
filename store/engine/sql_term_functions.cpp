// SPARQL functions on terms, numbers, dates and hashes (§17.4.1, 17.4.2, 17.4.4-17.4.6) whose
// argument types are only known when the query runs, plus casts and STRDT, which encode a
// lexical form the way the store keeps values of that type (SCHEMA.md).
#include <openssl/evp.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>

#include "store/common/datetime.h"
#include "store/engine/sql_function_util.h"
#include "store/ontology/ontology.h"
#include "store/schema/rdf_term.h"

namespace quarry::engine::sqlfn {
namespace {

using ontology::ValueType;

void Datatype(sqlite3_context* context, int, sqlite3_value** args) {
  switch (sqlite3_value_type(args[0])) {
    case SQLITE_INTEGER:
      return ResultText(context, "http://www.w3.org/2001/XMLSchema#integer");
    case SQLITE_FLOAT:
      return ResultText(context, "http://www.w3.org/2001/XMLSchema#double");
    case SQLITE_TEXT:
      return ResultText(context, "http://www.w3.org/2001/XMLSchema#string");
    case SQLITE_BLOB:
      return ResultText(context, "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString");
    default:
      return sqlite3_result_null(context);
  }
}

void ResultSqlValue(sqlite3_context* context, const schema::SqlValue& value) {
  if (const auto* integer = std::get_if<int64_t>(&value))
    return sqlite3_result_int64(context, *integer);
  if (const auto* real = std::get_if<double>(&value)) return sqlite3_result_double(context, *real);
  if (const auto* text = std::get_if<std::string>(&value)) return ResultText(context, *text);
  if (const auto* blob = std::get_if<schema::Blob>(&value)) {
    return sqlite3_result_blob(context, blob->bytes.data(), static_cast<int>(blob->bytes.size()),
                               SQLITE_TRANSIENT);
  }
  sqlite3_result_null(context);
}

// quarry_cast(value, value_type): a cast (xsd:integer(…)) or STRDT; arg 2 is an
// ontology::ValueType. Numbers convert numerically; text is parsed as a lexical form of the
// type. An invalid lexical form is a type error.
void Cast(sqlite3_context* context, int, sqlite3_value** args) {
  const auto type = static_cast<ValueType>(sqlite3_value_int(args[1]));
  const int from = sqlite3_value_type(args[0]);
  if (from == SQLITE_NULL || from == SQLITE_BLOB) return sqlite3_result_null(context);
  if (from == SQLITE_INTEGER || from == SQLITE_FLOAT) {
    const double number = sqlite3_value_double(args[0]);
    switch (type) {
      case ValueType::kInteger:
        if (!std::isfinite(number)) return sqlite3_result_null(context);
        return sqlite3_result_int64(context, from == SQLITE_INTEGER ? sqlite3_value_int64(args[0])
                                                                    : static_cast<int64_t>(number));
      case ValueType::kDouble:
        return sqlite3_result_double(context, number);
      case ValueType::kBoolean:
        return sqlite3_result_int(context, number != 0 && !std::isnan(number));
      case ValueType::kString:
      case ValueType::kLangString:
        return ResultText(context, ArgText(args[0]));
      default:
        return sqlite3_result_null(context);
    }
  }
  auto encoded = schema::EncodeLiteral(schema::RdfTerm::Literal(std::string(ArgText(args[0]))),
                                       type == ValueType::kLangString ? ValueType::kString : type);
  if (!encoded) return sqlite3_result_null(context);
  ResultSqlValue(context, *encoded);
}

enum class MathOp { kAbs = 0, kCeil = 1, kFloor = 2, kRound = 3 };

// ABS, CEIL, FLOOR, ROUND keep the numeric type; ROUND rounds halves up (fn:round).
void Math(sqlite3_context* context, int, sqlite3_value** args) {
  const auto op = static_cast<MathOp>(sqlite3_value_int(args[1]));
  const int type = sqlite3_value_type(args[0]);
  if (type == SQLITE_INTEGER) {
    const int64_t value = sqlite3_value_int64(args[0]);
    return sqlite3_result_int64(context, op == MathOp::kAbs && value < 0 ? -value : value);
  }
  if (type != SQLITE_FLOAT) return sqlite3_result_null(context);
  const double value = sqlite3_value_double(args[0]);
  switch (op) {
    case MathOp::kAbs:
      return sqlite3_result_double(context, std::fabs(value));
    case MathOp::kCeil:
      return sqlite3_result_double(context, std::ceil(value));
    case MathOp::kFloor:
      return sqlite3_result_double(context, std::floor(value));
    case MathOp::kRound:
      return sqlite3_result_double(context, std::floor(value + 0.5));
  }
  sqlite3_result_null(context);
}

// NOW(): the instant is taken once per statement execution and cached on the (constant)
// argument, so every row of one query sees the same value.
void Now(sqlite3_context* context, int, sqlite3_value**) {
  if (const auto* cached = static_cast<std::string*>(sqlite3_get_auxdata(context, 0))) {
    return ResultText(context, *cached);
  }
  sqlite3_int64 julian_ms = 0;
  sqlite3_vfs* vfs = sqlite3_vfs_find(nullptr);
  if (!vfs || vfs->iVersion < 2 || vfs->xCurrentTimeInt64(vfs, &julian_ms) != SQLITE_OK) {
    return sqlite3_result_error(context, "NOW(): the system clock cannot be read", -1);
  }
  constexpr sqlite3_int64 kUnixEpochJulianMs = 210866760000000;
  auto stored = EncodeUnixMicros((julian_ms - kUnixEpochJulianMs) * 1000);
  if (!stored) return sqlite3_result_error(context, stored.error().message().c_str(), -1);
  ResultText(context, *stored);
  sqlite3_set_auxdata(context, 0, std::make_unique<std::string>(std::move(*stored)).release(),
                      [](void* p) { delete static_cast<std::string*>(p); });
}

enum class Part { kYear, kMonth, kDay, kHours, kMinutes, kSeconds, kTimezone, kTz };

// A dateTime (stored form, decoded to its own zone) or date split into fields.
struct DateFields {
  int year = 0, month = 0, day = 0, hours = 0, minutes = 0;
  double seconds = 0;
  bool has_time = false;
  std::string zone;  // "", "Z", "+05:30"
};

bool ParseDateFields(std::string_view stored, DateFields* fields) {
  const std::string lexical = DecodeDateTime(stored);
  if (std::sscanf(lexical.c_str(), "%4d-%2d-%2d", &fields->year, &fields->month, &fields->day) !=
          3 ||
      lexical.size() < 10) {
    return false;
  }
  size_t zone_at = 10;
  if (lexical.size() > 10 && lexical[10] == 'T') {
    if (std::sscanf(lexical.c_str() + 11, "%2d:%2d:%lf", &fields->hours, &fields->minutes,
                    &fields->seconds) != 3) {
      return false;
    }
    fields->has_time = true;
    zone_at = 19;
    while (
        zone_at < lexical.size() &&
        (lexical[zone_at] == '.' || std::isdigit(static_cast<unsigned char>(lexical[zone_at])))) {
      ++zone_at;
    }
  }
  fields->zone = lexical.substr(std::min(zone_at, lexical.size()));
  return true;
}

// xsd:dayTimeDuration of a zone: "Z" -> "PT0S", "-05:30" -> "-PT5H30M".
std::string ZoneDuration(std::string_view zone) {
  if (zone == "Z") return "PT0S";
  const int hours = std::stoi(std::string(zone.substr(1, 2)));
  const int minutes = std::stoi(std::string(zone.substr(4, 2)));
  if (hours == 0 && minutes == 0) return "PT0S";
  std::string duration = zone[0] == '-' ? "-PT" : "PT";
  if (hours) duration += std::to_string(hours) + "H";
  if (minutes) duration += std::to_string(minutes) + "M";
  return duration;
}

void DatePart(sqlite3_context* context, int, sqlite3_value** args) {
  DateFields fields;
  if (sqlite3_value_type(args[0]) != SQLITE_TEXT || !ParseDateFields(ArgText(args[0]), &fields)) {
    return sqlite3_result_null(context);
  }
  const auto part = static_cast<Part>(sqlite3_value_int(args[1]));
  const bool needs_time = part == Part::kHours || part == Part::kMinutes || part == Part::kSeconds;
  if (needs_time && !fields.has_time) return sqlite3_result_null(context);
  switch (part) {
    case Part::kYear:
      return sqlite3_result_int(context, fields.year);
    case Part::kMonth:
      return sqlite3_result_int(context, fields.month);
    case Part::kDay:
      return sqlite3_result_int(context, fields.day);
    case Part::kHours:
      return sqlite3_result_int(context, fields.hours);
    case Part::kMinutes:
      return sqlite3_result_int(context, fields.minutes);
    case Part::kSeconds:
      return sqlite3_result_double(context, fields.seconds);
    case Part::kTimezone:
      if (fields.zone.empty()) return sqlite3_result_null(context);
      return ResultText(context, ZoneDuration(fields.zone));
    case Part::kTz:
      return ResultText(context, fields.zone);
  }
  sqlite3_result_null(context);
}

// MD5 … SHA512 of a simple literal, lower-case hex. Arg 2 is the OpenSSL digest name.
void Hash(sqlite3_context* context, int, sqlite3_value** args) {
  const auto value = AsString(args[0]);
  if (!value || !value->lang.empty()) return sqlite3_result_null(context);
  const EVP_MD* digest =
      EVP_get_digestbyname(reinterpret_cast<const char*>(sqlite3_value_text(args[1])));
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!digest ||
      EVP_Digest(value->text.data(), value->text.size(), hash, &size, digest, nullptr) != 1) {
    return sqlite3_result_error(context, "hash function unavailable in libcrypto", -1);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[hash[i] >> 4];
    hex += kHex[hash[i] & 0xF];
  }
  ResultText(context, hex);
}

// UUID() (arg 1: an IRI "urn:uuid:…") and STRUUID() (arg 0): random version-4 UUIDs.
void Uuid(sqlite3_context* context, int, sqlite3_value** args) {
  unsigned char bytes[16];
  sqlite3_randomness(sizeof bytes, bytes);
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0F) | 0x40);
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3F) | 0x80);
  char text[37];
  std::snprintf(text, sizeof text,
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  ResultText(context, (sqlite3_value_int(args[0]) ? "urn:uuid:" : "") + std::string(text));
}

// The effective boolean value (§17.2.2) of a value typed only at run time.
void Ebv(sqlite3_context* context, int, sqlite3_value** args) {
  switch (sqlite3_value_type(args[0])) {
    case SQLITE_INTEGER:
      return sqlite3_result_int(context, sqlite3_value_int64(args[0]) != 0);
    case SQLITE_FLOAT: {
      const double value = sqlite3_value_double(args[0]);
      return sqlite3_result_int(context, value != 0 && !std::isnan(value));
    }
    case SQLITE_TEXT:
    case SQLITE_BLOB:
      return sqlite3_result_int(context, !AsString(args[0])->text.empty());
    default:
      return sqlite3_result_null(context);
  }
}

}  // namespace

const std::vector<FunctionSpec>& TermFunctions() {
  static const std::vector<FunctionSpec> kFunctions = {
      {"quarry_datatype", 1, Datatype},  {"quarry_cast", 2, Cast},
      {"quarry_math", 2, Math},          {"quarry_now", 1, Now, false},
      {"quarry_date_part", 2, DatePart}, {"quarry_hash", 2, Hash},
      {"quarry_uuid", 1, Uuid, false},   {"quarry_ebv", 1, Ebv},
  };
  return kFunctions;
}

}  // namespace quarry::engine::sqlfn
