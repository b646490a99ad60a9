// The xsd:dateTime / xsd:date codecs: stored forms, canonical read-back, errors, and ordering.
#include "store/common/datetime.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

namespace quarry {
namespace {

struct RoundTrip {
  std::string_view lexical;
  std::string_view stored;
  std::string_view canonical;
};

TEST_CASE("EncodeDateTime: stored form and canonical read-back") {
  constexpr RoundTrip kCases[] = {
      {"2024-03-05T10:20:30Z", "2024-03-05T10:20:30.000000Z", "2024-03-05T10:20:30Z"},
      {"2024-03-05T10:20:30+02:00", "2024-03-05T08:20:30.000000Z+02:00",
       "2024-03-05T10:20:30+02:00"},
      {"2024-03-05T01:20:30+02:00", "2024-03-04T23:20:30.000000Z+02:00",
       "2024-03-05T01:20:30+02:00"},
      {"2024-12-31T22:00:00-05:30", "2025-01-01T03:30:00.000000Z-05:30",
       "2024-12-31T22:00:00-05:30"},
      {"2024-03-05T10:20:30", "2024-03-05T10:20:30.000000ZL", "2024-03-05T10:20:30"},
      {"2024-03-05T10:20:30.5Z", "2024-03-05T10:20:30.500000Z", "2024-03-05T10:20:30.5Z"},
      {"2024-03-05T10:20:30.000Z", "2024-03-05T10:20:30.000000Z", "2024-03-05T10:20:30Z"},
      {"2024-03-05T10:20:30.120Z", "2024-03-05T10:20:30.120000Z", "2024-03-05T10:20:30.12Z"},
      {"2024-03-05T10:20:30.000001Z", "2024-03-05T10:20:30.000001Z", "2024-03-05T10:20:30.000001Z"},
      // More than six digits: truncated to microseconds, never rounded up.
      {"2024-03-05T10:20:30.1234569999Z", "2024-03-05T10:20:30.123456Z",
       "2024-03-05T10:20:30.123456Z"},
      {"2024-03-05T23:59:59.9999999Z", "2024-03-05T23:59:59.999999Z",
       "2024-03-05T23:59:59.999999Z"},
      // 24:00:00 is the first instant of the next day.
      {"2024-12-31T24:00:00Z", "2025-01-01T00:00:00.000000Z", "2025-01-01T00:00:00Z"},
      {"2024-02-28T24:00:00.000+01:00", "2024-02-28T23:00:00.000000Z+01:00",
       "2024-02-29T00:00:00+01:00"},
      {"2024-02-29T12:00:00-05:30", "2024-02-29T17:30:00.000000Z-05:30",
       "2024-02-29T12:00:00-05:30"},
      {"2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000000Z", "2000-02-29T00:00:00Z"},
      // Zero offsets are the same zone as Z.
      {"2024-01-01T00:00:00+00:00", "2024-01-01T00:00:00.000000Z", "2024-01-01T00:00:00Z"},
      {"2024-01-01T00:00:00-00:00", "2024-01-01T00:00:00.000000Z", "2024-01-01T00:00:00Z"},
      {"2024-01-01T00:00:00+14:00", "2023-12-31T10:00:00.000000Z+14:00",
       "2024-01-01T00:00:00+14:00"},
      {"2024-01-01T00:00:00-14:00", "2024-01-01T14:00:00.000000Z-14:00",
       "2024-01-01T00:00:00-14:00"},
      {"1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.500000Z", "1969-12-31T23:59:59.5Z"},
      // The extremes: year 0001 with an eastern offset is in UTC year 0000.
      {"0001-01-01T00:00:00+14:00", "0000-12-31T10:00:00.000000Z+14:00",
       "0001-01-01T00:00:00+14:00"},
      {"0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000Z", "0001-01-01T00:00:00Z"},
      {"9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z"},
      {"  2024-03-05T10:20:30Z\n", "2024-03-05T10:20:30.000000Z", "2024-03-05T10:20:30Z"},
  };
  for (const RoundTrip& example : kCases) {
    CAPTURE(example.lexical);
    const Result<std::string> stored = EncodeDateTime(example.lexical);
    REQUIRE(stored.ok());
    CHECK(*stored == example.stored);
    CHECK(DecodeDateTime(*stored) == example.canonical);
    // The canonical form encodes to the same stored form.
    CHECK(EncodeDateTime(example.canonical).value() == example.stored);
  }
}

struct Invalid {
  std::string_view lexical;
  std::string_view reason;
};

TEST_CASE("EncodeDateTime: invalid forms are kParse errors that say what is wrong") {
  constexpr Invalid kCases[] = {
      {"2023-02-29T00:00:00Z", "day 29 does not exist in 2023-02"},
      {"1900-02-29T00:00:00Z", "day 29 does not exist in 1900-02"},
      {"2024-04-31T00:00:00Z", "day 31 does not exist in 2024-04"},
      {"2024-13-01T00:00:00Z", "month 13 is out of range 01-12"},
      {"2024-00-10T00:00:00Z", "month 00 is out of range 01-12"},
      {"2024-01-00T00:00:00Z", "day 00 is out of range 01-31"},
      {"2024-1-01T00:00:00Z", "expected 2 digits for the month"},
      {"2024-01-01T25:00:00Z", "hour 25 is out of range 00-24"},
      {"2024-01-01T24:00:01Z", "only allowed as 24:00:00"},
      {"2024-01-01T24:00:00.5Z", "only allowed as 24:00:00"},
      {"2024-01-01T23:60:00Z", "minute 60 is out of range"},
      {"2024-12-31T23:59:60Z", "no leap seconds"},
      {"2024-01-01T10:00Z", "expected ':' after the minute"},
      {"2024-01-01T10:00:00.Z", "expected digits after '.'"},
      {"2024-01-01T10:00:00+15:00", "zone hour 15 is out of range 00-14"},
      {"2024-01-01T10:00:00+14:30", "zone offsets go up to 14:00"},
      {"2024-01-01T10:00:00+0200", "expected ':' after the zone hour"},
      {"2024-01-01T10:00:00Zjunk", "unexpected \"junk\" at the end"},
      {"2024-01-01T10:00:00 Z", "unexpected \" Z\" at the end"},
      {"2024-01-01 10:00:00Z", "expected 'T' between date and time"},
      {"2024-01-01", "expected 'T' between date and time"},
      {"-0044-03-15T12:00:00Z", "negative years are not supported"},
      {"12024-01-01T00:00:00Z", "years after 9999 are not supported"},
      {"02024-01-01T00:00:00Z", "cannot start with 0"},
      {"0000-01-01T00:00:00Z", "year 0000 is not supported"},
      {"024-01-01T00:00:00Z", "the year needs four digits"},
      {"", "the year needs four digits"},
      {"9999-12-31T24:00:00Z", "after 9999-12-31T23:59:59Z"},
      {"9999-12-31T23:00:00-02:00", "after 9999-12-31T23:59:59Z"},
  };
  for (const Invalid& example : kCases) {
    CAPTURE(example.lexical);
    const Result<std::string> stored = EncodeDateTime(example.lexical);
    REQUIRE_FALSE(stored.ok());
    CHECK(stored.error().code() == Errc::kParse);
    const std::string& message = stored.error().message();
    CHECK(message.find("invalid xsd:dateTime") == 0);
    CHECK(message.find(example.reason) != std::string::npos);
  }
}

TEST_CASE("DecodeDateTime: text that is not a stored form comes back unchanged") {
  for (const std::string_view text :
       {"", "garbage", "2024-03-05", "2024-03-05T10:20:30Z", "2024-13-05T10:20:30.000000Z",
        "2024-03-05T10:20:30.000000Z+2:00", "2024-03-05T10:20:30.000000Z+00:00",
        "2024-03-05T10:20:30.000000ZX"}) {
    CAPTURE(text);
    CHECK(DecodeDateTime(text) == text);
    CHECK(UnixMicros(text).ok() == false);
  }
  CHECK(UnixMicros("garbage").error().code() == Errc::kCorrupt);
}

TEST_CASE("UnixMicros and EncodeUnixTime") {
  CHECK(UnixMicros("1970-01-01T00:00:00.000000Z").value() == 0);
  CHECK(UnixMicros("1969-12-31T23:59:59.500000Z").value() == -500'000);
  CHECK(UnixMicros("2023-11-14T22:13:20.000001Z+01:00").value() == 1'700'000'000'000'001);
  CHECK(UnixMicros("2023-11-14T22:13:20.000000ZL").value() == 1'700'000'000'000'000);

  CHECK(EncodeUnixTime(0).value() == "1970-01-01T00:00:00.000000Z");
  const std::string stored = EncodeUnixTime(1'700'000'000, 60).value();
  CHECK(stored == "2023-11-14T22:13:20.000000Z+01:00");
  CHECK(DecodeDateTime(stored) == "2023-11-14T23:13:20+01:00");
  CHECK(EncodeUnixMicros(-1, -90).value() == "1969-12-31T23:59:59.999999Z-01:30");

  CHECK(EncodeUnixTime(0, 15 * 60).error().code() == Errc::kInvalidArgument);
  CHECK(EncodeUnixTime(INT64_MAX).error().code() == Errc::kInvalidArgument);
  CHECK(EncodeUnixTime(INT64_MIN).error().code() == Errc::kInvalidArgument);
  CHECK(EncodeUnixTime(253'402'300'800).error().code() == Errc::kInvalidArgument);  // year 10000
  CHECK(EncodeUnixTime(253'402'300'799).value() == "9999-12-31T23:59:59.000000Z");
  // The local year must stay 0001-9999 too, or the value could not be read back.
  CHECK(EncodeUnixTime(-62'135'596'800, -60).error().code() == Errc::kInvalidArgument);
  CHECK(EncodeUnixTime(-62'135'596'800, 60).value() == "0001-01-01T00:00:00.000000Z+01:00");
}

// The reference: std::chrono's civil calendar and fmt, apart from the codec's own digit writer.
std::string ReferenceFields(int64_t micros, std::string_view fraction_format) {
  using namespace std::chrono;
  const sys_time<microseconds> instant{microseconds{micros}};
  const sys_days day = floor<days>(instant);
  const year_month_day ymd{day};
  const hh_mm_ss<microseconds> time{instant - day};
  std::string text = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", int{ymd.year()},
                                 unsigned{ymd.month()}, unsigned{ymd.day()}, time.hours().count(),
                                 time.minutes().count(), time.seconds().count());
  return text + fmt::format(fmt::runtime(fraction_format), time.subseconds().count());
}

std::string ReferenceZone(int offset_minutes) {
  if (offset_minutes == 0) return "Z";
  const int magnitude = std::abs(offset_minutes);
  return fmt::format("{}{:02}:{:02}", offset_minutes < 0 ? '-' : '+', magnitude / 60, magnitude % 60);
}

TEST_CASE("EncodeUnixMicros and DecodeDateTime(To): every field as the civil calendar writes it") {
  std::mt19937_64 random(21);
  // Years 0002-9998 UTC, so that every offset keeps the local year within 0001-9999.
  std::uniform_int_distribution<int64_t> instants(-62'104'060'800'000'000, 253'370'764'800'000'000);
  std::uniform_int_distribution<int> offsets(-14 * 60, 14 * 60);
  std::string buffer = "a longer value left over from a previous row, and more";
  for (int i = 0; i < 4000; ++i) {
    int64_t micros = instants(random);
    if (i % 4 == 0) micros -= micros % 1'000'000;  // whole seconds: no fraction in the lexical form
    if (i % 4 == 1) micros -= micros % 1'000;      // trailing zeros to trim
    const int offset = i % 3 == 0 ? 0 : offsets(random);
    CAPTURE(micros);
    CAPTURE(offset);
    const std::string stored = EncodeUnixMicros(micros, offset).value();
    CHECK(stored == ReferenceFields(micros, ".{:06}Z") + (offset == 0 ? "" : ReferenceZone(offset)));
    std::string lexical = ReferenceFields(micros + int64_t{offset} * 60'000'000, ".{:06}");
    while (lexical.back() == '0') lexical.pop_back();
    if (lexical.back() == '.') lexical.pop_back();
    CHECK(DecodeDateTime(stored) == lexical + ReferenceZone(offset));
    DecodeDateTimeTo(stored, buffer);  // one buffer for every value, as a cursor does
    CHECK(buffer == lexical + ReferenceZone(offset));
    CHECK(UnixMicros(stored).value() == micros);
    // The same instant through the lexical codec.
    CHECK(EncodeDateTime(DecodeDateTime(stored)).value() == stored);
  }
  // Without zone: the wall-clock fields as they are, no suffix.
  const std::string local = EncodeDateTime("0001-01-01T00:00:00.000100").value();
  CHECK(local == "0001-01-01T00:00:00.000100ZL");
  CHECK(DecodeDateTime(local) == "0001-01-01T00:00:00.0001");
  CHECK(DecodeDateTime("9999-12-31T23:59:59.999999Z") == "9999-12-31T23:59:59.999999Z");
  // Year 0000 in UTC has no lexical form; with an offset its local year is 0001.
  CHECK(DecodeDateTime("0000-12-31T23:00:00.000000Z") == "0000-12-31T23:00:00.000000Z");
  CHECK(DecodeDateTime("0000-12-31T23:00:00.000000ZL") == "0000-12-31T23:00:00.000000ZL");
  CHECK(DecodeDateTime("0000-12-31T23:00:00.500000Z+01:00") == "0001-01-01T00:00:00.5+01:00");
  CHECK(DecodeDateTime("2024-02-29T10:00:00.000000ZL") == "2024-02-29T10:00:00");
  DecodeDateTimeTo("not a stored form", buffer);
  CHECK(buffer == "not a stored form");
}

// LexicalUnixMicros reads the common form in place: every answer (instant or refusal) must be
// the full codec's.
TEST_CASE("LexicalUnixMicros: the same instants and refusals as EncodeDateTime and UnixMicros") {
  const char* const samples[] = {
      "2026-12-02T14:36:38Z", "2026-12-02T14:36:38.5Z", "2026-12-02T14:36:38.123456Z",
      "2026-12-02T14:36:38.1234567Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999Z",
      "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "2024-02-29T12:00:00Z",
      "2023-02-29T12:00:00Z", "2000-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
      "2026-12-02T24:00:00Z", "2026-12-02T23:60:00Z", "2026-12-02T23:59:60Z",
      "2026-12-02T14:36:38", "2026-12-02T14:36:38.25", "2026-12-02T14:36:38+02:00",
      "2026-12-02T14:36:38.5-05:30", "2026-12-02T14:36:38.Z", "2026-12-02T14:36:38ZZ",
      "2026-12-02 14:36:38Z", "0000-01-01T00:00:00Z", "2026-1-02T14:36:38Z", "2026-12-02T14:36",
      "", "2026-12-02T14:36:38.12a456Z", "+2026-12-02T14:36:38Z", "2026-12-02T14:36:38 "};
  for (const char* sample : samples) {
    CAPTURE(sample);
    const Result<int64_t> parsed = LexicalUnixMicros(sample);
    const Result<std::string> stored = EncodeDateTime(sample);
    REQUIRE(parsed.ok() == stored.ok());
    if (parsed.ok()) CHECK(*parsed == *UnixMicros(*stored));
  }
}

TEST_CASE("EncodeDate: validation and stored form") {
  CHECK(EncodeDate("2024-02-29").value() == "2024-02-29");
  CHECK(EncodeDate(" 2024-02-29 ").value() == "2024-02-29");
  CHECK(EncodeDate("2024-02-29Z").value() == "2024-02-29Z");
  CHECK(EncodeDate("2024-02-29+00:00").value() == "2024-02-29Z");
  CHECK(EncodeDate("2024-02-29-05:00").value() == "2024-02-29-05:00");
  for (const std::string_view bad : {"2023-02-29", "2024-02-29T00:00:00", "2024-2-29", "24-02-29",
                                     "-2024-02-29", "2024-02-29+15:00", "2024-02-29 Z", ""}) {
    CAPTURE(bad);
    const Result<std::string> stored = EncodeDate(bad);
    REQUIRE_FALSE(stored.ok());
    CHECK(stored.error().code() == Errc::kParse);
    CHECK(stored.error().message().find("invalid xsd:date \"") == 0);
  }
}

// The lexical form of `micros` in the zone `offset_minutes` east of UTC, built with
// std::chrono instead of the codec's own calendar code.
std::string Lexical(int64_t micros, int offset_minutes, bool with_zone, int fraction_digits) {
  using namespace std::chrono;
  const sys_time<microseconds> local{microseconds(micros) + minutes(offset_minutes)};
  const sys_days day = floor<days>(local);
  const year_month_day date(day);
  const hh_mm_ss<microseconds> time(local - day);
  std::string text = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", int(date.year()),
                                 unsigned(date.month()), unsigned(date.day()), time.hours().count(),
                                 time.minutes().count(), time.seconds().count());
  if (fraction_digits > 0) {
    std::string fraction = fmt::format("{:06}", time.subseconds().count());
    fraction.resize(static_cast<size_t>(fraction_digits), '0');  // longer: padded with zeros
    text += "." + fraction;
  }
  if (!with_zone) return text;
  if (offset_minutes == 0) return text + "Z";
  const int magnitude = std::abs(offset_minutes);
  return text + fmt::format("{}{:02}:{:02}", offset_minutes < 0 ? '-' : '+', magnitude / 60,
                            magnitude % 60);
}

struct Sample {
  int64_t micros;
  std::string stored;
};

TEST_CASE("EncodeDateTime: stored strings sort like the instants, whatever the zone") {
  std::mt19937_64 random(20240305);
  // 0002-01-01 .. 9999-01-01, so every offset keeps the local year in range.
  constexpr int64_t kMin = -62'104'060'800'000'000;
  constexpr int64_t kMax = 253'370'764'800'000'000;
  std::uniform_int_distribution<int64_t> instant(kMin, kMax);
  std::uniform_int_distribution<int> offset(-14 * 60, 14 * 60);
  std::uniform_int_distribution<int> digits(6, 9);

  std::vector<Sample> samples;
  for (int i = 0; i < 20000; ++i) {
    // Clusters of nearby instants too, where a carry or the offset decides the order.
    const int64_t micros =
        i % 4 == 0 && !samples.empty()
            ? samples.back().micros + static_cast<int64_t>(random() % 7200'000'000) - 3600'000'000
            : instant(random);
    const int zone = i % 3 == 0 ? 0 : offset(random);
    const std::string lexical = Lexical(micros, zone, true, digits(random));
    CAPTURE(lexical);
    const Result<std::string> stored = EncodeDateTime(lexical);
    REQUIRE(stored.ok());
    REQUIRE(UnixMicros(*stored).value() == micros);
    REQUIRE(EncodeUnixMicros(micros, zone).value() == *stored);
    REQUIRE(EncodeDateTime(DecodeDateTime(*stored)).value() == *stored);
    samples.push_back({micros, *stored});
  }
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.micros < b.micros; });
  for (size_t i = 1; i < samples.size(); ++i) {
    const Sample& before = samples[i - 1];
    const Sample& after = samples[i];
    if (before.micros == after.micros) {
      CHECK(before.stored.substr(0, kStoredDateTimeUtcLength) ==
            after.stored.substr(0, kStoredDateTimeUtcLength));
      continue;
    }
    CAPTURE(before.stored);
    CAPTURE(after.stored);
    REQUIRE(before.stored < after.stored);
  }
}

TEST_CASE("EncodeDateTime: values without zone sort by wall-clock time") {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int64_t> instant(-62'104'060'800'000'000, 253'370'764'800'000'000);
  std::vector<Sample> samples;
  for (int i = 0; i < 5000; ++i) {
    const int64_t micros = instant(random);
    const std::string lexical = Lexical(micros, 0, false, 6);
    CAPTURE(lexical);
    const std::string stored = EncodeDateTime(lexical).value();
    REQUIRE(stored.back() == 'L');
    REQUIRE(UnixMicros(stored).value() == micros);  // the wall time, read as if UTC
    REQUIRE(EncodeDateTime(DecodeDateTime(stored)).value() == stored);
    samples.push_back({micros, stored});
  }
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.micros < b.micros; });
  for (size_t i = 1; i < samples.size(); ++i) {
    if (samples[i - 1].micros == samples[i].micros) continue;
    REQUIRE(samples[i - 1].stored < samples[i].stored);
  }
}

}  // namespace
}  // namespace quarry
