#include <doctest/doctest.h>

#include "miner-fs/config.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner {
namespace {

const UserDirs kDirs = UserDirs::Parse(
    "# written by xdg-user-dirs-update\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n"
    "XDG_MUSIC_DIR=\"/srv/music\"\nXDG_DESKTOP_DIR=\"relative/ignored\"\n",
    "/home/ada");

bool HasRoot(const MinerConfig& config, const std::string& path, bool recursive) {
  for (const IndexRoot& root : config.roots) {
    if (root.path == path && root.recursive == recursive) return true;
  }
  return false;
}

TEST_CASE("Config: defaults are the XDG user folders") {
  const auto loaded = ParseConfig("", kDirs);
  REQUIRE(loaded.ok());
  CHECK(loaded->warnings.empty());
  const MinerConfig& config = loaded->config;
  CHECK(HasRoot(config, "/home/ada/Dokumente", true));
  CHECK(HasRoot(config, "/srv/music", true));
  CHECK(HasRoot(config, "/home/ada/Pictures", true));
  CHECK(HasRoot(config, "/home/ada/Videos", true));
  CHECK(HasRoot(config, "/home/ada/Desktop", true));  // a relative user-dirs entry is ignored
  CHECK(HasRoot(config, "/home/ada/Downloads", false));
  CHECK(HasRoot(config, "/home/ada", false));
  CHECK(config.roots.size() == 7);
  CHECK_FALSE(config.index_hidden);
  CHECK(config.honour_gitignore);
  CHECK(config.skip_churn_folders);
  CHECK_FALSE(config.removable_media);
  CHECK(config.ignore_markers == std::vector<std::string>{".nomedia", ".quarryignore"});
}

TEST_CASE("Config: keys replace defaults") {
  const auto loaded = ParseConfig(R"(
[index]
recursive_folders = ["~/src", "/data", "&MUSIC"]
single_folders = []
index_hidden = true
ignored_files = ["*.log"]
honour_gitignore = false
[throttle]
level = 0
pause_on_battery = false
[writes]
batch_files = 50
batch_ms = 20
quiet_period_ms = 100
)", kDirs);
  REQUIRE(loaded.ok());
  CHECK(loaded->warnings.empty());
  const MinerConfig& config = loaded->config;
  CHECK(config.roots == std::vector<IndexRoot>{{"/home/ada/src", true}, {"/data", true}, {"/srv/music", true}});
  CHECK(config.index_hidden);
  CHECK(config.ignored_files == std::vector<std::string>{"*.log"});
  CHECK_FALSE(config.honour_gitignore);
  CHECK(config.cpu_percent == 100);  // level 0: full speed
  CHECK_FALSE(config.pause_on_battery);
  CHECK(config.batch_files == 50);
  CHECK(config.batch_time == std::chrono::milliseconds(20));
  CHECK(config.quiet_period == std::chrono::milliseconds(100));
}

TEST_CASE("Config: the CPU budget and the watch cap") {
  const auto defaults = ParseConfig("", kDirs);
  REQUIRE(defaults.ok());
  CHECK(defaults->config.cpu_percent == 60);
  CHECK(defaults->config.max_watches == 0);
  const auto loaded = ParseConfig("[throttle]\ncpu_percent = 25\nlevel = 0\n[monitor]\nmax_watches = 3\nfallback_crawl_s = 2\n", kDirs);
  REQUIRE(loaded.ok());
  CHECK(loaded->warnings.empty());
  CHECK(loaded->config.cpu_percent == 25);  // cpu_percent wins over level
  CHECK(loaded->config.max_watches == 3);
  CHECK(loaded->config.fallback_crawl_interval == std::chrono::seconds(2));
  const auto bad = ParseConfig("[throttle]\ncpu_percent = 0\n", kDirs);
  REQUIRE(bad.ok());
  REQUIRE(bad->warnings.size() == 1);
  CHECK(bad->warnings[0] == "throttle.cpu_percent: 0 is outside 1..100; using default 60");
}

TEST_CASE("Config: a bad value names its key and keeps the default") {
  SUBCASE("wrong type") {
    const auto loaded = ParseConfig("[index]\nindex_hidden = \"yes\"\n", kDirs);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->warnings.size() == 1);
    CHECK(loaded->warnings[0] == "index.index_hidden: expected a boolean; using default false");
    CHECK_FALSE(loaded->config.index_hidden);
  }
  SUBCASE("out of range") {
    const auto loaded = ParseConfig("[throttle]\nlevel = 99\n", kDirs);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->warnings.size() == 1);
    CHECK(loaded->warnings[0] == "throttle.level: 99 is outside 0..20; using default 10");
    CHECK(loaded->config.cpu_percent == 60);
  }
  SUBCASE("not an array of strings") {
    const auto loaded = ParseConfig("[index]\nrecursive_folders = [\"/a\", 3]\n", kDirs);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->warnings.size() == 1);
    CHECK(loaded->warnings[0].starts_with("index.recursive_folders: expected an array of strings"));
    CHECK(HasRoot(loaded->config, "/home/ada/Dokumente", true));
  }
  SUBCASE("unknown folder name and relative path") {
    const auto loaded = ParseConfig("[index]\nrecursive_folders = [\"&NOPE\", \"rel\", \"/ok\"]\n", kDirs);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->warnings.size() == 2);
    CHECK(loaded->warnings[0] == "index.recursive_folders: unknown XDG folder '&NOPE'; folder skipped");
    CHECK(loaded->warnings[1] == "index.recursive_folders: 'rel' is not an absolute path; folder skipped");
    CHECK(HasRoot(loaded->config, "/ok", true));
  }
}

