// Ground RDF terms as the engine stores and returns them, and their SQL encoding per
// property type (SCHEMA.md "Value encoding"). Pure; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "store/common/result.h"
#include "store/ontology/ontology.h"

namespace quarry::schema {

struct RdfTerm {
  enum class Kind { kIri, kBlank, kLiteral };
  Kind kind = Kind::kLiteral;
  std::string value;     // IRI, blank-node label, or literal lexical form
  std::string datatype;  // literal datatype IRI; empty means xsd:string (or rdf:langString with lang)
  std::string lang;      // language tag, literals only

  static RdfTerm Iri(std::string iri) { return {Kind::kIri, std::move(iri), {}, {}}; }
  static RdfTerm Blank(std::string label) { return {Kind::kBlank, std::move(label), {}, {}}; }
  static RdfTerm Literal(std::string lexical, std::string datatype = {}, std::string lang = {}) {
    return {Kind::kLiteral, std::move(lexical), std::move(datatype), std::move(lang)};
  }
  bool is_resource() const { return kind != Kind::kLiteral; }
  // N-Triples-like text for messages: <iri>, _:b, "text"@en, "5"^^<...#integer>.
  std::string ToString() const;
  bool operator==(const RdfTerm&) const = default;
};

// A value as bound into / read from SQLite.
struct Blob {
  std::string bytes;
  bool operator==(const Blob&) const = default;
};
using SqlValue = std::variant<std::monostate, int64_t, double, std::string, Blob>;

// Encodes a literal for a column of `type`, checking its datatype and lexical form.
// The error names the expected and the given datatype.
Result<SqlValue> EncodeLiteral(const RdfTerm& literal, ontology::ValueType type);

// Decodes a stored column value of `type` back into a literal (not for kResource).
RdfTerm DecodeLiteral(const SqlValue& value, ontology::ValueType type);

// Lang-tagged strings are stored as BLOB `text \0 lang`.
Blob EncodeLangString(std::string_view text, std::string_view lang);
// Splits a stored lang string; false if the blob has no NUL separator.
bool DecodeLangString(std::string_view bytes, std::string_view* text, std::string_view* lang);

}  // namespace quarry::schema
