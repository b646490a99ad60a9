// Writing terms and resource descriptions in the syntax Turtle and SPARQL share (prefixed
// names, <iri>, "literal"^^datatype), appending to one output string so the text content is
// copied once, escaped on the way. Internal to the serializers; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "extract/core/extraction.h"

namespace quarry::extract::rdf_text {

// "nie:title" when the IRI is in a known namespace with a simple local name, else "<iri>".
void AppendIri(std::string_view iri, std::string& out);
// The prefixed name ("nie:title") or the full IRI without brackets.
std::string CompactIri(std::string_view iri);
// "text" with Turtle/SPARQL escapes.
void AppendStringLiteral(std::string_view text, std::string& out);
void AppendValue(const Value& value, std::string& out);
// "@prefix p: <ns> .\n" lines (turtle) or "PREFIX p: <ns>\n" lines (sparql).
void AppendPrefixes(bool sparql, std::string& out);
// "<subject> a T1, T2 ;\n  p v ;\n  … ." — `extra` values come first (the layout's links).
void AppendDescription(std::string_view subject, const Description& description,
                       const Description* extra, std::string& out);

}  // namespace quarry::extract::rdf_text
