// Reading numbers and booleans from the lexical form a value travelled in (FD stream, aas).
// Pure; any thread.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>

namespace quarry {

// 0 when `text` is not an integer (as the direct cursor's SQLite coercion would give).
inline int64_t IntegerFromText(std::string_view text) {
  if (text == "true") return 1;
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

inline double DoubleFromText(std::string_view text) {
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

inline bool BooleanFromText(std::string_view text) { return text == "true" || text == "1"; }

}  // namespace quarry
