#include "store/ontology/prefixes.h"

namespace quarry::ontology {

namespace {

bool IsPlainLocalName(std::string_view local) {
  return !local.empty() && local.find_first_of("/#?<>\" ") == std::string_view::npos;
}

}  // namespace

std::string CompactIri(const PrefixMap& prefixes, std::string_view iri) {
  const std::pair<const std::string, std::string>* best = nullptr;
  for (const auto& entry : prefixes) {
    const std::string& ns = entry.second;
    if (ns.empty() || !iri.starts_with(ns) || !IsPlainLocalName(iri.substr(ns.size()))) continue;
    // Longest namespace wins; among equal ones the map order (smallest prefix) keeps it stable.
    if (!best || ns.size() > best->second.size()) best = &entry;
  }
  if (!best) return std::string(iri);
  return best->first + ":" + std::string(iri.substr(best->second.size()));
}

std::optional<std::string> ExpandName(const PrefixMap& prefixes, std::string_view prefixed) {
  const size_t colon = prefixed.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto found = prefixes.find(std::string(prefixed.substr(0, colon)));
  if (found == prefixes.end()) return std::nullopt;
  return found->second + std::string(prefixed.substr(colon + 1));
}

}  // namespace quarry::ontology
