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
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/ontology/ontology.h"
#include "store/schema/rdf_term.h"

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

// Receives the statements read: `graph` is a named graph's IRI, nullopt for the default graph
// (and always for DescribeResources).
using ExportSink = std::function<Result<void>(
    const std::optional<std::string>& graph, const schema::RdfTerm& subject,
    std::string_view predicate, const schema::RdfTerm& object)>;

// DESCRIBE (Tracker's concise description): every statement whose subject is one of the
// resources `ids`, from all graphs as one (the union a query without GRAPH sees; a statement held
// in two graphs comes twice), in the export's order and with its rdf:type and blank-node rules.
// Reads in the caller's transaction, if any.
Result<ExportStats> DescribeResources(Database& db, const ontology::Ontology& ontology,
                                      std::span<const int64_t> ids, const ExportSink& sink);

}  // namespace quarry::engine::rdf_io
