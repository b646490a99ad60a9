#include "store/ipc/query_parameters.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
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

namespace {

// One wire term checked into an RdfTerm; the strings are moved from.
Result<schema::RdfTerm> TermOf(std::string_view name, std::string_view kind, std::string &text,
                               std::string &datatype, std::string &lang) {
  if (!IsParameterName(name)) return Bad(name, "not a parameter name (letters, digits, _)");
  if (kind == kLiteral) {
    if (!datatype.empty() && !lang.empty()) {
      return Bad(name, "a literal has a datatype or a language tag, not both");
    }
    return schema::RdfTerm::Literal(std::move(text), std::move(datatype), std::move(lang));
  }
  if (kind == kIri || kind == kBlank) {
    if (!datatype.empty() || !lang.empty()) {
      return Bad(name, fmt::format("an {} has no datatype or language tag", kind));
    }
    return kind == kIri ? schema::RdfTerm::Iri(std::move(text))
                        : schema::RdfTerm::Blank(std::move(text));
  }
  return Bad(name, fmt::format("unknown kind '{}' (iri, blank or literal)", kind));
}

}  // namespace

Result<engine::QueryParameters> DecodeParameters(const sdbus::Variant &value) {
  if (!value.containsValueOfType<WireParameters>()) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("option '{}' must be of type a{{s(ssss)}}, not '{}'",
                             kParametersOption, value.peekValueType()));
  }
  engine::QueryParameters parameters;
  for (auto &[name, wire] : value.get<WireParameters>()) {
    QUARRY_ASSIGN_OR_RETURN(schema::RdfTerm term, TermOf(name, std::get<0>(wire), std::get<1>(wire),
                                                         std::get<2>(wire), std::get<3>(wire)));
    parameters.emplace(name, std::move(term));
  }
  return parameters;
}

Result<void> AppendParameters(sd_bus_message *message, const engine::QueryParameters &parameters) {
  int r = sd_bus_message_open_container(message, 'a', "{s(ssss)}");
  if (r < 0) {
    return Error(Errc::kInternal,
                 fmt::format("cannot open option '{}': {}", kParametersOption, std::strerror(-r)));
  }
  for (const auto &[name, term] : parameters) {
    r = sd_bus_message_append(message, "{s(ssss)}", name.c_str(), KindName(term.kind).data(),
                              term.value.c_str(), term.datatype.c_str(), term.lang.c_str());
    if (r < 0) {
      return Bad(name, fmt::format("cannot be sent: {} (values must be UTF-8)",
                                   std::strerror(-r)));
    }
  }
  r = sd_bus_message_close_container(message);
  if (r < 0) {
    return Error(Errc::kInternal,
                 fmt::format("cannot close option '{}': {}", kParametersOption, std::strerror(-r)));
  }
  return Ok();
}

Result<engine::QueryParameters> ReadParameters(sd_bus_message *message) {
  engine::QueryParameters parameters;
  std::string text;
  std::string datatype;
  std::string lang;
  int r = sd_bus_message_enter_container(message, 'a', "{s(ssss)}");
  while (r >= 0 && (r = sd_bus_message_enter_container(message, 'e', "s(ssss)")) > 0) {
    const char *fields[5] = {};
    r = sd_bus_message_read(message, "s(ssss)", &fields[0], &fields[1], &fields[2], &fields[3],
                            &fields[4]);
    if (r >= 0) r = sd_bus_message_exit_container(message);
    if (r < 0) break;
    text = fields[2];
    datatype = fields[3];
    lang = fields[4];
    QUARRY_ASSIGN_OR_RETURN(schema::RdfTerm term,
                            TermOf(fields[0], fields[1], text, datatype, lang));
    parameters.insert_or_assign(fields[0], std::move(term));
  }
  if (r >= 0) r = sd_bus_message_exit_container(message);
  if (r < 0) {
    return Error(Errc::kInvalidArgument, fmt::format("cannot read option '{}' of the call: {}",
                                                     kParametersOption, std::strerror(-r)));
  }
  return parameters;
}

}  // namespace quarry::ipc
