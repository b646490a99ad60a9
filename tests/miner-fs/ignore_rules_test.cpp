#include <doctest/doctest.h>

#include <fnmatch.h>

#include <algorithm>
#include <string>
#include <vector>

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

TEST_CASE("GlobPattern: answers as fnmatch, compiled pieces and fnmatch fallbacks alike") {
  const char* const patterns[] = {
      "*~", "*.bak", ".#*", "#*#", "*", "**", "a*b*c", "*ab*ab*", "lost+found", "tmp*", "*.tar.gz",
      "*/secret/*.txt", "a**b", "", "?.o", "[ab]*", "\\*x", "src/*.c", "*.c", "ab", "*a*"};
  const char* const subjects[] = {
      "", "~", "notes.txt~", "a.bak", "a.bak.txt", ".bak", ".#lock", ".#", "#draft#", "#", "##",
      "abc", "aXbYc", "acb", "abab", "ababab", "abxab", "lost+found", "lost+found2", "tmp",
      "tmp-build", "x.tar.gz", "tar.gz", "/home/a/secret/x.txt", "/home/a/public/x.txt", "ab",
      "a.o", "ab.o", "bcd", "*x", "src/a.c", "src/deep/a.c", "a.c", "/x/.c", "ba", "a", "b"};
  for (const int flags : {0, FNM_PATHNAME}) {
    for (const char* pattern : patterns) {
      const GlobPattern glob(pattern, flags);
      for (const char* subject : subjects) {
        CAPTURE(flags);
        CAPTURE(std::string(pattern));
        CAPTURE(std::string(subject));
        CHECK(glob.Matches(subject) == (::fnmatch(pattern, subject, flags) == 0));
      }
    }
  }
  // The same glob with a longer subject that only ends alike (the pieces may not overlap).
  CHECK_FALSE(GlobPattern("#*#").Matches("#"));
  CHECK_FALSE(GlobPattern("ab*ba").Matches("aba"));
  CHECK(GlobPattern("ab*ba").Matches("abba"));
}

TEST_CASE("GlobSet: names tried by their first and last byte match as every glob tried") {
  const std::vector<std::string> patterns = {
      "*~", "*.bak", ".#*", "#*#", "*.o", "lost+found", "tmp*", "*/secret/*.txt", "/home/*",
      "?.c", "[ab]*", "*a*", "", "x", "*/build", "*.tar.gz"};
  const char* const names[] = {
      "notes.txt~", "a.bak", ".#lock", "#draft#", "#", "main.o", "lost+found", "tmp-build",
      "x.txt", "a.c", "b.h", "cat", "dog", "x", "build", "a.tar.gz", "report.pdf", ".o", "o"};
  const char* const folders[] = {"/home/a/secret", "/home/a", "/srv", ""};
  const GlobSet set(patterns);
  CHECK(set.needs_path());
  const std::vector<GlobPattern> each(patterns.begin(), patterns.end());
  int matched = 0;
  for (const char* folder : folders) {
    for (const char* name : names) {
      const std::string path = *folder ? std::string(folder) + "/" + name : std::string();
      const bool expected = std::any_of(each.begin(), each.end(), [&](const GlobPattern& glob) {
        return glob.has_slash() ? !path.empty() && glob.Matches(path) : glob.Matches(name);
      });
      CAPTURE(path);
      CAPTURE(std::string(name));
      CHECK(set.Matches(name, path) == expected);
      matched += expected ? 1 : 0;
    }
  }
  CHECK(matched > 20);  // the grid exercises matches, not only misses
  CHECK_FALSE(GlobSet({"*.bak"}).needs_path());
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
