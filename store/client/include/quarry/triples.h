// RDF triples as CONSTRUCT and DESCRIBE queries return them (Connection::QueryTriples), and the
// text syntaxes Connection::QueryRdf writes them in.
// Thread-safety: plain values.
#pragma once

#include <string>

namespace quarry {

struct Term {
  enum class Kind { kIri, kBlankNode, kLiteral };
  Kind kind = Kind::kLiteral;
  std::string value;     // the IRI, the blank node's label, or the literal's lexical form
  std::string datatype;  // literals: the datatype IRI; empty for plain and language-tagged strings
  std::string lang;      // literals: the language tag, if any
  bool operator==(const Term&) const = default;
};

struct Triple {
  Term subject;           // an IRI or a blank node
  std::string predicate;  // an IRI
  Term object;
  bool operator==(const Triple&) const = default;
};

enum class RdfSyntax { kTurtle, kNTriples };

}  // namespace quarry
