// Dumps the store as Turtle (one graph) or TriG (every graph, or one), reading the tables of
// SCHEMA.md directly in one read transaction (a consistent snapshot under WAL).
//
// Statements are grouped by subject: every property's rows are read in subject order and
// merged, so memory stays bounded by the number of properties, not the size of the store.
// rdf:type is written without the types the store implies: rdfs:Resource and every superclass
// of another type the resource has in that graph (the store adds them again on import).
// Blank nodes are labelled _:b1, _:b2, … in order of first appearance rather than by resource
// ID, so that importing an export into a fresh store and exporting again gives the same text.
// Thread-safety: the thread that owns the Database.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/ontology/ontology.h"

namespace quarry::engine::rdf_io {

enum class ExportFormat { kTurtle, kTrig };

struct ExportOptions {
  ExportFormat format = ExportFormat::kTurtle;
  // One named graph only. nullopt: Turtle writes the default graph, TriG every graph (the
  // default graph first, then named graphs by IRI).
  std::optional<std::string> graph;
};

struct ExportStats {
  uint64_t triples = 0;
  uint64_t subjects = 0;  // subject blocks written (a resource counts once per graph)
};

// Errors: kNotFound for an unknown graph, kIo when `out` fails, database errors.
Result<ExportStats> ExportRdf(Database& db, const ontology::Ontology& ontology,
                              const ExportOptions& options, std::ostream& out);

}  // namespace quarry::engine::rdf_io
