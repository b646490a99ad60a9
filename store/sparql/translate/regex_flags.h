// SPARQL/XPath regular-expression flags (i s m x q) as ICU RegexPattern flags. Shared by the
// compiler, which checks constant patterns at compile time, and the engine's REGEX/REPLACE.
// Pure; any thread.
#pragma once

#include <unicode/regex.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace quarry::sparql {

// nullopt for a flag XPath does not define (an error in SPARQL).
inline std::optional<uint32_t> RegexFlags(std::string_view flags) {
  uint32_t icu_flags = 0;
  for (const char flag : flags) {
    switch (flag) {
      case 'i':
        icu_flags |= UREGEX_CASE_INSENSITIVE;
        break;
      case 's':
        icu_flags |= UREGEX_DOTALL;
        break;
      case 'm':
        icu_flags |= UREGEX_MULTILINE;
        break;
      case 'x':
        icu_flags |= UREGEX_COMMENTS;
        break;
      case 'q':
        icu_flags |= UREGEX_LITERAL;
        break;
      default:
        return std::nullopt;
    }
  }
  return icu_flags;
}

}  // namespace quarry::sparql
