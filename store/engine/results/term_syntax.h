// How the result formats spell text and RDF terms: JSON strings, XML character data, RFC 4180
// CSV fields, and N-Triples terms (SPARQL TSV). One escaper per syntax, shared by every writer.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>

#include "store/schema/rdf_term.h"

namespace quarry::engine::results {

// A JSON string literal, quotes included (RFC 8259: '"', '\\' and C0 controls escaped).
std::string JsonString(std::string_view text);
// XML 1.0 character data or attribute value (in double quotes): & < > " escaped; C0 controls XML
// cannot carry (all but tab, LF, CR) become U+FFFD.
std::string XmlText(std::string_view text);
// One RFC 4180 field: quoted, with '"' doubled, when it holds '"', ',', CR or LF.
std::string CsvField(std::string_view value);
// A term in N-Triples syntax: <iri>, _:label, "text", "text"@lang, "text"^^<datatype>
// (xsd:string implicit). ECHAR escapes for " \ and tab/LF/CR/BS/FF, \u00XX for other controls;
// IRI characters N-Triples forbids become \u00XX.
std::string NTriplesTerm(const schema::RdfTerm& term);
// The SPARQL TSV form: N-Triples, except that xsd:integer and xsd:boolean literals with a
// canonical-looking lexical form are written bare (1, true), as Turtle allows.
std::string TsvTerm(const schema::RdfTerm& term);

}  // namespace quarry::engine::results
