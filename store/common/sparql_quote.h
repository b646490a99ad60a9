// SPARQL string literals for every layer that writes SPARQL text (miner updates, contacts
// queries, bound ~parameters sent over D-Bus, extracted text): "it\"s", with \ " LF CR TAB
// escaped. The output is also a valid Turtle STRING_LITERAL_QUOTE (the grammars share it).
// AppendSparqlText: the same, as a long literal for texts of several lines.
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

// Appends `text` quoted as a long literal ("""...""") when it holds a line feed, else as
// AppendSparqlString does. In the long form only \ is always escaped, and a " that another "
// follows or that ends the text (so no two quotes in a row are unescaped: the content holds no
// """ and does not end with a quote). Line breaks, tabs and lone quotes stay as they are, so a
// plain text of many lines (code with its quotes too) reaches the store's lexer as one
// escape-free run that is copied whole, not split at each "\n" (issue 5,
// store/sparql/string_decode.cpp). Valid SPARQL STRING_LITERAL_LONG2 and Turtle
// STRING_LITERAL_LONG_QUOTE.
inline void AppendSparqlText(std::string_view text, std::string& out) {
  if (text.find('\n') == std::string_view::npos) {
    AppendSparqlString(text, out);
    return;
  }
  out.reserve(out.size() + text.size() + 6);
  out += R"(""")";
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool quote_ends_run = text[i] == '"' && i + 1 < text.size() && text[i + 1] != '"';
    if ((text[i] != '\\' && text[i] != '"') || quote_ends_run) continue;
    out.append(text.data() + run, i - run);
    out += '\\';
    out += text[i];
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
  out += R"(""")";
}

inline std::string SparqlString(std::string_view text) {
  std::string out;
  AppendSparqlString(text, out);
  return out;
}

}  // namespace quarry
