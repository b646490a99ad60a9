#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "miner-fs/sparql_updates.h"
#include "store/common/datetime.h"

namespace quarry::miner {
namespace {

// What ParseDateTime answered before it read the common form in place: the full codec.
Result<int64_t> ThroughCodec(std::string_view lexical) {
  QUARRY_ASSIGN_OR_RETURN(const std::string stored, EncodeDateTime(lexical));
  return UnixMicros(stored);
}

void CheckSameAsCodec(const std::string& lexical) {
  CAPTURE(lexical);
  const Result<int64_t> parsed = ParseDateTime(lexical);
  const Result<int64_t> reference = ThroughCodec(lexical);
  REQUIRE(parsed.ok() == reference.ok());
  if (parsed.ok()) CHECK(*parsed == *reference);
}

TEST_CASE("ParseDateTime: the same instants and refusals as the dateTime codec") {
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
  for (const char* sample : samples) CheckSameAsCodec(sample);
  // The literals the miner writes (DateTimeLiteral), read back: every microsecond kept.
  std::mt19937_64 generator(20261202);
  std::uniform_int_distribution<int64_t> instants(-62'135'596'800'000'000, 253'402'300'799'999'999);
  for (int i = 0; i < 2000; ++i) {
    const int64_t micros = i % 2 == 0 ? instants(generator) : instants(generator) / 1'000'000 * 1'000'000;
    const std::string literal = DateTimeLiteral(micros);
    CAPTURE(literal);
    const Result<int64_t> parsed = ParseDateTime(literal);
    REQUIRE(parsed.ok());
    CHECK(*parsed == micros);
    CheckSameAsCodec(literal);
  }
}

}  // namespace
}  // namespace quarry::miner
