#include "store/client/parameter_text.h"

#include <fmt/format.h>

#include "store/common/sparql_quote.h"

namespace quarry {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// SPARQL IRIREF: '<' ([^<>"{}|^`\]-[#x00-#x20])* '>'. Anything else starting with '<' is the
// less-than operator. Returns the length of the IRI reference at `at`, or 0.
size_t IriRefLength(std::string_view text, size_t at) {
  for (size_t i = at + 1; i < text.size(); ++i) {
    const unsigned char c = text[i];
    if (c == '>') return i - at + 1;
    if (c <= 0x20 || std::string_view("<\"{}|^`\\").find(c) != std::string_view::npos) return 0;
  }
  return 0;
}

// Length of the string literal at `at` ('...', "...", '''...''', """...""").
size_t StringLength(std::string_view text, size_t at) {
  const char quote = text[at];
  const bool is_long = text.substr(at, 3) == std::string(3, quote);
  const std::string_view closing = is_long ? text.substr(at, 3) : text.substr(at, 1);
  for (size_t i = at + closing.size(); i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text.substr(i, closing.size()) == closing) return i + closing.size() - at;
  }
  return text.size() - at;  // unterminated: leave it to the store's parser to report
}

}  // namespace

std::string SparqlTermText(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri: return "<" + term.value + ">";
    case schema::RdfTerm::Kind::kBlank: return "_:" + term.value;
    case schema::RdfTerm::Kind::kLiteral: break;
  }
  if (!term.lang.empty()) return SparqlString(term.value) + "@" + term.lang;
  if (!term.datatype.empty()) return SparqlString(term.value) + "^^<" + term.datatype + ">";
  return SparqlString(term.value);
}

Result<std::string> SubstituteParameters(std::string_view sparql,
                                         const engine::QueryParameters& parameters) {
  std::string out;
  out.reserve(sparql.size());
  size_t i = 0;
  while (i < sparql.size()) {
    const char c = sparql[i];
    size_t skip = 0;
    if (c == '"' || c == '\'') skip = StringLength(sparql, i);
    if (c == '<') skip = IriRefLength(sparql, i);
    if (c == '#') skip = std::min(sparql.find('\n', i), sparql.size()) - i;
    if (skip > 0) {
      out.append(sparql.substr(i, skip));
      i += skip;
      continue;
    }
    if (c == '~' && i + 1 < sparql.size() && IsNameChar(sparql[i + 1])) {
      size_t end = i + 1;
      while (end < sparql.size() && IsNameChar(sparql[end])) ++end;
      const std::string_view name = sparql.substr(i + 1, end - i - 1);
      const auto found = parameters.find(name);
      if (found == parameters.end()) {
        return Error(Errc::kInvalidArgument, fmt::format("parameter ~{} has no value", name));
      }
      out += SparqlTermText(found->second);
      i = end;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace quarry
