// IgnoreRules: which names the crawler and the monitor leave out (issue 5 "Ignore rules"):
// hidden names (unless configured), file and folder globs from the config, the well-known
// churn folders (node_modules, build trees, caches, VCS data, flatpak and container storage,
// trash), and folders holding a marker (.nomedia, .quarryignore, or CACHEDIR.TAG /
// CMakeCache.txt, which tag caches and build trees). GitIgnore reads .gitignore files, which
// the crawler applies inside indexed trees when honour_gitignore is set.
// Thread-safety: immutable after construction; any thread.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "miner-fs/config.h"

namespace quarry::miner {

class IgnoreRules {
 public:
  explicit IgnoreRules(const MinerConfig& config);

  // `path` is the entry's absolute path, used by globs holding a '/'; may be empty when
  // needs_path() says the rules do not look at it (the crawler then builds no path per file).
  bool IgnoresFile(std::string_view name, std::string_view path = {}) const;
  bool IgnoresFolder(std::string_view name, std::string_view path = {}) const;
  // True when a folder holding an entry of this name must be skipped entirely.
  bool IsMarker(std::string_view name) const;
  bool needs_path(bool is_folder) const { return is_folder ? folder_needs_path_ : file_needs_path_; }
  bool honour_gitignore() const { return honour_gitignore_; }

 private:
  bool index_hidden_;
  bool skip_churn_;
  bool honour_gitignore_;
  bool file_needs_path_ = false;
  bool folder_needs_path_ = false;
  std::vector<std::string> file_globs_;
  std::vector<std::string> folder_globs_;
  std::vector<std::string> markers_;
};

// The rules of one .gitignore file: blank lines and # comments skipped, "!" negates, a
// trailing "/" matches folders only, a pattern holding another "/" is anchored to the
// .gitignore's folder, "**/" matches any depth.
class GitIgnore {
 public:
  static GitIgnore Parse(std::string_view text);
  // `relative_path` is relative to the .gitignore's folder ("src/a.o"). nullopt: no rule
  // matched; true: ignored; false: re-included by a "!" rule.
  std::optional<bool> Match(std::string_view relative_path, bool is_folder) const;
  bool empty() const { return rules_.empty(); }

 private:
  struct Rule {
    std::string pattern;
    bool negate = false;
    bool folders_only = false;
    bool anchored = false;
  };
  std::vector<Rule> rules_;
};

}  // namespace quarry::miner
