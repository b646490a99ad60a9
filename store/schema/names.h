// The one place that spells SQL names derived from the ontology (SCHEMA.md): class tables,
// property columns, multi-valued tables, indexes and triggers. Pure; any thread.
#pragma once

#include <string>
#include <string_view>

#include "store/ontology/ontology.h"

namespace quarry::schema {

// `name` quoted as an SQL identifier: "nie:title" (embedded quotes doubled).
std::string Quote(std::string_view name);
// `text` as an SQL string literal: 'it''s'.
std::string QuoteLiteral(std::string_view text);

// Where a property's values live.
struct PropertyStorage {
  std::string table;         // "nie:InformationElement" or "nie:InformationElement_nao:hasTag"
  std::string column;        // "nie:title"
  std::string graph_column;  // "nie:title:graph"
  bool multi_valued = false;
};

class Names {
 public:
  explicit Names(const ontology::Ontology& ontology) : ontology_(ontology) {}

  std::string ClassTable(const ontology::Class& cls) const { return cls.name; }
  PropertyStorage StorageOf(const ontology::Property& property) const;
  // The multi-valued table of rdf:type.
  PropertyStorage TypeStorage() const;
  // Mirror column of `property` in the table of `cls` (a domain index).
  std::string MirrorColumn(const ontology::Property& property) const { return property.name; }

 private:
  const ontology::Ontology& ontology_;
};

std::string IndexName(std::string_view table, std::string_view column);
std::string MirrorTriggerName(std::string_view table, std::string_view column,
                              std::string_view event);
std::string_view SqlTypeOf(ontology::ValueType type);

inline constexpr std::string_view kResourceTable = "Resource";
inline constexpr std::string_view kGraphTable = "Graph";
inline constexpr std::string_view kMetaTable = "quarry_meta";
inline constexpr std::string_view kOntologyTable = "quarry_ontology";
inline constexpr std::string_view kFtsTable = "fts5";
inline constexpr std::string_view kFtsView = "fts_view";

}  // namespace quarry::schema
