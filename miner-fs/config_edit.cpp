#include "miner-fs/config_edit.h"

#include <fmt/format.h>

#include <fstream>
#include <span>
#include <sstream>
#include <toml++/toml.h>

namespace quarry::miner {
namespace {

constexpr const char* kDefaultRecursive[] = {"&DOCUMENTS", "&MUSIC", "&PICTURES", "&VIDEOS", "&DESKTOP"};
constexpr const char* kDefaultSingle[] = {"&DOWNLOAD", "$HOME"};

Result<toml::table> ReadTable(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return toml::table{};
  std::ifstream stream(file, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  try {
    return toml::parse(text.str());
  } catch (const toml::parse_error& error) {
    return Error(Errc::kParse, fmt::format("{}:{}:{}: {}", file.string(), error.source().begin.line,
                                           error.source().begin.column, error.description()));
  }
}

Result<void> WriteTable(const std::filesystem::path& file, const toml::table& table) {
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temporary = file.string() + ".new";
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    stream << table << "\n";
    if (!stream) return Error(Errc::kIo, fmt::format("cannot write {}", temporary.string()));
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);  // atomic: a reader sees old or new
  if (error) return Error(Errc::kIo, fmt::format("cannot replace {}: {}", file.string(), error.message()));
  return Ok();
}

// The [index] array `key`, created from the defaults when missing.
toml::array& Folders(toml::table& index, const char* key) {
  if (!index[key].as_array()) {
    toml::array defaults;
    const bool recursive = std::string_view(key) == "recursive_folders";
    const std::span<const char* const> specs =
        recursive ? std::span<const char* const>(kDefaultRecursive) : std::span<const char* const>(kDefaultSingle);
    for (const char* spec : specs) {
      defaults.push_back(spec);
    }
    index.insert_or_assign(key, std::move(defaults));
  }
  return *index[key].as_array();
}

// Removes the specs that expand to `folder`; how many were removed.
size_t Remove(toml::array& specs, const std::filesystem::path& folder, const UserDirs& dirs) {
  const size_t before = specs.size();
  for (size_t i = specs.size(); i-- > 0;) {
    const auto spec = specs[i].value<std::string>();
    if (!spec) continue;
    const auto path = ExpandFolder(*spec, dirs);
    if (path && *path == folder) specs.erase(specs.begin() + static_cast<long>(i));
  }
  return before - specs.size();
}

toml::table& IndexTable(toml::table& root) {
  if (!root["index"].as_table()) root.insert_or_assign("index", toml::table{});
  return *root["index"].as_table();
}

}  // namespace

Result<void> AddRootToConfigFile(const std::filesystem::path& file, const std::filesystem::path& folder,
                                 bool recursive, const UserDirs& dirs) {
  QUARRY_ASSIGN_OR_RETURN(toml::table root, ReadTable(file));
  toml::table& index = IndexTable(root);
  const std::filesystem::path normal = NormalizeFolder(folder);
  Remove(Folders(index, "recursive_folders"), normal, dirs);
  Remove(Folders(index, "single_folders"), normal, dirs);
  Folders(index, recursive ? "recursive_folders" : "single_folders").push_back(normal.string());
  return WriteTable(file, root);
}

Result<void> RemoveRootFromConfigFile(const std::filesystem::path& file,
                                      const std::filesystem::path& folder, const UserDirs& dirs) {
  QUARRY_ASSIGN_OR_RETURN(toml::table root, ReadTable(file));
  toml::table& index = IndexTable(root);
  const std::filesystem::path normal = NormalizeFolder(folder);
  const size_t removed = Remove(Folders(index, "recursive_folders"), normal, dirs) +
                         Remove(Folders(index, "single_folders"), normal, dirs);
  if (removed == 0) {
    return Error(Errc::kNotFound, fmt::format("{} is not an indexed folder", normal.string()));
  }
  return WriteTable(file, root);
}

}  // namespace quarry::miner
