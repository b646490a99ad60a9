// MinerConfig: what miner-fs indexes and how gently, read from
// $XDG_CONFIG_HOME/quarry/quarry.toml (issue 5, DESIGN.md "Files and configuration").
//
// Every key is optional; a missing key takes the default a desktop user expects. A key with a
// bad value (wrong type, out of range, unknown XDG folder name) does not stop the miner: it is
// reported in `warnings` as "key: reason; using default <value>" and the default is used. Only a
// file that is not TOML at all is an error.
//
//   [index]
//   recursive_folders = ["&DOCUMENTS", "&MUSIC", "&PICTURES", "&VIDEOS", "&DESKTOP"]
//   single_folders = ["&DOWNLOAD", "$HOME"]     # their own files only, no sub-folders
//   index_hidden = false
//   ignored_files = ["*~", "*.bak", ...]         # globs on the name, or on the path when they hold '/'
//   ignored_folders = [".git", "node_modules", ...]
//   skip_churn_folders = true                    # node_modules, build trees, caches, trash, ...
//   ignore_markers = [".nomedia", ".quarryignore"]
//   honour_gitignore = true
//   removable_media = false
//   [throttle]
//   cpu_percent = 60        # the crawl's CPU budget, percent of one core (1..100; 100 = no limit)
//   level = 10              # Tracker's 0..20 scale, read when cpu_percent is absent: 100 - 4 * level
//   pause_on_battery = true
//   [monitor]
//   max_watches = 0         # inotify watches at most (0 = what the kernel allows); folders
//                           # beyond it are crawled every fallback_crawl_s seconds
//   fallback_crawl_s = 300
//   [writes]
//   batch_files = 500       # a batch is sent after this many files ...
//   batch_ms = 500          # ... or this long after its first update
//   quiet_period_ms = 2000  # a file still being written is indexed after this long without events
//   [extract]               # read by quarry-extract (extract/service/extract_config.h)
//   text_allowlist = ["*.txt", "*.text", "*.md", "*.markdown", "*.mdwn", "*.rst", "*.org", "*.tex"]
//                           # plain-text files whose text is stored, globs on the name in any case
//                           # (Tracker's text-allowlist); others (code, CSV, JSON ...) keep their
//                           # type, language and counts. ["*"]: every text file; []: none
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/result.h"

namespace quarry::miner {

struct IndexRoot {
  std::filesystem::path path;
  bool recursive = true;
  bool operator==(const IndexRoot&) const = default;
};

struct MinerConfig {
  std::vector<IndexRoot> roots;
  bool index_hidden = false;
  std::vector<std::string> ignored_files;
  std::vector<std::string> ignored_folders;
  bool skip_churn_folders = true;
  std::vector<std::string> ignore_markers{".nomedia", ".quarryignore"};
  bool honour_gitignore = true;
  bool removable_media = false;
  int cpu_percent = 60;  // level 10 on Tracker's scale
  bool pause_on_battery = true;
  int max_watches = 0;
  std::chrono::seconds fallback_crawl_interval{300};
  int batch_files = 500;
  std::chrono::milliseconds batch_time{500};
  std::chrono::milliseconds quiet_period{2000};
  std::vector<std::string> text_allowlist{"*.txt",  "*.text", "*.md",  "*.markdown",
                                          "*.mdwn", "*.rst",  "*.org", "*.tex"};
};

struct LoadedConfig {
  MinerConfig config;
  std::vector<std::string> warnings;  // "key: reason; using default ..." per bad value
};

// Where folder names such as &DOCUMENTS and $HOME point; from the environment and
// $XDG_CONFIG_HOME/user-dirs.dirs by default, injectable for tests.
struct UserDirs {
  std::filesystem::path home;
  std::vector<std::pair<std::string, std::filesystem::path>> xdg;  // "DOCUMENTS" -> path
  static UserDirs FromEnvironment();
  // Parses user-dirs.dirs text (XDG_DOCUMENTS_DIR="$HOME/Docs" lines).
  static UserDirs Parse(std::string_view user_dirs_text, const std::filesystem::path& home);
};

// The defaults: recursive Documents, Music, Pictures, Videos, Desktop; Downloads and $HOME
// alone. Folders that do not exist are kept (they may appear later).
MinerConfig DefaultConfig(const UserDirs& dirs);

// Parses quarry.toml text; Errc::kParse (with line:column) when it is not TOML.
Result<LoadedConfig> ParseConfig(std::string_view toml_text, const UserDirs& dirs);
// Reads `file`; a missing file gives the defaults without warnings.
Result<LoadedConfig> LoadConfig(const std::filesystem::path& file, const UserDirs& dirs);
// $XDG_CONFIG_HOME/quarry/quarry.toml (or ~/.config/quarry/quarry.toml).
std::filesystem::path DefaultConfigFile();

// An absolute folder path without "..", "." or a trailing slash ("/" stays "/").
std::filesystem::path NormalizeFolder(const std::filesystem::path& path);

// "&DOCUMENTS", "$HOME/x", "~/x" or an absolute path -> the absolute path; nullopt-like error
// (Errc::kInvalidArgument) for an unknown &NAME or a relative path.
Result<std::filesystem::path> ExpandFolder(std::string_view spec, const UserDirs& dirs);

}  // namespace quarry::miner
