// The output of the SPARQL compiler: one SQL statement, the values to bind, and how to read each
// result column back as an RDF term. Pure data; any thread.
#pragma once

#include <string>
#include <vector>

#include "store/ontology/ontology.h"
#include "store/schema/rdf_term.h"

namespace quarry::sparql {

// How a result column is turned back into an RDF term.
enum class ColumnKind {
  kResource,  // TEXT: an IRI, or "_:b<ID>" for a blank node
  kLiteral,   // a stored value of a known ontology::ValueType (dateTime decoded, etc.)
  kDynamic,   // computed: typed by SQLite's run-time type (INTEGER, REAL, TEXT, BLOB lang string)
  kResourceId,  // INTEGER: a Resource ID, not resolved to its IRI (update solutions)
  // Open mode: a self-describing term (store/schema/quad_table.h TermOutputSql): TEXT tagged
  // 'I' IRI, 'B' blank node, 'S' string, 'L' datatype 0x1F lexical; or a lang-string BLOB.
  kTerm,
};

struct OutputColumn {
  std::string name;  // variable name without '?'
  ColumnKind kind = ColumnKind::kDynamic;
  ontology::ValueType type = ontology::ValueType::kString;  // for kLiteral
};

// A `~name` parameter bound at execution; its SQL form depends on where it was used.
struct NamedParameter {
  int index = 0;          // the SQL parameter ?<index>, a slot of SqlQuery::binds
  std::string name;       // without '~'
  bool as_resource = false;  // bind the IRI text (compared through Resource.Uri)
  ontology::ValueType type = ontology::ValueType::kString;  // literal encoding otherwise
};

struct SqlQuery {
  std::string sql;
  // ?1 .. ?N in order: constants, and NULL in the slots of `parameters`.
  std::vector<schema::SqlValue> binds;
  std::vector<NamedParameter> parameters;
  std::vector<OutputColumn> columns;
};

}  // namespace quarry::sparql
