#include <doctest/doctest.h>

#include "miner-fs/power_supply.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner {
namespace {

TEST_CASE("IsOnBattery: a present battery and no mains online") {
  quarry::testing::TempDir sys;
  CHECK_FALSE(IsOnBattery(sys / "absent"));
  sys.Write("AC/type", "Mains\n");
  sys.Write("AC/online", "1\n");
  CHECK_FALSE(IsOnBattery(sys.path()));  // a desktop: no battery
  sys.Write("BAT0/type", "Battery\n");
  sys.Write("BAT0/present", "1\n");
  CHECK_FALSE(IsOnBattery(sys.path()));  // plugged in
  sys.Write("AC/online", "0\n");
  CHECK(IsOnBattery(sys.path()));
}

}  // namespace
}  // namespace quarry::miner
