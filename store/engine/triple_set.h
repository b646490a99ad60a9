// TripleSet: the result of a CONSTRUCT or DESCRIBE query — RDF triples in the order they were
// first added (a CONSTRUCT keeps its ORDER BY), each triple once (an RDF graph is a set).
// Thread-safety: a plain value.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "store/schema/rdf_term.h"

namespace quarry::engine {

struct Triple {
  schema::RdfTerm subject;  // an IRI or a blank node
  std::string predicate;    // an IRI
  schema::RdfTerm object;
  bool operator==(const Triple&) const = default;
};

class TripleSet {
 public:
  // False (and nothing added) when the set already holds `triple`.
  bool Add(Triple triple);
  const std::vector<Triple>& triples() const { return triples_; }
  size_t size() const { return triples_.size(); }
  bool empty() const { return triples_.empty(); }

 private:
  std::vector<Triple> triples_;
  std::unordered_set<std::string> keys_;  // one unambiguous text per triple held
};

}  // namespace quarry::engine
