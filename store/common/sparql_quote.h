// SPARQL string literals for every layer that writes SPARQL text (miner updates, contacts
// queries, bound ~parameters sent over D-Bus): "it\"s", with \ " LF CR TAB escaped.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>

namespace quarry {

inline std::string SparqlString(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += '"';
  return out;
}

}  // namespace quarry
