#include <doctest/doctest.h>

#include "miner-fs/ignore_rules.h"

namespace quarry::miner {
namespace {

MinerConfig Config() {
  MinerConfig config;
  config.ignored_files = {"*~", "*.bak", "*/secret/*.txt"};
  config.ignored_folders = {"tmp*"};
  return config;
}

TEST_CASE("IgnoreRules: hidden names, globs and churn folders") {
  const IgnoreRules rules(Config());
  CHECK(rules.IgnoresFile(".bashrc"));
  CHECK(rules.IgnoresFolder(".config"));
  CHECK(rules.IgnoresFile("notes.txt~"));
  CHECK(rules.IgnoresFile("a.bak"));
  CHECK_FALSE(rules.IgnoresFile("a.bak.txt"));
  CHECK(rules.IgnoresFile("x.txt", "/home/a/secret/x.txt"));
  CHECK_FALSE(rules.IgnoresFile("x.txt", "/home/a/public/x.txt"));
  CHECK(rules.IgnoresFolder("tmp-build"));
  CHECK(rules.IgnoresFolder("node_modules", "/p/node_modules"));
  CHECK(rules.IgnoresFolder("__pycache__", "/p/__pycache__"));
  CHECK(rules.IgnoresFolder(".Trash-1000", "/media/.Trash-1000"));
  CHECK_FALSE(rules.IgnoresFolder("src", "/p/src"));
  CHECK(rules.IsMarker(".nomedia"));
  CHECK(rules.IsMarker(".quarryignore"));
  CHECK(rules.IsMarker("CMakeCache.txt"));
  CHECK(rules.IsMarker("CACHEDIR.TAG"));
  CHECK_FALSE(rules.IsMarker("README"));
}

TEST_CASE("IgnoreRules: hidden files and churn folders can be switched on") {
  MinerConfig config = Config();
  config.index_hidden = true;
  config.skip_churn_folders = false;
  const IgnoreRules rules(config);
  CHECK_FALSE(rules.IgnoresFile(".bashrc"));
  CHECK_FALSE(rules.IgnoresFolder("node_modules", "/p/node_modules"));
  CHECK_FALSE(rules.IsMarker("CMakeCache.txt"));
  CHECK(rules.IsMarker(".nomedia"));
}

TEST_CASE("GitIgnore: the last matching rule decides") {
  const GitIgnore ignore = GitIgnore::Parse(
      "# build output\n*.o\n/build/\n!keep.o\ndocs/*.html\n**/generated\n\n");
  CHECK(ignore.Match("main.o", false) == std::optional(true));
  CHECK(ignore.Match("src/deep/util.o", false) == std::optional(true));
  CHECK(ignore.Match("keep.o", false) == std::optional(false));
  CHECK(ignore.Match("build", true) == std::optional(true));
  CHECK(ignore.Match("build", false) == std::nullopt);  // "build/" matches folders only
  CHECK(ignore.Match("docs/index.html", false) == std::optional(true));
  CHECK(ignore.Match("other/docs/index.html", false) == std::nullopt);  // anchored
  CHECK(ignore.Match("a/b/generated", true) == std::optional(true));
  CHECK(ignore.Match("main.c", false) == std::nullopt);
}

}  // namespace
}  // namespace quarry::miner
