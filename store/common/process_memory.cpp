#include "store/common/process_memory.h"

#include <fmt/format.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace quarry {
namespace {

bool ParseInt(std::string_view text, int minimum, int* value) {
  if (text.empty() || text.size() > 10) return false;
  int64_t parsed = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    parsed = parsed * 10 + (c - '0');
  }
  if (parsed < minimum || parsed > INT32_MAX) return false;
  *value = static_cast<int>(parsed);
  return true;
}

}  // namespace

MallocSettings ParseMallocSettings(const char* text, std::string* warning) {
  MallocSettings settings;
  if (text == nullptr || *text == '\0') return settings;
  std::string_view rest(text);
  if (rest == "glibc") {
    settings.apply = false;
    return settings;
  }
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t equals = item.find('=');
    const std::string_view key = item.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : item.substr(equals + 1);
    bool parsed = false;
    if (key == "arena_max") {
      parsed = ParseInt(value, 1, &settings.arena_max);
    } else if (key == "trim_threshold") {
      parsed = ParseInt(value, 0, &settings.trim_threshold);
    } else if (key == "mmap_threshold") {
      parsed = ParseInt(value, 0, &settings.mmap_threshold);
    }
    if (!parsed && warning != nullptr) {
      *warning += fmt::format("{}QUARRY_MALLOC: '{}' ignored", warning->empty() ? "" : "; ", item);
    }
  }
  return settings;
}

MallocSettings ConfigureMalloc(const char* process_name) {
  std::string warning;
  const MallocSettings settings = ParseMallocSettings(std::getenv("QUARRY_MALLOC"), &warning);
  if (!warning.empty()) fmt::print(stderr, "{}: {}\n", process_name, warning);
  if (settings.apply) {
    mallopt(M_ARENA_MAX, settings.arena_max);
    if (settings.trim_threshold >= 0) mallopt(M_TRIM_THRESHOLD, settings.trim_threshold);
    if (settings.mmap_threshold >= 0) mallopt(M_MMAP_THRESHOLD, settings.mmap_threshold);
  }
  return settings;
}

}  // namespace quarry
