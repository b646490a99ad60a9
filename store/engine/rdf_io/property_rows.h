// PropertyRows: the values of one property in one graph (export), or of some subjects in every
// graph (DESCRIBE), read straight from its table (SCHEMA.md) in subject order, for the
// exporter's merge of every property by subject.
//
// Subjects sort by IRI (blank nodes last, by ID), values of a multi-valued property by object
// IRI and then stored value — an order that does not depend on resource IDs, so that a store
// re-imported from an export exports the same text.
// Thread-safety: the thread that owns the Database; must not outlive it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/ontology/ontology.h"
#include "store/schema/names.h"
#include "store/schema/rdf_term.h"

namespace quarry::engine::rdf_io {

struct SubjectKey {
  bool blank = false;  // blank nodes (Resource.Uri NULL) come after every IRI
  std::string uri;     // empty for a blank node
  int64_t id = 0;
  bool operator==(const SubjectKey& other) const {
    return blank == other.blank && uri == other.uri && id == other.id;
  }
  bool operator<(const SubjectKey& other) const;
};

// An object as read: a term, and for a blank node its resource ID (term.value is empty; the
// exporter assigns the label).
struct ObjectValue {
  schema::RdfTerm term;
  int64_t blank_id = 0;
};

// Which rows a PropertyRows reads.
enum class RowScope {
  kGraph,     // every subject's values in one graph
  kSubjects,  // the values of listed subjects, in any graph
};

class PropertyRows {
 public:
  static Result<PropertyRows> Prepare(Database& db, const schema::Names& names,
                                      const ontology::Property& property,
                                      RowScope scope = RowScope::kGraph);

  // Rewinds to the first value held in `graph` (kGraph).
  Result<void> Start(int64_t graph);
  // Rewinds to the first value of the subjects in `ids_json`, a JSON array of resource IDs
  // (kSubjects; a JSON array binds any number of IDs to one statement).
  Result<void> StartSubjects(std::string_view ids_json);
  bool has_row() const { return has_row_; }
  const SubjectKey& key() const { return key_; }
  ObjectValue Object();
  Result<void> Advance();
  const ontology::Property& property() const { return *property_; }

 private:
  PropertyRows(Statement statement, const ontology::Property& property)
      : statement_(std::move(statement)), property_(&property) {}

  Statement statement_;
  const ontology::Property* property_;
  bool has_row_ = false;
  SubjectKey key_;
};

}  // namespace quarry::engine::rdf_io
