// SQL quoting shared by every layer that writes SQL text: identifiers ("nie:title") and
// string literals ('it''s'). Pure; any thread.
#pragma once

#include <string>
#include <string_view>

namespace quarry {

inline std::string QuoteSqlIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (const char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

inline std::string QuoteSqlLiteral(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  quoted += '\'';
  return quoted;
}

}  // namespace quarry
