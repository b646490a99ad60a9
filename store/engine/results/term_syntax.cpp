#include "store/engine/results/term_syntax.h"

#include <fmt/format.h>

#include "store/ontology/ontology.h"

namespace quarry::engine::results {
namespace {

bool IsControl(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7F;
}

// JSON and N-Triples share the short escapes; they differ only in which bytes take a \u escape
// (N-Triples also escapes DEL) and in the case of its hex digits.
enum class StringSyntax { kJson, kNTriples };

std::string QuotedString(std::string_view text, StringSyntax syntax) {
  std::string quoted = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        quoted += "\\\"";
        break;
      case '\\':
        quoted += "\\\\";
        break;
      case '\n':
        quoted += "\\n";
        break;
      case '\r':
        quoted += "\\r";
        break;
      case '\t':
        quoted += "\\t";
        break;
      case '\b':
        quoted += "\\b";
        break;
      case '\f':
        quoted += "\\f";
        break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        if (syntax == StringSyntax::kNTriples && IsControl(c)) {
          quoted += fmt::format("\\u{:04X}", byte);
        } else if (syntax == StringSyntax::kJson && byte < 0x20) {
          quoted += fmt::format("\\u{:04x}", byte);
        } else {
          quoted += c;
        }
      }
    }
  }
  return quoted + "\"";
}

std::string NTriplesString(std::string_view text) {
  return QuotedString(text, StringSyntax::kNTriples);
}

std::string NTriplesIri(std::string_view iri) {
  std::string text = "<";
  for (const char c : iri) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || std::string_view("<>\"{}|^`\\").find(c) != std::string_view::npos) {
      text += fmt::format("\\u{:04X}", byte);
    } else {
      text += c;
    }
  }
  return text + ">";
}

bool IsBareInteger(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string Xsd(std::string_view local) {
  return std::string(ontology::iri::kXsd) + std::string(local);
}

}  // namespace

std::string JsonString(std::string_view text) {
  return QuotedString(text, StringSyntax::kJson);
}

std::string XmlText(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\t':
      case '\n':
      case '\r':
        escaped += c;
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          escaped += "\xEF\xBF\xBD";
        } else {
          escaped += c;
        }
    }
  }
  return escaped;
}

std::string CsvField(std::string_view value) {
  if (value.find_first_of("\",\r\n") == std::string_view::npos) return std::string(value);
  std::string quoted = "\"";
  for (const char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string NTriplesTerm(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri:
      return NTriplesIri(term.value);
    case schema::RdfTerm::Kind::kBlank:
      return "_:" + term.value;
    case schema::RdfTerm::Kind::kLiteral:
      break;
  }
  if (!term.lang.empty()) return NTriplesString(term.value) + "@" + term.lang;
  if (!term.datatype.empty() && term.datatype != Xsd("string")) {
    return NTriplesString(term.value) + "^^" + NTriplesIri(term.datatype);
  }
  return NTriplesString(term.value);
}

std::string TsvTerm(const schema::RdfTerm& term) {
  if (term.kind == schema::RdfTerm::Kind::kLiteral && term.lang.empty()) {
    if (term.datatype == Xsd("integer") && IsBareInteger(term.value)) return term.value;
    if (term.datatype == Xsd("boolean") && (term.value == "true" || term.value == "false")) {
      return term.value;
    }
  }
  return NTriplesTerm(term);
}

}  // namespace quarry::engine::results
