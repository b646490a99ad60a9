// QuadWriter: writes the open-mode quad table (store/schema/quad_table.h, SCHEMA.md "Open
// mode") inside the caller's transaction. The update executor and the importer hand it the
// triples the ontology cannot hold: an unknown predicate, or rdf:type with an unknown class.
// It shares the TripleWriter's resource IDs and blank-node scopes, so a resource is the same
// whether its triples live in class tables or in the quad table.
// Thread-safety: the writer thread, like the TripleWriter it borrows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/engine/triple_writer.h"
#include "store/ontology/ontology.h"

namespace quarry::engine {

// Open mode is a property of the database: it has the quad table.
Result<bool> HasQuadTable(Database& db);
// Creates the quad and literal tables (a new open-mode database), or rebuilds a quad table of
// the old Graph-first layout in the current one (one transaction).
Result<void> CreateQuadTables(Database& db);
// The built-in base ontology an open-mode store follows: xsd, rdf/rdfs and nrl. (Tracker's own
// file extends nfo: classes, so it cannot come without the Nepomuk files.)
bool IsBaseOntologyFile(std::string_view file_name);

class QuadWriter {
 public:
  QuadWriter(Database& db, TripleWriter& writer, const ontology::Ontology& ontology)
      : db_(db), writer_(writer), ontology_(ontology) {}

  // Whether a triple goes to the quad table: any predicate but rdf:type (base-ontology ones
  // too), or rdf:type when `object` names no class of the ontology.
  Result<bool> Routes(const ontology::Property* property, const Object& object);
  // The Resource ID of a predicate IRI, created when missing.
  Result<int64_t> PredicateId(std::string_view iri);
  // The IRI of a resource ID; nullopt for a blank node or a literal term ID.
  Result<std::optional<std::string>> UriOf(int64_t id);

  Result<void> Insert(int64_t graph, int64_t subject, int64_t predicate, const Object& object,
                      BlankScope& blanks);
  // From `graph`, or from every graph when nullopt; a missing quad is not an error.
  Result<void> Delete(std::optional<int64_t> graph, int64_t subject, int64_t predicate,
                      const Object& object);
  // CLEAR/DROP: one graph, or every graph when nullopt (the default graph is 0).
  Result<void> ClearGraph(std::optional<int64_t> graph);

 private:
  // The term ID of an object: Resource ID, or a (negative) literal ID; nullopt when `create` is
  // false and the term was never stored.
  Result<std::optional<int64_t>> TermId(const Object& object, BlankScope* blanks, bool create);
  Result<std::optional<int64_t>> LiteralId(const RdfTerm& literal, bool create);

  Database& db_;
  TripleWriter& writer_;
  const ontology::Ontology& ontology_;
};

}  // namespace quarry::engine
