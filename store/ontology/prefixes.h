// Prefixed names ("nie:title") <-> full IRIs, given a prefix map.
//
// Internal to the ontology module: Ontology::Compact()/Expand() wrap these, and the loader and
// Build() use them for error messages before an Ontology exists. Pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace quarry::ontology {

using PrefixMap = std::map<std::string, std::string>;  // prefix -> namespace IRI

// The prefixed name of `iri` under the longest matching namespace, or `iri` itself when no
// namespace matches or the rest would not be a plain local name (empty, or holding '/', '#').
std::string CompactIri(const PrefixMap& prefixes, std::string_view iri);

// "nie:title" -> namespace + "title"; nullopt without ':' or for an unknown prefix.
std::optional<std::string> ExpandName(const PrefixMap& prefixes, std::string_view prefixed);

}  // namespace quarry::ontology
