#include "store/common/datetime.h"

#include <fmt/format.h>

#include <cstdlib>
#include <optional>

namespace quarry {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;
constexpr int kMaxOffsetMinutes = 14 * 60;

// A calendar date and wall-clock time, proleptic Gregorian.
struct Civil {
  int64_t year = 1970;
  int month = 1;
  int day = 1;
  int hour = 0;
  int minute = 0;
  int second = 0;
  int micro = 0;
};

enum class ZoneKind { kNone, kUtc, kOffset };
struct Zone {
  ZoneKind kind = ZoneKind::kNone;
  int minutes = 0;  // east of UTC; 0 unless kOffset
};

bool IsLeapYear(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Howard Hinnant's days_from_civil / civil_from_days: exact for any proleptic Gregorian date.
constexpr int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

int64_t FloorDiv(int64_t value, int64_t divisor) {
  const int64_t quotient = value / divisor;
  return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

int64_t ToMicros(const Civil& civil) {
  const int64_t seconds = (civil.hour * 60 + civil.minute) * 60 + civil.second;
  return DaysFromCivil(civil.year, civil.month, civil.day) * kMicrosPerDay +
         seconds * kMicrosPerSecond + civil.micro;
}

Civil FromMicros(int64_t micros) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  Civil civil;
  civil.micro = static_cast<int>(rest % kMicrosPerSecond);
  rest /= kMicrosPerSecond;
  civil.second = static_cast<int>(rest % 60);
  civil.minute = static_cast<int>(rest / 60 % 60);
  civil.hour = static_cast<int>(rest / 3600);

  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t day_of_era = z - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;
  civil.day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  civil.month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  civil.year = year_of_era + era * 400 + (civil.month <= 2);
  return civil;
}

// Reads a lexical form left to right; every Read* reports failure with a reason.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ == text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char expected) {
    if (Peek() != expected) return false;
    ++pos_;
    return true;
  }
  size_t DigitsAhead() const {
    size_t end = pos_;
    while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') ++end;
    return end - pos_;
  }
  // Exactly `count` digits, or nullopt (nothing consumed).
  std::optional<int> Digits(size_t count) {
    if (DigitsAhead() < count) return std::nullopt;
    int value = 0;
    for (size_t i = 0; i < count; ++i) value = value * 10 + (text_[pos_++] - '0');
    return value;
  }
  void Skip(size_t count) { pos_ += count; }
  std::string_view Rest() const { return text_.substr(pos_); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// What went wrong, or nullopt; the caller adds the type and the whole literal.
using Problem = std::optional<std::string>;

Problem ReadField(Scanner& in, size_t width, int min, int max, std::string_view name,
                  char separator, int* out) {
  const std::optional<int> value = in.Digits(width);
  if (!value) return fmt::format("expected {} digits for the {}", width, name);
  if (*value < min || *value > max) {
    return fmt::format("{} {:0{}} is out of range {:0{}}-{:0{}}", name, *value, width, min, width,
                       max, width);
  }
  if (separator != '\0' && !in.Consume(separator)) {
    return fmt::format("expected '{}' after the {}", separator, name);
  }
  *out = *value;
  return std::nullopt;
}

// YYYY-MM-DD, with the year limits the stored form can hold.
Problem ReadDate(Scanner& in, Civil* civil) {
  if (in.Peek() == '-') return "negative years are not supported";
  const size_t year_digits = in.DigitsAhead();
  if (year_digits > 4) {
    return in.Peek() == '0' ? "a year of more than four digits cannot start with 0"
                            : "years after 9999 are not supported";
  }
  int year = 0;
  if (year_digits < 4) return "the year needs four digits";
  if (Problem problem = ReadField(in, 4, 0, 9999, "year", '-', &year)) return problem;
  if (year == 0) return "year 0000 is not supported";
  civil->year = year;
  if (Problem problem = ReadField(in, 2, 1, 12, "month", '-', &civil->month)) return problem;
  const int last_day = DaysInMonth(year, civil->month);
  if (Problem problem = ReadField(in, 2, 1, 31, "day", '\0', &civil->day)) return problem;
  if (civil->day > last_day) {
    return fmt::format("day {:02} does not exist in {:04}-{:02}", civil->day, year, civil->month);
  }
  return std::nullopt;
}

// Digits after the '.', truncated to microseconds.
Problem ReadFraction(Scanner& in, int* micro) {
  const size_t digits = in.DigitsAhead();
  if (digits == 0) return "expected digits after '.'";
  const std::optional<int> kept = in.Digits(digits < 6 ? digits : 6);
  int value = *kept;
  for (size_t i = digits; i < 6; ++i) value *= 10;
  if (digits > 6) in.Skip(digits - 6);
  *micro = value;
  return std::nullopt;
}

// HH:MM:SS[.f+]; 24:00:00 is returned as hour 24.
Problem ReadTime(Scanner& in, Civil* civil) {
  if (Problem problem = ReadField(in, 2, 0, 24, "hour", ':', &civil->hour)) return problem;
  if (Problem problem = ReadField(in, 2, 0, 59, "minute", ':', &civil->minute)) return problem;
  if (in.DigitsAhead() >= 2 && in.Rest().substr(0, 2) == "60") {
    return "xsd:dateTime has no leap seconds (second 60)";
  }
  if (Problem problem = ReadField(in, 2, 0, 59, "second", '\0', &civil->second)) return problem;
  if (in.Consume('.')) {
    if (Problem problem = ReadFraction(in, &civil->micro)) return problem;
  }
  if (civil->hour == 24 && (civil->minute != 0 || civil->second != 0 || civil->micro != 0)) {
    return "hour 24 is only allowed as 24:00:00";
  }
  return std::nullopt;
}

// Z, +HH:MM, -HH:MM or nothing; then the end of the text.
Problem ReadZone(Scanner& in, Zone* zone) {
  if (in.Consume('Z')) {
    *zone = {ZoneKind::kUtc, 0};
  } else if (in.Peek() == '+' || in.Peek() == '-') {
    const int sign = in.Peek() == '-' ? -1 : 1;
    in.Consume(in.Peek());
    int hours = 0;
    int minutes = 0;
    if (Problem problem = ReadField(in, 2, 0, 14, "zone hour", ':', &hours)) return problem;
    if (Problem problem = ReadField(in, 2, 0, 59, "zone minute", '\0', &minutes)) return problem;
    if (hours == 14 && minutes != 0) return "zone offsets go up to 14:00";
    const int total = sign * (hours * 60 + minutes);
    // +00:00 and -00:00 are the same zone as Z, whose canonical form is Z.
    *zone = total == 0 ? Zone{ZoneKind::kUtc, 0} : Zone{ZoneKind::kOffset, total};
  }
  if (!in.AtEnd()) return fmt::format("unexpected \"{}\" at the end", in.Rest());
  return std::nullopt;
}

std::string_view TrimSpace(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

Error Invalid(std::string_view type, std::string_view lexical, std::string_view problem) {
  return Error(Errc::kParse, fmt::format("invalid {} \"{}\": {}", type, lexical, problem));
}

// Appends `value` (0 <= value < 10^width) as exactly `width` decimal digits. The codecs write
// their fixed-width fields with this rather than fmt::format: a query returning 20,000
// dateTimes formatted each through fmt's type-erased vformat (~4,000 instructions a value, the
// stored form parsed back included), decoding with these ~630 (restart2, session 21).
void AppendDigits(std::string& out, int64_t value, int width) {
  char digits[8];
  for (int i = width - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out.append(digits, static_cast<size_t>(width));
}

// "YYYY-MM-DDTHH:MM:SS" of `civil` (year 0000-9999).
void AppendDateAndTime(std::string& out, const Civil& civil) {
  AppendDigits(out, civil.year, 4);
  out += '-';
  AppendDigits(out, civil.month, 2);
  out += '-';
  AppendDigits(out, civil.day, 2);
  out += 'T';
  AppendDigits(out, civil.hour, 2);
  out += ':';
  AppendDigits(out, civil.minute, 2);
  out += ':';
  AppendDigits(out, civil.second, 2);
}

void AppendZoneSuffix(std::string& out, int offset_minutes) {
  const int magnitude = std::abs(offset_minutes);
  out += offset_minutes < 0 ? '-' : '+';
  AppendDigits(out, magnitude / 60, 2);
  out += ':';
  AppendDigits(out, magnitude % 60, 2);
}

// The stored form of `utc_micros` written in `zone`; nullopt when the UTC year is outside
// 0000-9999 (fixed width needs four digits; 0000 occurs for 0001-01-01 with a positive offset).
std::optional<std::string> FormatStored(int64_t utc_micros, const Zone& zone) {
  const Civil utc = FromMicros(utc_micros);
  if (utc.year < 0 || utc.year > 9999) return std::nullopt;
  std::string stored;
  stored.reserve(kStoredDateTimeUtcLength + 6);
  AppendDateAndTime(stored, utc);
  stored += '.';
  AppendDigits(stored, utc.micro, 6);
  stored += 'Z';
  if (zone.kind == ZoneKind::kOffset) AppendZoneSuffix(stored, zone.minutes);
  if (zone.kind == ZoneKind::kNone) stored += 'L';
  return stored;
}

struct StoredValue {
  int64_t utc_micros = 0;
  Zone zone;
};

// Fixed positions of "YYYY-MM-DDTHH:MM:SS.ffffffZ".
std::optional<StoredValue> ParseStored(std::string_view stored) {
  if (stored.size() < kStoredDateTimeUtcLength) return std::nullopt;
  constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:dd.ddddddZ";
  for (size_t i = 0; i < kShape.size(); ++i) {
    const char c = stored[i];
    if (kShape[i] == 'd' ? (c < '0' || c > '9') : c != kShape[i]) return std::nullopt;
  }
  const auto number = [&](size_t pos, size_t width) {
    int value = 0;
    for (size_t i = pos; i < pos + width; ++i) value = value * 10 + (stored[i] - '0');
    return value;
  };
  const Civil utc{number(0, 4),  number(5, 2),  number(8, 2), number(11, 2),
                  number(14, 2), number(17, 2), number(20, 6)};
  if (utc.month < 1 || utc.month > 12 || utc.day < 1 ||
      utc.day > DaysInMonth(utc.year, utc.month) || utc.hour > 23 || utc.minute > 59 ||
      utc.second > 59) {
    return std::nullopt;
  }
  StoredValue value{ToMicros(utc), {ZoneKind::kUtc, 0}};
  const std::string_view suffix = stored.substr(kStoredDateTimeUtcLength);
  if (suffix == "L") {
    value.zone = {ZoneKind::kNone, 0};
  } else if (!suffix.empty()) {
    Scanner in(suffix);
    if (suffix[0] != '+' && suffix[0] != '-') return std::nullopt;
    if (ReadZone(in, &value.zone) || value.zone.kind != ZoneKind::kOffset) return std::nullopt;
  }
  return value;
}

}  // namespace

Result<std::string> EncodeDateTime(std::string_view lexical) {
  constexpr std::string_view kType = "xsd:dateTime";
  const std::string_view text = TrimSpace(lexical);
  Scanner in(text);
  Civil civil;
  Zone zone;
  if (Problem problem = ReadDate(in, &civil)) return Invalid(kType, text, *problem);
  if (!in.Consume('T')) return Invalid(kType, text, "expected 'T' between date and time");
  if (Problem problem = ReadTime(in, &civil)) return Invalid(kType, text, *problem);
  if (Problem problem = ReadZone(in, &zone)) return Invalid(kType, text, *problem);

  const bool end_of_day = civil.hour == 24;
  if (end_of_day) civil.hour = 0;
  const int64_t local = ToMicros(civil) + (end_of_day ? kMicrosPerDay : 0);
  std::optional<std::string> stored =
      FormatStored(local - int64_t{zone.minutes} * 60 * kMicrosPerSecond, zone);
  if (!stored) return Invalid(kType, text, "the instant is after 9999-12-31T23:59:59Z");
  return std::move(*stored);
}

void DecodeDateTimeTo(std::string_view stored, std::string& out) {
  const std::optional<StoredValue> value = ParseStored(stored);
  if (value && value->zone.kind != ZoneKind::kOffset) {
    // Written in UTC or without zone: the local fields are the stored ones, copied as they are
    // (year 0000 is no lexical form: returned unchanged as below).
    if (stored.substr(0, 4) == "0000") {
      out.assign(stored);
      return;
    }
    constexpr size_t kFraction = 20;  // "YYYY-MM-DDTHH:MM:SS." then six digits
    size_t end = kFraction + 6;
    while (end > kFraction && stored[end - 1] == '0') --end;
    out.assign(stored.substr(0, end > kFraction ? end : kFraction - 1));
    if (value->zone.kind == ZoneKind::kUtc) out += 'Z';
    return;
  }
  const Civil local = value ? FromMicros(value->utc_micros +
                                         int64_t{value->zone.minutes} * 60 * kMicrosPerSecond)
                            : Civil{};
  if (!value || local.year < 1 || local.year > 9999) {
    out.assign(stored);
    return;
  }
  out.clear();
  AppendDateAndTime(out, local);
  if (local.micro != 0) {
    out += '.';
    AppendDigits(out, local.micro, 6);
    while (out.back() == '0') out.pop_back();
  }
  if (value->zone.kind == ZoneKind::kUtc) out += 'Z';
  if (value->zone.kind == ZoneKind::kOffset) AppendZoneSuffix(out, value->zone.minutes);
}

std::string DecodeDateTime(std::string_view stored) {
  std::string lexical;
  lexical.reserve(kStoredDateTimeUtcLength + 6);
  DecodeDateTimeTo(stored, lexical);
  return lexical;
}

Result<int64_t> UnixMicros(std::string_view stored) {
  const std::optional<StoredValue> value = ParseStored(stored);
  if (!value) {
    return Error(Errc::kCorrupt, fmt::format("\"{}\" is not a stored xsd:dateTime", stored));
  }
  return value->utc_micros;
}

namespace {

// The digits at [at, at + count) as a number; -1 when one is not a digit.
int FixedDigits(std::string_view text, size_t at, size_t count) {
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// "YYYY-MM-DDTHH:MM:SS[.f{1,6}][Z]" read in place; nullopt for anything else (offsets, longer
// fractions, 24:00:00, a date that does not exist), which the full codec then answers.
std::optional<int64_t> CommonLexicalMicros(std::string_view text) {
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  Civil civil;
  civil.year = FixedDigits(text, 0, 4);
  civil.month = FixedDigits(text, 5, 2);
  civil.day = FixedDigits(text, 8, 2);
  civil.hour = FixedDigits(text, 11, 2);
  civil.minute = FixedDigits(text, 14, 2);
  civil.second = FixedDigits(text, 17, 2);
  if (civil.year < 1 || civil.month < 1 || civil.month > 12 || civil.day < 1 ||
      civil.day > DaysInMonth(civil.year, civil.month) || civil.hour < 0 || civil.hour > 23 ||
      civil.minute < 0 || civil.minute > 59 || civil.second < 0 || civil.second > 59) {
    return std::nullopt;
  }
  size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    const size_t digits_from = ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      civil.micro = civil.micro * 10 + (text[at++] - '0');
    }
    const size_t digits = at - digits_from;
    if (digits == 0 || digits > 6) return std::nullopt;
    for (size_t i = digits; i < 6; ++i) civil.micro *= 10;
  }
  if (at < text.size() && text[at] == 'Z') ++at;
  if (at != text.size()) return std::nullopt;
  return ToMicros(civil);
}

}  // namespace

Result<int64_t> LexicalUnixMicros(std::string_view lexical) {
  if (const std::optional<int64_t> micros = CommonLexicalMicros(lexical)) return *micros;
  QUARRY_ASSIGN_OR_RETURN(const std::string stored, EncodeDateTime(lexical));
  return UnixMicros(stored);
}

Result<std::string> EncodeUnixMicros(int64_t micros, int offset_minutes) {
  if (std::abs(offset_minutes) > kMaxOffsetMinutes) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("zone offset of {} minutes is beyond ±14:00", offset_minutes));
  }
  const Zone zone =
      offset_minutes == 0 ? Zone{ZoneKind::kUtc, 0} : Zone{ZoneKind::kOffset, offset_minutes};
  // Both the UTC form and the local year (what DecodeDateTime prints) must fit four digits.
  constexpr int64_t kMinLocal = DaysFromCivil(1, 1, 1) * kMicrosPerDay;
  constexpr int64_t kEndLocal = (DaysFromCivil(9999, 12, 31) + 1) * kMicrosPerDay;
  const int64_t offset_micros = int64_t{offset_minutes} * 60 * kMicrosPerSecond;
  std::optional<std::string> stored;
  if (micros >= kMinLocal - offset_micros && micros < kEndLocal - offset_micros) {
    stored = FormatStored(micros, zone);
  }
  if (!stored) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("Unix time {} µs is outside years 0001-9999", micros));
  }
  return std::move(*stored);
}

Result<std::string> EncodeUnixTime(int64_t seconds, int offset_minutes) {
  constexpr int64_t kLimit = INT64_MAX / kMicrosPerSecond;
  if (seconds > kLimit || seconds < -kLimit) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("Unix time {} s is outside years 0001-9999", seconds));
  }
  return EncodeUnixMicros(seconds * kMicrosPerSecond, offset_minutes);
}

Result<std::string> EncodeDate(std::string_view lexical) {
  constexpr std::string_view kType = "xsd:date";
  const std::string_view text = TrimSpace(lexical);
  Scanner in(text);
  Civil civil;
  Zone zone;
  if (Problem problem = ReadDate(in, &civil)) return Invalid(kType, text, *problem);
  if (Problem problem = ReadZone(in, &zone)) return Invalid(kType, text, *problem);
  std::string stored = fmt::format("{:04}-{:02}-{:02}", civil.year, civil.month, civil.day);
  if (zone.kind == ZoneKind::kUtc) stored += 'Z';
  if (zone.kind == ZoneKind::kOffset) AppendZoneSuffix(stored, zone.minutes);
  return stored;
}

}  // namespace quarry
