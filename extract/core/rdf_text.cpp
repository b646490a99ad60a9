#include "extract/core/rdf_text.h"

#include <fmt/format.h>

#include <cmath>
#include <type_traits>

#include "extract/core/vocab.h"
#include "store/common/sparql_quote.h"

namespace quarry::extract::rdf_text {
namespace {

bool IsSimpleLocalName(std::string_view local) {
  if (local.empty() || local.front() == '-' || local.front() == '.' || local.back() == '.') {
    return false;
  }
  for (const char c : local) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// Characters IRIREF forbids (SPARQL/Turtle grammar) are percent-encoded, so a module's odd IRI
// cannot break the statement.
void AppendIriRef(std::string_view iri, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out.push_back('<');
  for (const char ch : iri) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || ch == '<' || ch == '>' || ch == '"' || ch == '{' || ch == '}' || ch == '|' ||
        ch == '^' || ch == '`' || ch == '\\') {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    } else {
      out.push_back(ch);
    }
  }
  out.push_back('>');
}

void AppendDouble(double value, std::string& out) {
  out.push_back('"');
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "INF" : "-INF";
  } else {
    out += fmt::format("{}", value);
  }
  out += "\"^^xsd:double";
}

}  // namespace

std::string CompactIri(std::string_view iri) {
  for (const vocab::Prefix& prefix : vocab::kPrefixes) {
    if (iri.substr(0, prefix.iri.size()) != prefix.iri) continue;
    const std::string_view local = iri.substr(prefix.iri.size());
    if (!IsSimpleLocalName(local)) break;
    std::string name(prefix.name);
    name.push_back(':');
    name.append(local);
    return name;
  }
  return std::string(iri);
}

void AppendIri(std::string_view iri, std::string& out) {
  for (const vocab::Prefix& prefix : vocab::kPrefixes) {
    if (iri.substr(0, prefix.iri.size()) != prefix.iri) continue;
    const std::string_view local = iri.substr(prefix.iri.size());
    if (!IsSimpleLocalName(local)) break;
    out.append(prefix.name).push_back(':');
    out.append(local);
    return;
  }
  AppendIriRef(iri, out);
}

// One escaper for every layer that writes SPARQL (store/common/sparql_quote.h).
void AppendStringLiteral(std::string_view text, std::string& out) { AppendSparqlString(text, out); }

void AppendValue(const Value& value, std::string& out) {
  std::visit(
      [&out](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          AppendSparqlText(v, out);  // a text of many lines as one """ literal (issue 5)
        } else if constexpr (std::is_same_v<T, int64_t>) {
          out += fmt::format("{}", v);
        } else if constexpr (std::is_same_v<T, double>) {
          AppendDouble(v, out);
        } else if constexpr (std::is_same_v<T, bool>) {
          out += v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, Iri>) {
          AppendIri(v.value, out);
        } else {
          AppendStringLiteral(v.lexical, out);
          out += "^^xsd:dateTime";
        }
      },
      value);
}

void AppendPrefixes(bool sparql, std::string& out) {
  for (const vocab::Prefix& prefix : vocab::kPrefixes) {
    out += sparql ? "PREFIX " : "@prefix ";
    out.append(prefix.name);
    out += ": <";
    out.append(prefix.iri);
    out += sparql ? ">\n" : "> .\n";
  }
}

void AppendDescription(std::string_view subject, const Description& description,
                       const Description* extra, std::string& out) {
  AppendIri(subject, out);
  const char* separator = "\n  ";
  if (!description.types.empty()) {
    out += " a ";
    for (size_t i = 0; i < description.types.size(); ++i) {
      if (i) out += ", ";
      AppendIri(description.types[i], out);
    }
    separator = " ;\n  ";
  }
  const auto append_values = [&](const Description& from) {
    for (const PropertyValue& property_value : from.values) {
      out += separator;
      separator = " ;\n  ";
      AppendIri(property_value.property, out);
      out.push_back(' ');
      AppendValue(property_value.value, out);
    }
  };
  if (extra) append_values(*extra);
  append_values(description);
  out += " .\n";
}

}  // namespace quarry::extract::rdf_text
