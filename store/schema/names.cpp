#include "store/schema/names.h"

#include "store/common/sql_quote.h"

namespace quarry::schema {

std::string Quote(std::string_view name) { return QuoteSqlIdentifier(name); }

std::string QuoteLiteral(std::string_view text) { return QuoteSqlLiteral(text); }

PropertyStorage Names::StorageOf(const ontology::Property& property) const {
  const ontology::Class* domain = ontology_.FindClass(property.domain);
  // Build() guarantees every domain exists; the fallback keeps names stable regardless.
  const std::string domain_name = domain ? domain->name : property.domain;
  PropertyStorage storage;
  storage.multi_valued = property.multi_valued();
  storage.table = storage.multi_valued ? domain_name + "_" + property.name : domain_name;
  storage.column = property.name;
  storage.graph_column = property.name + ":graph";
  return storage;
}

PropertyStorage Names::TypeStorage() const {
  const ontology::Property* type = ontology_.FindProperty(ontology::iri::kRdfType);
  if (type) return StorageOf(*type);
  return PropertyStorage{"rdfs:Resource_rdf:type", "rdf:type", "rdf:type:graph", true};
}

std::string IndexName(std::string_view table, std::string_view column) {
  return std::string(table) + "_" + std::string(column);
}

std::string MirrorTriggerName(std::string_view table, std::string_view column,
                              std::string_view event) {
  return std::string(table) + "_" + std::string(column) + "_mirror_" + std::string(event);
}

std::string_view SqlTypeOf(ontology::ValueType type) {
  switch (type) {
    case ontology::ValueType::kResource:
    case ontology::ValueType::kInteger:
    case ontology::ValueType::kBoolean:
      return "INTEGER";
    case ontology::ValueType::kDouble:
      return "REAL";
    case ontology::ValueType::kString:
    case ontology::ValueType::kLangString:
    case ontology::ValueType::kDateTime:
    case ontology::ValueType::kDate:
      return "TEXT";
  }
  return "TEXT";
}

}  // namespace quarry::schema
