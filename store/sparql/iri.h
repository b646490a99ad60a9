// IRI reference resolution (RFC 3986 §5.2) for BASE and relative IRIs in queries.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace quarry::sparql {

// True when `iri` starts with a scheme ("http:", "urn:", "file:").
bool HasScheme(std::string_view iri);

// Resolves `reference` against `base` (RFC 3986 §5.2.2, with remove_dot_segments). An empty
// base leaves a relative reference unchanged; an absolute reference is kept as written (as the
// data loader keeps it: no dot segments removed, no case or escape normalization).
std::string ResolveIri(std::string_view base, std::string_view reference);

}  // namespace quarry::sparql
