// SPARQL string literals for every layer that writes SPARQL text (miner updates, contacts
// queries, bound ~parameters sent over D-Bus, extracted text): "it\"s", with \ " LF CR TAB
// escaped. The output is also a valid Turtle STRING_LITERAL_QUOTE (the grammars share it).
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>

namespace quarry {

// Appends `text` quoted to `out`, the runs between escapes appended whole (a page text of
// 1 MiB is not built byte by byte: bench/extract/README.md).
inline void AppendSparqlString(std::string_view text, std::string& out) {
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    std::string_view escape;
    switch (text[i]) {
      case '\\': escape = "\\\\"; break;
      case '"': escape = "\\\""; break;
      case '\n': escape = "\\n"; break;
      case '\r': escape = "\\r"; break;
      case '\t': escape = "\\t"; break;
      default: continue;
    }
    out.append(text.data() + run, i - run);
    out += escape;
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

inline std::string SparqlString(std::string_view text) {
  std::string out;
  AppendSparqlString(text, out);
  return out;
}

}  // namespace quarry
