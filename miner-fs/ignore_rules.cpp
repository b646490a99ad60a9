#include "miner-fs/ignore_rules.h"

#include <fnmatch.h>

#include <algorithm>
#include <sstream>

namespace quarry::miner {
namespace {

// Folders that change all the time and hold nothing a desktop search should find.
constexpr std::string_view kChurnFolders[] = {
    "node_modules", ".git", "__pycache__", "CMakeFiles", ".cache", ".ccache", ".gradle",
    ".m2", ".npm", ".cargo", ".rustup", ".venv", "venv", ".tox", ".mypy_cache",
    ".pytest_cache", "bower_components", ".Trash", ".local/share/Trash", ".var",
    ".local/share/flatpak", ".local/share/containers", ".docker", "snap", ".thumbnails",
    "_build", ".stack-work", ".next", ".terraform"};
// Files whose presence marks a folder as a cache or a build tree.
constexpr std::string_view kChurnMarkers[] = {"CACHEDIR.TAG", "CMakeCache.txt"};


bool IsChurnFolder(std::string_view name, std::string_view path) {
  if (name.starts_with(".Trash-")) return true;
  return std::any_of(std::begin(kChurnFolders), std::end(kChurnFolders), [&](std::string_view churn) {
    if (churn.find('/') == std::string_view::npos) return name == churn;
    return path.ends_with(churn) && path.size() > churn.size() &&
           path[path.size() - churn.size() - 1] == '/';
  });
}

}  // namespace

GlobPattern::GlobPattern(std::string pattern, int fnmatch_flags)
    : pattern_(std::move(pattern)), flags_(fnmatch_flags), has_slash_(pattern_.find('/') != std::string::npos) {
  // A NUL would end the pattern for fnmatch; such a pattern stays with fnmatch too.
  const bool has_other_special = pattern_.find_first_of(std::string_view("?[\\\0", 4)) != std::string::npos;
  const bool has_star = pattern_.find('*') != std::string::npos;
  // FNM_PATHNAME keeps '*' from crossing '/', FNM_PERIOD from matching a leading '.': those
  // stay with fnmatch unless the pattern is plain text.
  const bool star_is_plain = (flags_ & ~FNM_NOESCAPE) == 0;
  if (has_other_special || (has_star && !star_is_plain)) return;
  by_pieces_ = true;
  size_t start = 0;
  for (;;) {
    const size_t star = pattern_.find('*', start);
    pieces_.push_back(pattern_.substr(start, star == std::string::npos ? std::string::npos : star - start));
    if (star == std::string::npos) break;
    start = star + 1;
  }
}

bool GlobPattern::Matches(std::string_view text) const {
  if (!by_pieces_) {
    const std::string subject(text);
    return ::fnmatch(pattern_.c_str(), subject.c_str(), flags_) == 0;
  }
  if (pieces_.size() == 1) return text == pieces_.front();
  const std::string& first = pieces_.front();
  const std::string& last = pieces_.back();
  if (text.size() < first.size() + last.size() || !text.starts_with(first) || !text.ends_with(last)) {
    return false;
  }
  // The middle pieces in order, each at its leftmost place: with '*' matching anything, the
  // leftmost place leaves the most room for the rest.
  std::string_view rest = text.substr(first.size(), text.size() - first.size() - last.size());
  for (size_t i = 1; i + 1 < pieces_.size(); ++i) {
    const size_t at = rest.find(pieces_[i]);
    if (at == std::string_view::npos) return false;
    rest.remove_prefix(at + pieces_[i].size());
  }
  return true;
}

int GlobPattern::first_byte() const {
  if (!by_pieces_ || pieces_.front().empty()) return -1;
  return static_cast<unsigned char>(pieces_.front().front());
}

int GlobPattern::last_byte() const {
  if (!by_pieces_ || pieces_.back().empty()) return -1;
  return static_cast<unsigned char>(pieces_.back().back());
}

GlobSet::GlobSet(const std::vector<std::string>& patterns) : globs_(patterns.begin(), patterns.end()) {
  for (uint32_t i = 0; i < globs_.size(); ++i) {
    const GlobPattern& glob = globs_[i];
    needs_path_ = needs_path_ || glob.has_slash();
    // A path glob sees the path, whose first byte is not the name's.
    if (const int last = glob.last_byte(); last >= 0) {
      by_last_[static_cast<size_t>(last)].push_back(i);
    } else if (const int first = glob.first_byte(); first >= 0 && !glob.has_slash()) {
      by_first_[static_cast<size_t>(first)].push_back(i);
    } else {
      unkeyed_.push_back(i);
    }
  }
}

bool GlobSet::Tries(const std::vector<uint32_t>& indexes, std::string_view name, std::string_view path) const {
  return std::any_of(indexes.begin(), indexes.end(), [&](uint32_t index) {
    const GlobPattern& glob = globs_[index];
    if (glob.has_slash()) return !path.empty() && glob.Matches(path);
    return glob.Matches(name);
  });
}

bool GlobSet::Matches(std::string_view name, std::string_view path) const {
  if (name.empty()) {
    // No byte to key on (no file has an empty name): every glob.
    return std::any_of(globs_.begin(), globs_.end(), [&](const GlobPattern& glob) {
      return glob.has_slash() ? !path.empty() && glob.Matches(path) : glob.Matches(name);
    });
  }
  // A path ends with its name, so a path glob keyed by its last byte is found here too.
  return Tries(by_last_[static_cast<unsigned char>(name.back())], name, path) ||
         Tries(by_first_[static_cast<unsigned char>(name.front())], name, path) ||
         Tries(unkeyed_, name, path);
}

IgnoreRules::IgnoreRules(const MinerConfig& config)
    : index_hidden_(config.index_hidden),
      skip_churn_(config.skip_churn_folders),
      honour_gitignore_(config.honour_gitignore),
      file_globs_(config.ignored_files),
      folder_globs_(config.ignored_folders),
      markers_(config.ignore_markers) {
  file_needs_path_ = file_globs_.needs_path();
  // Path-suffix churn entries (.local/share/Trash) need the folder's path too.
  folder_needs_path_ = skip_churn_ || folder_globs_.needs_path();
  if (skip_churn_) markers_.insert(markers_.end(), std::begin(kChurnMarkers), std::end(kChurnMarkers));
}

bool IgnoreRules::IgnoresFile(std::string_view name, std::string_view path) const {
  if (!index_hidden_ && name.starts_with('.')) return true;
  return file_globs_.Matches(name, path);
}

bool IgnoreRules::IgnoresFolder(std::string_view name, std::string_view path) const {
  if (!index_hidden_ && name.starts_with('.')) return true;
  if (skip_churn_ && IsChurnFolder(name, path)) return true;
  return folder_globs_.Matches(name, path);
}

bool IgnoreRules::IsMarker(std::string_view name) const {
  return std::find(markers_.begin(), markers_.end(), name) != markers_.end();
}

GitIgnore GitIgnore::Parse(std::string_view text) {
  GitIgnore ignore;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    Rule rule;
    if (line.front() == '!') {
      rule.negate = true;
      line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
      rule.folders_only = true;
      line.pop_back();
    }
    if (line.starts_with("**/")) line.erase(0, 3);
    rule.anchored = line.find('/') != std::string::npos;
    if (line.starts_with('/')) line.erase(0, 1);
    if (line.empty()) continue;
    rule.pattern = GlobPattern(std::move(line), rule.anchored ? FNM_PATHNAME : 0);
    ignore.rules_.push_back(std::move(rule));
  }
  return ignore;
}

std::optional<bool> GitIgnore::Match(std::string_view relative_path, bool is_folder) const {
  const size_t slash = relative_path.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? relative_path : relative_path.substr(slash + 1);
  // The last matching rule decides, as in git.
  for (auto rule = rules_.rbegin(); rule != rules_.rend(); ++rule) {
    if (rule->folders_only && !is_folder) continue;
    const bool matches = rule->pattern.Matches(rule->anchored ? relative_path : name);
    if (matches) return !rule->negate;
  }
  return std::nullopt;
}

}  // namespace quarry::miner
