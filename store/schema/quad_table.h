// The open-mode quad table (SCHEMA.md "Open mode"): triples whose predicate the ontology does
// not know, stored generically so arbitrary RDF round-trips. Pure SQL text; any thread.
//
// Objects are term IDs: a positive ID is a Resource row (IRI or blank node), a negative ID is a
// row of the literal table, which keeps each literal's exact lexical form, datatype and language
// next to a comparable SQL value. One ID space lets a quad object join a subject or a class
// table's resource column directly, and equal IDs mean the same RDF term (sameTerm).
//
// A term-ID value computed by a query (never stored) may instead be the TEXT 'I' + IRI of an IRI
// the store does not hold (UnstoredIriSql): the zero-length step of a path from a constant IRI
// binds that IRI itself (SPARQL 1.1 §18.4). It equals only itself, as an unstored term should.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/schema/rdf_term.h"

namespace quarry::schema {

inline constexpr std::string_view kQuadTable = "quarry_quad";
inline constexpr std::string_view kLiteralTable = "quarry_literal";

// The DDL of both tables and their indexes (s-p-o primary key, p-o and graph indexes).
std::vector<std::string> CreateQuadTablesSql();
// Databases made before the quad table's columns followed its key declared Graph first: the
// statements that rebuild such a table in the current layout (in the caller's transaction).
std::vector<std::string> RebuildQuadTableSql();

// The comparable SQL value of a literal: INTEGER for integers and booleans, REAL for decimals,
// doubles and floats whose lexical form parses, BLOB `text \0 lang` for lang strings, and the
// lexical TEXT otherwise. `literal.datatype` empty means xsd:string.
SqlValue LiteralValue(const RdfTerm& literal);
// The datatype column of a literal: its datatype IRI, rdf:langString when tagged, xsd:string
// when plain.
std::string LiteralDatatype(const RdfTerm& literal);

// SQL that turns a term ID expression into the dynamic value expressions compare and compute
// with: the literal's comparable value, or the resource's IRI text ("_:b<ID>" for a blank node).
std::string TermValueSql(std::string_view id_sql);
// SQL that turns a term ID into the self-describing output form read by a kTerm column:
// 'I'+IRI, 'B'+"_:b<ID>", 'S'+text (xsd:string), 'L'+datatype+'\x1f'+lexical, or the lang
// string BLOB `text \0 lang`.
std::string TermOutputSql(std::string_view id_sql);
// A term-ID expression for the IRI whose text `iri_sql` gives: its Resource ID when stored, else
// its unstored form 'I' + IRI (see above). TermValueSql and TermOutputSql read both.
std::string UnstoredIriSql(std::string_view iri_sql);

}  // namespace quarry::schema
