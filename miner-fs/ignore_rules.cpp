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

bool Glob(const std::string& pattern, std::string_view text, int flags) {
  const std::string subject(text);
  return ::fnmatch(pattern.c_str(), subject.c_str(), flags) == 0;
}

bool AnyGlob(const std::vector<std::string>& globs, std::string_view name, std::string_view path) {
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& glob) {
    // A glob with a slash is matched against the whole path, and its * crosses folders.
    if (glob.find('/') != std::string::npos) return !path.empty() && Glob(glob, path, 0);
    return Glob(glob, name, 0);
  });
}

bool IsChurnFolder(std::string_view name, std::string_view path) {
  if (name.starts_with(".Trash-")) return true;
  return std::any_of(std::begin(kChurnFolders), std::end(kChurnFolders), [&](std::string_view churn) {
    if (churn.find('/') == std::string_view::npos) return name == churn;
    return path.ends_with(churn) && path.size() > churn.size() &&
           path[path.size() - churn.size() - 1] == '/';
  });
}

}  // namespace

IgnoreRules::IgnoreRules(const MinerConfig& config)
    : index_hidden_(config.index_hidden),
      skip_churn_(config.skip_churn_folders),
      honour_gitignore_(config.honour_gitignore),
      file_globs_(config.ignored_files),
      folder_globs_(config.ignored_folders),
      markers_(config.ignore_markers) {
  const auto has_slash = [](const std::string& glob) { return glob.find('/') != std::string::npos; };
  file_needs_path_ = std::any_of(file_globs_.begin(), file_globs_.end(), has_slash);
  // Path-suffix churn entries (.local/share/Trash) need the folder's path too.
  folder_needs_path_ = skip_churn_ || std::any_of(folder_globs_.begin(), folder_globs_.end(), has_slash);
  if (skip_churn_) markers_.insert(markers_.end(), std::begin(kChurnMarkers), std::end(kChurnMarkers));
}

bool IgnoreRules::IgnoresFile(std::string_view name, std::string_view path) const {
  if (!index_hidden_ && name.starts_with('.')) return true;
  return AnyGlob(file_globs_, name, path);
}

bool IgnoreRules::IgnoresFolder(std::string_view name, std::string_view path) const {
  if (!index_hidden_ && name.starts_with('.')) return true;
  if (skip_churn_ && IsChurnFolder(name, path)) return true;
  return AnyGlob(folder_globs_, name, path);
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
    rule.pattern = std::move(line);
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
    const bool matches = rule->anchored ? Glob(rule->pattern, relative_path, FNM_PATHNAME)
                                        : Glob(rule->pattern, name, 0);
    if (matches) return !rule->negate;
  }
  return std::nullopt;
}

}  // namespace quarry::miner
