// Reads one Turtle text into statements that remember where their terms are written.
//
// A thin layer over serd 0.30: CURIEs are expanded, relative IRIs resolved against @base (and
// refused without one), and every statement carries the file:line:column of its subject,
// predicate and object so that the ontology loader can point at the offending text. Syntax
// errors become Errc::kOntology errors "file:line:column: <serd's message>".
// Thread-safety: ReadTurtle is reentrant (one serd reader per call).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"

namespace quarry::ontology {

struct Term {
  enum class Kind { kIri, kBlank, kLiteral };
  Kind kind = Kind::kIri;
  std::string value;     // full IRI, blank node label, or a literal's lexical form
  std::string datatype;  // a literal's datatype IRI; empty when none was written
  std::string language;  // a literal's language tag
};

struct Statement {
  Term subject;
  Term predicate;
  Term object;
  SourceLocation subject_location;
  SourceLocation predicate_location;
  SourceLocation object_location;
};

struct PrefixDeclaration {
  std::string prefix;  // "nie"
  std::string namespace_iri;
  SourceLocation location;
};

struct TurtleDocument {
  std::vector<PrefixDeclaration> prefixes;  // in the order written
  std::vector<Statement> statements;        // in the order written
};

// `file_name` only labels locations and messages; the text is read from memory.
Result<TurtleDocument> ReadTurtle(const std::string& file_name, std::string_view text);

}  // namespace quarry::ontology
