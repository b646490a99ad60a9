// Log lines of quarry-extract: stderr (journald for a session service), one line each. File
// contents never go here; paths and failure reasons do.
// Thread-safety: any thread (one fmt::print call per line).
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <string_view>

namespace quarry::extract::service {

inline void LogInfo(std::string_view line) { fmt::print(stderr, "quarry-extract: {}\n", line); }
inline void LogWarning(std::string_view line) {
  fmt::print(stderr, "quarry-extract: warning: {}\n", line);
}

}  // namespace quarry::extract::service
