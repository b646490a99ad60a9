// What changed between two ontologies, for migration planning.
//
// Data only: the schema module decides which changes an existing database can follow.
// Definitions are matched by IRI; lists are compared as sets; comments are ignored (they
// change no storage). Everything is sorted by IRI so that equal inputs give equal diffs.
// Thread-safety: pure values and a pure function.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::ontology {

template <typename T>
struct Change {
  T before;
  T after;
  bool operator==(const Change&) const = default;
};

struct DefinitionRef {
  std::string iri;
  std::string name;  // prefixed name in the ontology that has the definition
  bool operator==(const DefinitionRef&) const = default;
};

struct PropertyDiff {
  std::string iri;
  std::string name;                           // in the new ontology
  std::optional<Change<std::string>> domain;  // class IRIs
  std::optional<Change<std::string>> range;   // class or datatype IRIs
  std::optional<Change<ValueType>> type;      // follows from range
  std::optional<Change<std::optional<int>>> max_cardinality;
  std::optional<Change<bool>> indexed;   // before=false: index added; before=true: removed
  std::optional<Change<bool>> fulltext;  // nrl:fulltextIndexed added or removed
  std::optional<Change<bool>> writeback;
  std::optional<Change<std::vector<std::string>>> super_properties;  // sorted IRIs
  // Single-valued <-> multi-valued moves the values between a column and a table.
  bool storage_changed() const;
  bool empty() const;
};

struct ClassDiff {
  std::string iri;
  std::string name;                                               // in the new ontology
  std::vector<std::string> domain_indexes_added;                  // property IRIs, sorted
  std::vector<std::string> domain_indexes_removed;                // property IRIs, sorted
  std::optional<Change<std::vector<std::string>>> super_classes;  // direct, sorted IRIs
  std::optional<Change<bool>> notify;
  bool empty() const;
};

struct OntologyDiff {
  std::vector<DefinitionRef> added_classes;
  std::vector<DefinitionRef> removed_classes;
  std::vector<DefinitionRef> added_properties;
  std::vector<DefinitionRef> removed_properties;
  std::vector<ClassDiff> changed_classes;        // present in both, with differences
  std::vector<PropertyDiff> changed_properties;  // present in both, with differences
  // Both ontologies' prefixes (the new one wins), so that ToString() can print names.
  std::map<std::string, std::string> prefixes;

  bool empty() const;
  // One line per change, e.g. "property nie:title: indexed added"; "" when empty.
  std::string ToString() const;
};

OntologyDiff DiffOntologies(const Ontology& before, const Ontology& after);

}  // namespace quarry::ontology
