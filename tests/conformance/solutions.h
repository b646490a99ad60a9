// Solution sequences and graphs as the conformance runner compares them, and the readers of
// the W3C expected-result formats: SPARQL XML (.srx), SPARQL JSON (.srj), and Turtle (.ttl)
// holding either a graph or a DAWG result set (rs:ResultSet).
// Thread-safety: plain values and reentrant functions.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/schema/rdf_term.h"

namespace quarry::conformance {

using schema::RdfTerm;
using Row = std::map<std::string, RdfTerm>;  // variable name (no '?') → value; unbound absent

struct Solutions {
  std::vector<std::string> variables;
  std::vector<Row> rows;
  std::optional<bool> boolean;  // ASK
};

// A quad: graph "" is the default graph.
struct Quad {
  std::string graph;
  RdfTerm subject;
  RdfTerm predicate;
  RdfTerm object;
};
using Graph = std::vector<Quad>;

// xsd:string is spelled as no datatype and language tags in lower case, so equal terms compare
// equal however a file writes them.
RdfTerm Normalized(RdfTerm term);

Result<Solutions> ReadSrx(const std::filesystem::path& file);
Result<Solutions> ReadSrj(const std::filesystem::path& file);
// Turtle or N-Triples as quads in `graph_name` (a graph of a CONSTRUCT or an update result).
Result<Graph> ReadGraph(const std::filesystem::path& file, const std::string& graph_name = "");
// A DAWG result set written in RDF (rs:ResultSet); kNotFound when the graph holds none.
Result<Solutions> ResultSetOfGraph(const Graph& graph);
// Any expected query result by extension; kUnsupported names formats we cannot read.
Result<Solutions> ReadExpectedSolutions(const std::filesystem::path& file);

}  // namespace quarry::conformance
