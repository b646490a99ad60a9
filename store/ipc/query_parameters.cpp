#include "store/ipc/query_parameters.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace quarry::ipc {
namespace {

constexpr std::string_view kIri = "iri";
constexpr std::string_view kBlank = "blank";
constexpr std::string_view kLiteral = "literal";

std::string_view KindName(schema::RdfTerm::Kind kind) {
  switch (kind) {
    case schema::RdfTerm::Kind::kIri:
      return kIri;
    case schema::RdfTerm::Kind::kBlank:
      return kBlank;
    case schema::RdfTerm::Kind::kLiteral:
      break;
  }
  return kLiteral;
}

// The SPARQL grammar's `~name` (VARNAME-like): what the parser accepts after
// '~'.
bool IsParameterName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

Error Bad(std::string_view name, std::string_view why) {
  return Error(Errc::kInvalidArgument, fmt::format("parameter ~{}: {}", name, why));
}

}  // namespace

sdbus::Variant EncodeParameters(const engine::QueryParameters &parameters) {
  WireParameters wire;
  for (const auto &[name, term] : parameters) {
    wire.emplace(name,
                 WireTerm(std::string(KindName(term.kind)), term.value, term.datatype, term.lang));
  }
  return sdbus::Variant(wire);
}

Result<engine::QueryParameters> DecodeParameters(const sdbus::Variant &value) {
  if (!value.containsValueOfType<WireParameters>()) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("option '{}' must be of type a{{s(ssss)}}, not '{}'",
                             kParametersOption, value.peekValueType()));
  }
  engine::QueryParameters parameters;
  for (auto &[name, wire] : value.get<WireParameters>()) {
    if (!IsParameterName(name)) return Bad(name, "not a parameter name (letters, digits, _)");
    const std::string &kind = std::get<0>(wire);
    std::string &text = std::get<1>(wire);
    std::string &datatype = std::get<2>(wire);
    std::string &lang = std::get<3>(wire);
    schema::RdfTerm term;
    if (kind == kLiteral) {
      if (!datatype.empty() && !lang.empty()) {
        return Bad(name, "a literal has a datatype or a language tag, not both");
      }
      term = schema::RdfTerm::Literal(std::move(text), std::move(datatype), std::move(lang));
    } else if (kind == kIri || kind == kBlank) {
      if (!datatype.empty() || !lang.empty()) {
        return Bad(name, fmt::format("an {} has no datatype or language tag", kind));
      }
      term = kind == kIri ? schema::RdfTerm::Iri(std::move(text))
                          : schema::RdfTerm::Blank(std::move(text));
    } else {
      return Bad(name, fmt::format("unknown kind '{}' (iri, blank or literal)", kind));
    }
    parameters.emplace(name, std::move(term));
  }
  return parameters;
}

}  // namespace quarry::ipc
