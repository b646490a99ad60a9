// Loads a local RDF file (Turtle, N-Triples, N-Quads, TriG) into the store through a
// TripleWriter, inside the caller's transaction (the caller commits, or rolls back on error,
// and calls TripleWriter::Finish / Abandon as for any update). Nothing stays buffered in the
// writer when it returns.
//
// Triples are inserted as by INSERT DATA: a second value for a single-valued property is an
// error, and a subject must have the type a property's domain needs. Since the store checks the
// domain when a property is inserted, the file is read twice, streaming both times: the first
// pass applies only rdf:type triples (and checks that every predicate is known), the second
// everything else — so a file may state a resource's type anywhere, even after its properties,
// and a file of any size is never held in memory. Blank node labels are scoped to the file.
// TriG and N-Quads graph names become named graphs; `target_graph` receives the default-graph
// triples (named graphs keep their names).
// Thread-safety: the writer thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "store/common/result.h"
#include "store/engine/rdf_io/rdf_reader.h"
#include "store/engine/sqlite/database.h"
#include "store/engine/quad_writer.h"
#include "store/engine/triple_writer.h"
#include "store/ontology/ontology.h"

namespace quarry::engine::rdf_io {

struct ImportStats {
  uint64_t triples = 0;  // statements inserted (rdf:type included)
  uint64_t types = 0;    // of which rdf:type
};

// `syntax` nullopt: decided by the file's extension (SyntaxOfFile).
// Errors carry "file:line:column" of the offending statement as context, and the triple.
Result<ImportStats> ImportRdf(TripleWriter& writer, const ontology::Ontology& ontology,
                              const std::filesystem::path& file,
                              std::optional<std::string> target_graph,
                              std::optional<RdfSyntax> syntax = std::nullopt,
                              QuadWriter* quads = nullptr);

// `quads` (open mode): triples the ontology cannot hold go to the quad table (quad_writer.h).
// ImportRdf in a transaction of its own, with its own TripleWriter (and QuadWriter when the
// database is in open mode): the file goes in whole
// (committed) or not at all (rolled back). For `quarry import` and tests.
Result<ImportStats> ImportFile(Database& db, const ontology::Ontology& ontology,
                               const std::filesystem::path& file,
                               std::optional<std::string> target_graph,
                               std::optional<RdfSyntax> syntax = std::nullopt);

}  // namespace quarry::engine::rdf_io