TEST_CASE("Config: [extract] text_allowlist, Tracker's text-allowlist (issue 5)") {
  const std::vector<std::string> defaults{"*.txt",  "*.text", "*.md",  "*.markdown",
                                          "*.mdwn", "*.rst",  "*.org", "*.tex"};
  const std::string defaults_text = "[*.txt, *.text, *.md, *.markdown, *.mdwn, *.rst, *.org, *.tex]";
  SUBCASE("default: notes and documents in plain text, no code or data") {
    const auto loaded = ParseConfig("", kDirs);
    REQUIRE(loaded.ok());
    CHECK(loaded->config.text_allowlist == defaults);
  }
  SUBCASE("a list replaces the default; [\"*\"] and [] are lists too") {
    const auto some = ParseConfig("[extract]\ntext_allowlist = [\"*.TXT\", \"*.py\"]\n", kDirs);
    REQUIRE(some.ok());
    CHECK(some->warnings.empty());
    CHECK(some->config.text_allowlist == std::vector<std::string>{"*.TXT", "*.py"});
    const auto all = ParseConfig("[extract]\ntext_allowlist = [\"*\"]\n", kDirs);
    REQUIRE(all.ok());
    CHECK(all->config.text_allowlist == std::vector<std::string>{"*"});
    const auto none = ParseConfig("[extract]\ntext_allowlist = []\n", kDirs);
    REQUIRE(none.ok());
    CHECK(none->warnings.empty());
    CHECK(none->config.text_allowlist.empty());
  }
  SUBCASE("a bad value names its key and keeps the default") {
    const std::pair<const char*, const char*> cases[] = {
        {"text_allowlist = \"*.txt\"", "extract.text_allowlist: expected an array of strings"},
        {"text_allowlist = [\"*.txt\", 3]", "extract.text_allowlist: expected an array of strings"},
        {"text_allowlist = [\"*.txt\", \"\"]",
         "extract.text_allowlist: \"\" is not a glob on a file name"},
        {"text_allowlist = [\"notes/*.txt\"]",
         "extract.text_allowlist: \"notes/*.txt\" is not a glob on a file name"},
    };
    for (const auto& [toml, warning] : cases) {
      CAPTURE(toml);
      const auto loaded = ParseConfig(std::string("[extract]\n") + toml + "\n", kDirs);
      REQUIRE(loaded.ok());
      REQUIRE(loaded->warnings.size() == 1);
      CHECK(loaded->warnings[0] == std::string(warning) + "; using default " + defaults_text);
      CHECK(loaded->config.text_allowlist == defaults);
    }
  }
}

TEST_CASE("Config: text that is not TOML is an error with its position") {
  const auto loaded = ParseConfig("[index\n", kDirs);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().code() == Errc::kParse);
  CHECK(loaded.error().message().starts_with("1:"));
}

TEST_CASE("Config: a missing file gives the defaults") {
  testing::TempDir dir;
  const auto loaded = LoadConfig(dir / "absent.toml", kDirs);
  REQUIRE(loaded.ok());
  CHECK(loaded->config.roots.size() == 7);
  dir.Write("quarry.toml", "[index]\nremovable_media = true\n");
  const auto written = LoadConfig(dir / "quarry.toml", kDirs);
  REQUIRE(written.ok());
  CHECK(written->config.removable_media);
}

}  // namespace
}  // namespace quarry::miner
