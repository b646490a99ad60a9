// Lookups and name handling of the built Ontology; Build() itself is in ontology_build.cpp.
#include "store/ontology/ontology.h"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "store/ontology/prefixes.h"

namespace quarry::ontology {

namespace {

const std::vector<std::string>& EmptyList() {
  static const std::vector<std::string> empty;
  return empty;
}

// The datatypes a property range may name. rdfs:Literal is stored as a string: it is what
// Tracker's ontologies use for "any literal".
constexpr std::array<std::pair<std::string_view, ValueType>, 23> kDatatypes{{
    {"http://www.w3.org/2001/XMLSchema#string", ValueType::kString},
    {"http://www.w3.org/2000/01/rdf-schema#Literal", ValueType::kString},
    {"http://www.w3.org/1999/02/22-rdf-syntax-ns#langString", ValueType::kLangString},
    {"http://www.w3.org/2001/XMLSchema#boolean", ValueType::kBoolean},
    {"http://www.w3.org/2001/XMLSchema#integer", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#int", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#long", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#short", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#byte", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#nonNegativeInteger", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#positiveInteger", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#nonPositiveInteger", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#negativeInteger", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#unsignedLong", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#unsignedInt", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#unsignedShort", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#unsignedByte", ValueType::kInteger},
    {"http://www.w3.org/2001/XMLSchema#double", ValueType::kDouble},
    {"http://www.w3.org/2001/XMLSchema#float", ValueType::kDouble},
    {"http://www.w3.org/2001/XMLSchema#decimal", ValueType::kDouble},
    {"http://www.w3.org/2001/XMLSchema#dateTime", ValueType::kDateTime},
    {"http://www.w3.org/2001/XMLSchema#date", ValueType::kDate},
    {"http://www.w3.org/2001/XMLSchema#dateTimeStamp", ValueType::kDateTime},
}};

}  // namespace

std::string SourceLocation::ToString() const { return fmt::format("{}:{}:{}", file, line, column); }

std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kResource:
      return "resource";
    case ValueType::kString:
      return "string";
    case ValueType::kLangString:
      return "langString";
    case ValueType::kInteger:
      return "integer";
    case ValueType::kBoolean:
      return "boolean";
    case ValueType::kDouble:
      return "double";
    case ValueType::kDateTime:
      return "dateTime";
    case ValueType::kDate:
      return "date";
  }
  return "unknown";
}

std::optional<ValueType> DatatypeValueType(std::string_view datatype_iri) {
  for (const auto& [iri, type] : kDatatypes) {
    if (iri == datatype_iri) return type;
  }
  return std::nullopt;
}

const Class* Ontology::FindClass(std::string_view iri) const {
  const auto found = class_index_.find(std::string(iri));
  return found == class_index_.end() ? nullptr : &classes_[found->second];
}

const Property* Ontology::FindProperty(std::string_view iri) const {
  const auto found = property_index_.find(std::string(iri));
  return found == property_index_.end() ? nullptr : &properties_[found->second];
}

const Class* Ontology::FindClassByName(std::string_view name) const {
  if (const Class* by_iri = FindClass(name)) return by_iri;
  const std::optional<std::string> iri = Expand(name);
  return iri ? FindClass(*iri) : nullptr;
}

const Property* Ontology::FindPropertyByName(std::string_view name) const {
  if (const Property* by_iri = FindProperty(name)) return by_iri;
  const std::optional<std::string> iri = Expand(name);
  return iri ? FindProperty(*iri) : nullptr;
}

const std::vector<std::string>& Ontology::SuperClassesOf(std::string_view class_iri) const {
  const auto found = super_closure_.find(std::string(class_iri));
  return found == super_closure_.end() ? EmptyList() : found->second;
}

const std::vector<std::string>& Ontology::SubClassesOf(std::string_view class_iri) const {
  const auto found = sub_closure_.find(std::string(class_iri));
  return found == sub_closure_.end() ? EmptyList() : found->second;
}

bool Ontology::IsSubClassOf(std::string_view sub_iri, std::string_view super_iri) const {
  for (const std::string& super : SuperClassesOf(sub_iri)) {
    if (super == super_iri) return true;
  }
  return false;
}

std::vector<const Property*> Ontology::PropertiesOfDomain(std::string_view class_iri) const {
  std::vector<const Property*> result;
  for (const Property& property : properties_) {
    if (property.domain == class_iri) result.push_back(&property);
  }
  return result;
}

std::string Ontology::Compact(std::string_view iri) const { return CompactIri(prefixes_, iri); }

std::optional<std::string> Ontology::Expand(std::string_view prefixed) const {
  return ExpandName(prefixes_, prefixed);
}

}  // namespace quarry::ontology
