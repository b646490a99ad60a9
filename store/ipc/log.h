// Log lines of quarry-store: stderr (journald for a session service), one line each, prefixed
// with the program name. Query literals and file contents never go here.
// Thread-safety: any thread (one fmt::print call per line).
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <string_view>

namespace quarry::ipc {

inline void LogInfo(std::string_view line) { fmt::print(stderr, "quarry-store: {}\n", line); }
inline void LogWarning(std::string_view line) {
  fmt::print(stderr, "quarry-store: warning: {}\n", line);
}
inline void LogError(std::string_view line) {
  fmt::print(stderr, "quarry-store: error: {}\n", line);
}

}  // namespace quarry::ipc
