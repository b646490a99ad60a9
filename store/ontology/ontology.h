// The ontology model: classes, properties and their annotations, as loaded from Turtle.
//
// Immutable after Build(); shared read-only by schema generation, the SPARQL compiler and the
// update executor. Thread-safety: const methods may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/common/result.h"

namespace quarry::ontology {

// Where a definition came from, for error messages ("nie.ontology:12:3").
// `line` and `column` are 1-based; `column` counts characters (UTF-8 code points), not bytes.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string ToString() const;
};

// How a property's values are stored; decided by its rdfs:range.
enum class ValueType {
  kResource,  // range is a class: values are resource IDs
  kString,    // xsd:string (language tags preserved)
  kLangString,  // rdf:langString
  kInteger,   // xsd:integer, xsd:int, xsd:long, ...
  kBoolean,   // xsd:boolean
  kDouble,    // xsd:double, xsd:float, xsd:decimal
  kDateTime,  // xsd:dateTime
  kDate,      // xsd:date
};
std::string_view ValueTypeName(ValueType type);

// The value type of a literal datatype IRI (xsd:string, xsd:int, rdfs:Literal, ...); nullopt
// when the IRI is not a datatype we store. A datatype wins over a class of the same IRI.
std::optional<ValueType> DatatypeValueType(std::string_view datatype_iri);

struct Class {
  std::string iri;         // full IRI
  std::string name;        // prefixed name, e.g. "nmm:MusicPiece"; also the SQL table name
  // Direct rdfs:subClassOf IRIs as written; the implied rdfs:Resource shows only in
  // Ontology::SuperClassesOf().
  std::vector<std::string> super_classes;
  std::vector<std::string> domain_indexes; // nrl:domainIndex property IRIs
  bool notify = false;                     // nrl:notify: emits GraphUpdated
  std::string comment;
  SourceLocation location;
};

struct Property {
  std::string iri;
  std::string name;          // prefixed name, e.g. "nie:title"
  std::string domain;        // class IRI (rdfs:domain)
  std::string range;         // class or datatype IRI (rdfs:range)
  ValueType type = ValueType::kResource;
  std::optional<int> max_cardinality;  // nrl:maxCardinality; absent = multi-valued
  bool indexed = false;                // nrl:indexed
  bool fulltext = false;               // nrl:fulltextIndexed
  bool writeback = false;              // nrl:writeback
  std::vector<std::string> super_properties;  // rdfs:subPropertyOf
  std::string comment;
  SourceLocation location;

  bool multi_valued() const { return !max_cardinality || *max_cardinality > 1; }
};

class Ontology {
 public:
  // Adds definitions; Build() then checks references and computes closures.
  // Returned errors (Errc::kOntology) start with the definition's "file:line:column: ".
  // Build() derives `name` (from the prefixes) and `type` (from the range) itself.
  struct Draft {
    std::map<std::string, std::string> prefixes;  // prefix -> namespace IRI
    std::vector<Class> classes;
    std::vector<Property> properties;
  };
  static Result<std::shared_ptr<const Ontology>> Build(Draft draft);

  const std::map<std::string, std::string>& prefixes() const { return prefixes_; }
  const std::vector<Class>& classes() const { return classes_; }
  const std::vector<Property>& properties() const { return properties_; }

  const Class* FindClass(std::string_view iri) const;
  const Property* FindProperty(std::string_view iri) const;
  // Accepts "nie:title" or a full IRI.
  const Class* FindClassByName(std::string_view name) const;
  const Property* FindPropertyByName(std::string_view name) const;

  // Reflexive, transitive rdfs:subClassOf closure of a class (IRIs, the class first).
  // Every class comes before its super classes, so rdfs:Resource (implied for every class when
  // the ontology defines it) is last. Empty for an unknown IRI.
  const std::vector<std::string>& SuperClassesOf(std::string_view class_iri) const;
  // Every class that has `class_iri` among its super classes (reflexive): the class first,
  // then the others in definition order. Empty for an unknown IRI.
  const std::vector<std::string>& SubClassesOf(std::string_view class_iri) const;
  bool IsSubClassOf(std::string_view sub_iri, std::string_view super_iri) const;

  // Properties whose domain is exactly this class, in definition order.
  std::vector<const Property*> PropertiesOfDomain(std::string_view class_iri) const;

  // "http://tracker.api.gnome.org/ontology/v3/nie#title" -> "nie:title" when a prefix matches.
  std::string Compact(std::string_view iri) const;
  // "nie:title" -> full IRI; nullopt for an unknown prefix.
  std::optional<std::string> Expand(std::string_view prefixed) const;

 private:
  friend class OntologyBuilder;  // Build()'s steps, in ontology_build.cpp

  std::map<std::string, std::string> prefixes_;
  std::vector<Class> classes_;
  std::vector<Property> properties_;
  std::unordered_map<std::string, size_t> class_index_;
  std::unordered_map<std::string, size_t> property_index_;
  std::unordered_map<std::string, std::vector<std::string>> super_closure_;
  std::unordered_map<std::string, std::vector<std::string>> sub_closure_;
};

// Well-known IRIs.
namespace iri {
inline constexpr std::string_view kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline constexpr std::string_view kRdfs = "http://www.w3.org/2000/01/rdf-schema#";
inline constexpr std::string_view kXsd = "http://www.w3.org/2001/XMLSchema#";
inline constexpr std::string_view kNrl = "http://tracker.api.gnome.org/ontology/v3/nrl#";
inline constexpr std::string_view kTracker = "http://tracker.api.gnome.org/ontology/v3/tracker#";
inline constexpr std::string_view kRdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
inline constexpr std::string_view kRdfsResource = "http://www.w3.org/2000/01/rdf-schema#Resource";
inline constexpr std::string_view kRdfsClass = "http://www.w3.org/2000/01/rdf-schema#Class";
inline constexpr std::string_view kRdfProperty = "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property";
}  // namespace iri

}  // namespace quarry::ontology
