#include <doctest/doctest.h>

#include <algorithm>

#include "miner-fs/config_edit.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner {
namespace {

TEST_CASE("Config edits: --add keeps the defaults and other keys, --remove takes a folder out") {
  quarry::testing::TempDir dir;
  const UserDirs dirs{"/home/ada", {}};
  const std::filesystem::path file = dir.Write("quarry.toml", "[throttle]\nlevel = 3\n");
  REQUIRE(AddRootToConfigFile(file, "/data/photos/", true, dirs).ok());
  REQUIRE(AddRootToConfigFile(file, "/data/inbox", false, dirs).ok());
  auto loaded = LoadConfig(file, dirs);
  REQUIRE(loaded.ok());
  CHECK(loaded->warnings.empty());
  CHECK(loaded->config.cpu_percent == 88);  // level 3
  const auto& roots = loaded->config.roots;
  CHECK(std::count(roots.begin(), roots.end(), IndexRoot{"/data/photos", true}) == 1);
  CHECK(std::count(roots.begin(), roots.end(), IndexRoot{"/data/inbox", false}) == 1);
  CHECK(std::count(roots.begin(), roots.end(), IndexRoot{"/home/ada/Documents", true}) == 1);
  CHECK(roots.size() == 9);

  SUBCASE("re-adding switches recursion, without a duplicate") {
    REQUIRE(AddRootToConfigFile(file, "/data/photos", false, dirs).ok());
    loaded = LoadConfig(file, dirs);
    REQUIRE(loaded.ok());
    CHECK(std::count(loaded->config.roots.begin(), loaded->config.roots.end(), IndexRoot{"/data/photos", false}) == 1);
    CHECK(loaded->config.roots.size() == 9);
  }
  SUBCASE("removing a default folder and an added one") {
    REQUIRE(RemoveRootFromConfigFile(file, "/home/ada/Documents", dirs).ok());
    REQUIRE(RemoveRootFromConfigFile(file, "/data/inbox", dirs).ok());
    loaded = LoadConfig(file, dirs);
    REQUIRE(loaded.ok());
    CHECK(loaded->config.roots.size() == 7);
    const auto removed = RemoveRootFromConfigFile(file, "/data/inbox", dirs);
    REQUIRE_FALSE(removed.ok());
    CHECK(removed.error().code() == Errc::kNotFound);
    CHECK(removed.error().message() == "/data/inbox is not an indexed folder");
  }
}

}  // namespace
}  // namespace quarry::miner
