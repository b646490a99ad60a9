// IgnoreRules: which names the crawler and the monitor leave out (issue 5 "Ignore rules"):
// hidden names (unless configured), file and folder globs from the config, the well-known
// churn folders (node_modules, build trees, caches, VCS data, flatpak and container storage,
// trash), and folders holding a marker (.nomedia, .quarryignore, or CACHEDIR.TAG /
// CMakeCache.txt, which tag caches and build trees). GitIgnore reads .gitignore files, which
// the crawler applies inside indexed trees when honour_gitignore is set.
// Thread-safety: immutable after construction; any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "miner-fs/config.h"

namespace quarry::miner {

// One fnmatch(3) pattern, compiled once: a pattern of literal text and '*' only (the config's
// defaults: "*.bak", ".#*", "#*#") without FNM_PATHNAME is matched by comparing its pieces in
// place, without copying the subject or calling fnmatch; any other ('?', '[', '\\', or '*'
// under FNM_PATHNAME) goes to fnmatch. Matches() answers as fnmatch(pattern, text, flags) == 0.
class GlobPattern {
 public:
  explicit GlobPattern(std::string pattern, int fnmatch_flags = 0);
  bool Matches(std::string_view text) const;
  const std::string& pattern() const { return pattern_; }
  bool has_slash() const { return has_slash_; }
  // A byte every matching text starts (ends) with, when the pattern fixes one; -1 otherwise.
  int first_byte() const;
  int last_byte() const;

 private:
  std::string pattern_;
  int flags_;
  bool has_slash_;
  bool by_pieces_ = false;
  // By pieces: the text between the stars; the first must start the subject, the last end it
  // (empty when the pattern starts or ends with '*'); one piece: the whole subject.
  std::vector<std::string> pieces_;
};

// The config's globs for files or for folders: a glob with a '/' is matched against the whole
// path (its '*' crosses folders), the others against the name. Each name is tried only against
// the globs that can match it: those fixing its last byte ("*.bak" ends with 'k'), or else its
// first (".#*"), and those that fix neither.
class GlobSet {
 public:
  explicit GlobSet(const std::vector<std::string>& patterns);
  bool Matches(std::string_view name, std::string_view path) const;
  bool needs_path() const { return needs_path_; }

 private:
  bool Tries(const std::vector<uint32_t>& indexes, std::string_view name, std::string_view path) const;

  std::vector<GlobPattern> globs_;
  bool needs_path_ = false;
  std::vector<uint32_t> unkeyed_;
  std::array<std::vector<uint32_t>, 256> by_last_;
  std::array<std::vector<uint32_t>, 256> by_first_;
};

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
  GlobSet file_globs_;
  GlobSet folder_globs_;
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
    GlobPattern pattern{""};
    bool negate = false;
    bool folders_only = false;
    bool anchored = false;
  };
  std::vector<Rule> rules_;
};

}  // namespace quarry::miner
