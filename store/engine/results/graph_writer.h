// Graph results (CONSTRUCT, DESCRIBE) as Turtle or N-Triples, through the exporter's serd writer
// (rdf_io::RdfWriter), so every RDF text the store writes escapes the same way.
// Thread-safety: any thread; borrows the stream.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/triple_set.h"

namespace quarry::engine::results {

enum class GraphFormat { kTurtle, kNTriples };

std::optional<GraphFormat> GraphFormatFromName(std::string_view name);  // "turtle", "ntriples"

// Writes `triples` in their order. Turtle declares only the prefixes of `prefixes` (prefix →
// namespace) that some IRI of the output starts with, and groups consecutive triples of one
// subject. Errors: kIo when `out` fails.
Result<void> WriteGraph(const TripleSet& triples, GraphFormat format,
                        const std::map<std::string, std::string>& prefixes, std::ostream& out);

}  // namespace quarry::engine::results
