#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "miner-fs/sparql_updates.h"
#include "store/common/datetime.h"

namespace quarry::miner {
namespace {

// The codec's own cases (LexicalUnixMicros against EncodeDateTime + UnixMicros) are in
// tests/store/common/datetime_test.cpp; here, what the miner writes comes back exactly.
TEST_CASE("ParseDateTime: the literals the miner writes read back to the same microsecond") {
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
    const Result<std::string> stored = EncodeDateTime(literal);
    REQUIRE(stored.ok());
    CHECK(*parsed == *UnixMicros(*stored));
  }
}

}  // namespace
}  // namespace quarry::miner
