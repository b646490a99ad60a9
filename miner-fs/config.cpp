#include "miner-fs/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

namespace quarry::miner {
namespace {

std::filesystem::path EnvPath(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? std::filesystem::path(value) : std::filesystem::path();
}

std::string Unquote(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    return std::string(text.substr(1, text.size() - 2));
  }
  return std::string(text);
}

// Reads `key` into `target` when present and of type T; otherwise a warning names the key.
template <typename T>
void ReadValue(const toml::table& table, std::string_view section, std::string_view key, T& target,
               std::vector<std::string>& warnings) {
  const toml::node* node = table.get(key);
  if (!node) return;
  if (const auto value = node->value<T>()) {
    target = *value;
    return;
  }
  warnings.push_back(fmt::format("{}.{}: expected a {}; using default {}", section, key,
                                 std::is_same_v<T, bool> ? "boolean" : "number", target));
}

void ReadInt(const toml::table& table, std::string_view section, std::string_view key, int min,
             int max, int& target, std::vector<std::string>& warnings) {
  int64_t value = target;
  ReadValue<int64_t>(table, section, key, value, warnings);
  if (value < min || value > max) {
    warnings.push_back(fmt::format("{}.{}: {} is outside {}..{}; using default {}", section, key,
                                   value, min, max, target));
    return;
  }
  target = static_cast<int>(value);
}

// A string array; a non-array or a non-string element keeps the default. True when read.
bool ReadStrings(const toml::table& table, std::string_view section, std::string_view key,
                 std::vector<std::string>& target, std::vector<std::string>& warnings) {
  const toml::node* node = table.get(key);
  if (!node) return false;
  const toml::array* array = node->as_array();
  std::vector<std::string> values;
  bool is_valid = array != nullptr;
  if (array) {
    for (const toml::node& element : *array) {
      const auto text = element.value<std::string>();
      if (!text) is_valid = false;
      if (text) values.push_back(*text);
    }
  }
  if (!is_valid) {
    warnings.push_back(fmt::format("{}.{}: expected an array of strings; using default [{}]",
                                   section, key, fmt::join(target, ", ")));
    return false;
  }
  target = std::move(values);
  return true;
}

// Folder specs -> roots; an unknown or relative spec is dropped with a warning.
void ReadRoots(const toml::table& index, std::string_view key, bool recursive,
               const UserDirs& dirs, MinerConfig& config, std::vector<std::string>& warnings) {
  std::vector<std::string> specs;
  if (!ReadStrings(index, "index", key, specs, warnings)) return;
  std::erase_if(config.roots, [&](const IndexRoot& root) { return root.recursive == recursive; });
  for (const std::string& spec : specs) {
    auto path = ExpandFolder(spec, dirs);
    if (!path) {
      warnings.push_back(fmt::format("index.{}: {}; folder skipped", key, path.error().message()));
      continue;
    }
    config.roots.push_back({std::move(*path), recursive});
  }
}

void ReadIndex(const toml::table& index, const UserDirs& dirs, MinerConfig& config,
               std::vector<std::string>& warnings) {
  ReadRoots(index, "recursive_folders", true, dirs, config, warnings);
  ReadRoots(index, "single_folders", false, dirs, config, warnings);
  ReadValue(index, "index", "index_hidden", config.index_hidden, warnings);
  (void)ReadStrings(index, "index", "ignored_files", config.ignored_files, warnings);
  (void)ReadStrings(index, "index", "ignored_folders", config.ignored_folders, warnings);
  ReadValue(index, "index", "skip_churn_folders", config.skip_churn_folders, warnings);
  (void)ReadStrings(index, "index", "ignore_markers", config.ignore_markers, warnings);
  ReadValue(index, "index", "honour_gitignore", config.honour_gitignore, warnings);
  ReadValue(index, "index", "removable_media", config.removable_media, warnings);
}

// Globs on a file's name: an empty one, or one holding '/', never matches a name.
void ReadExtract(const toml::table& extract, MinerConfig& config,
                 std::vector<std::string>& warnings) {
  std::vector<std::string> globs = config.text_allowlist;
  if (!ReadStrings(extract, "extract", "text_allowlist", globs, warnings)) return;
  for (const std::string& glob : globs) {
    if (glob.empty() || glob.find('/') != std::string::npos) {
      warnings.push_back(fmt::format(
          "extract.text_allowlist: \"{}\" is not a glob on a file name; using default [{}]", glob,
          fmt::join(config.text_allowlist, ", ")));
      return;
    }
  }
  config.text_allowlist = std::move(globs);
}

void ReadOthers(const toml::table& root, MinerConfig& config, std::vector<std::string>& warnings) {
  if (const toml::table* throttle = root["throttle"].as_table()) {
    if (throttle->contains("cpu_percent")) {
      ReadInt(*throttle, "throttle", "cpu_percent", 1, 100, config.cpu_percent, warnings);
    } else if (throttle->contains("level")) {
      int level = (100 - config.cpu_percent) / 4;
      ReadInt(*throttle, "throttle", "level", 0, 20, level, warnings);
      config.cpu_percent = 100 - 4 * level;
    }
    ReadValue(*throttle, "throttle", "pause_on_battery", config.pause_on_battery, warnings);
  }
  if (const toml::table* monitor = root["monitor"].as_table()) {
    ReadInt(*monitor, "monitor", "max_watches", 0, 100'000'000, config.max_watches, warnings);
    int fallback_s = static_cast<int>(config.fallback_crawl_interval.count());
    ReadInt(*monitor, "monitor", "fallback_crawl_s", 1, 86'400, fallback_s, warnings);
    config.fallback_crawl_interval = std::chrono::seconds(fallback_s);
  }
  if (const toml::table* writes = root["writes"].as_table()) {
    ReadInt(*writes, "writes", "batch_files", 1, 100000, config.batch_files, warnings);
    int batch_ms = static_cast<int>(config.batch_time.count());
    ReadInt(*writes, "writes", "batch_ms", 0, 60000, batch_ms, warnings);
    config.batch_time = std::chrono::milliseconds(batch_ms);
    int quiet_ms = static_cast<int>(config.quiet_period.count());
    ReadInt(*writes, "writes", "quiet_period_ms", 0, 600000, quiet_ms, warnings);
    config.quiet_period = std::chrono::milliseconds(quiet_ms);
  }
  if (const toml::table* extract = root["extract"].as_table()) {
    ReadExtract(*extract, config, warnings);
  }
}

}  // namespace

UserDirs UserDirs::Parse(std::string_view user_dirs_text, const std::filesystem::path& home) {
  UserDirs dirs{home, {}};
  std::istringstream lines{std::string(user_dirs_text)};
  std::string line;
  while (std::getline(lines, line)) {
    const size_t equals = line.find('=');
    if (line.starts_with('#') || !line.starts_with("XDG_") || equals == std::string::npos) continue;
    std::string name = line.substr(4, equals - 4);
    if (!name.ends_with("_DIR")) continue;
    name.resize(name.size() - 4);
    std::string value = Unquote(line.substr(equals + 1));
    if (value.starts_with("$HOME")) value = home.string() + value.substr(5);
    if (value.empty() || value.front() != '/') continue;
    dirs.xdg.emplace_back(std::move(name), std::filesystem::path(value));
  }
  return dirs;
}

UserDirs UserDirs::FromEnvironment() {
  const std::filesystem::path home = EnvPath("HOME");
  std::filesystem::path config = EnvPath("XDG_CONFIG_HOME");
  if (config.empty()) config = home / ".config";
  std::ifstream file(config / "user-dirs.dirs");
  std::stringstream text;
  text << file.rdbuf();
  return Parse(text.str(), home);
}

std::filesystem::path NormalizeFolder(const std::filesystem::path& path) {
  std::filesystem::path normal = std::filesystem::absolute(path).lexically_normal();
  if (normal.has_parent_path() && !normal.has_filename()) normal = normal.parent_path();
  return normal;
}

Result<std::filesystem::path> ExpandFolder(std::string_view spec, const UserDirs& dirs) {
  if (spec.starts_with('&')) {
    const std::string_view name = spec.substr(1);
    for (const auto& [xdg_name, path] : dirs.xdg) {
      if (xdg_name == name) return path;
    }
    // The xdg-user-dirs defaults, used when user-dirs.dirs does not name the folder.
    static constexpr std::pair<std::string_view, std::string_view> kDefaults[] = {
        {"DESKTOP", "Desktop"}, {"DOCUMENTS", "Documents"}, {"DOWNLOAD", "Downloads"},
        {"MUSIC", "Music"},     {"PICTURES", "Pictures"},   {"VIDEOS", "Videos"},
        {"TEMPLATES", "Templates"}, {"PUBLICSHARE", "Public"}};
    for (const auto& [xdg_name, folder] : kDefaults) {
      if (xdg_name == name) return dirs.home / folder;
    }
    return Error(Errc::kInvalidArgument, fmt::format("unknown XDG folder '{}'", spec));
  }
  if (spec == "$HOME" || spec == "~") return NormalizeFolder(dirs.home);
  if (spec.starts_with("$HOME/")) return NormalizeFolder(dirs.home / spec.substr(6));
  if (spec.starts_with("~/")) return NormalizeFolder(dirs.home / spec.substr(2));
  if (!spec.starts_with('/')) {
    return Error(Errc::kInvalidArgument, fmt::format("'{}' is not an absolute path", spec));
  }
  return NormalizeFolder(spec);
}

MinerConfig DefaultConfig(const UserDirs& dirs) {
  MinerConfig config;
  for (const char* name : {"&DOCUMENTS", "&MUSIC", "&PICTURES", "&VIDEOS", "&DESKTOP"}) {
    config.roots.push_back({*ExpandFolder(name, dirs), true});
  }
  config.roots.push_back({*ExpandFolder("&DOWNLOAD", dirs), false});
  config.roots.push_back({dirs.home, false});
  config.ignored_files = {"*~", "*.bak", "*.tmp", "*.swp", "*.part", "*.crdownload", ".#*",
                          "#*#", "*.o", "*.pyc", "*.lock"};
  config.ignored_folders = {"lost+found", "CVS", ".svn", ".hg"};
  return config;
}

Result<LoadedConfig> ParseConfig(std::string_view toml_text, const UserDirs& dirs) {
  LoadedConfig loaded{DefaultConfig(dirs), {}};
  toml::table root;
  try {
    root = toml::parse(toml_text);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return Error(Errc::kParse,
                 fmt::format("{}:{}: {}", where.line, where.column, error.description()));
  }
  if (const toml::table* index = root["index"].as_table()) {
    ReadIndex(*index, dirs, loaded.config, loaded.warnings);
  }
  ReadOthers(root, loaded.config, loaded.warnings);
  return loaded;
}

Result<LoadedConfig> LoadConfig(const std::filesystem::path& file, const UserDirs& dirs) {
  std::ifstream stream(file, std::ios::binary);
  if (!stream) {
    if (!std::filesystem::exists(file)) return LoadedConfig{DefaultConfig(dirs), {}};
    return Error(Errc::kIo, fmt::format("cannot read {}", file.string()));
  }
  std::stringstream text;
  text << stream.rdbuf();
  auto loaded = ParseConfig(text.str(), dirs);
  if (!loaded) return std::move(loaded).error().WithContext(file.string());
  return loaded;
}

std::filesystem::path DefaultConfigFile() {
  std::filesystem::path config = EnvPath("XDG_CONFIG_HOME");
  if (config.empty()) config = EnvPath("HOME") / ".config";
  return config / "quarry" / "quarry.toml";
}

}  // namespace quarry::miner
