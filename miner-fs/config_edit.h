// Edits of the index roots in quarry.toml for `quarry index --add/--remove`. The file is read
// with tomlplusplus, the [index] arrays changed, and the table written back: other keys and
// values are kept, comments are not (tomlplusplus does not keep them). A key the file did not
// have starts from the defaults, so adding a folder never drops the XDG folders.
// Thread-safety: one caller per file.
#pragma once

#include <filesystem>

#include "miner-fs/config.h"
#include "quarry/result.h"

namespace quarry::miner {

// Adds `folder` to recursive_folders or single_folders (and out of the other list).
Result<void> AddRootToConfigFile(const std::filesystem::path& file, const std::filesystem::path& folder,
                                 bool recursive, const UserDirs& dirs);
// Removes every spec naming `folder`; Errc::kNotFound when none does.
Result<void> RemoveRootFromConfigFile(const std::filesystem::path& file,
                                      const std::filesystem::path& folder, const UserDirs& dirs);

}  // namespace quarry::miner
