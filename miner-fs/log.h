// Log lines of quarry-miner-fs: stderr (journald for a session service), one line each. File
// contents never go here; paths do, as the user needs them to act on a warning.
// Thread-safety: any thread (one fmt::print call per line).
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <string_view>

namespace quarry::miner {

inline void LogInfo(std::string_view line) { fmt::print(stderr, "quarry-miner-fs: {}\n", line); }
inline void LogWarning(std::string_view line) {
  fmt::print(stderr, "quarry-miner-fs: warning: {}\n", line);
}

}  // namespace quarry::miner
