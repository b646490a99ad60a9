#include "store/engine/rdf_io/property_rows.h"

#include <fmt/format.h>

#include <tuple>

#include "store/engine/sql_value_io.h"

namespace quarry::engine::rdf_io {
namespace {

using schema::Quote;

// Columns: 0 subject ID, 1 subject IRI, 2 stored value, 3 object IRI (resource ranges only).
std::string RowsSql(const schema::PropertyStorage& storage, bool is_resource, RowScope scope) {
  const std::string value = "t." + Quote(storage.column);
  return fmt::format(
      "SELECT t.ID, s.Uri, {value}{object_column} FROM {table} AS t "
      "JOIN {resources} AS s ON s.ID = t.ID{object_join} "
      "WHERE {value} IS NOT NULL AND {scope} "
      "ORDER BY s.Uri IS NULL, s.Uri, t.ID{object_order}, {value}",
      fmt::arg("value", value), fmt::arg("table", Quote(storage.table)),
      fmt::arg("resources", Quote(schema::kResourceTable)),
      fmt::arg("scope", scope == RowScope::kGraph
                            ? fmt::format("t.{} = ?1", Quote(storage.graph_column))
                            : std::string("t.ID IN (SELECT value FROM json_each(?1))")),
      fmt::arg("object_column", is_resource ? ", o.Uri" : ""),
      fmt::arg("object_join", is_resource ? fmt::format(" LEFT JOIN {} AS o ON o.ID = {}",
                                                        Quote(schema::kResourceTable), value)
                                          : std::string()),
      fmt::arg("object_order", is_resource ? ", o.Uri IS NULL, o.Uri" : ""));
}

}  // namespace

bool SubjectKey::operator<(const SubjectKey& other) const {
  return std::tie(blank, uri, id) < std::tie(other.blank, other.uri, other.id);
}

Result<PropertyRows> PropertyRows::Prepare(Database& db, const schema::Names& names,
                                           const ontology::Property& property,
                                           RowScope scope) {
  const bool is_resource = property.type == ontology::ValueType::kResource;
  auto statement = db.Prepare(RowsSql(names.StorageOf(property), is_resource, scope));
  if (!statement) return std::move(statement).error().WithContext("export " + property.name);
  return PropertyRows(std::move(*statement), property);
}

Result<void> PropertyRows::Start(int64_t graph) {
  statement_.Reset();
  QUARRY_TRY(statement_.Bind(1, graph));
  return Advance();
}

Result<void> PropertyRows::StartSubjects(std::string_view ids_json) {
  statement_.Reset();
  QUARRY_TRY(statement_.Bind(1, ids_json));
  return Advance();
}

Result<void> PropertyRows::Advance() {
  QUARRY_ASSIGN_OR_RETURN(has_row_, statement_.Step());
  if (!has_row_) return Ok();
  key_.id = statement_.ColumnInt64(0);
  key_.blank = statement_.IsNull(1);
  key_.uri.assign(statement_.ColumnText(1));
  return Ok();
}

ObjectValue PropertyRows::Object() {
  if (property_->type != ontology::ValueType::kResource) {
    return {schema::DecodeLiteral(ReadValue(statement_, 2), property_->type), 0};
  }
  if (statement_.IsNull(3)) return {schema::RdfTerm::Blank({}), statement_.ColumnInt64(2)};
  return {schema::RdfTerm::Iri(std::string(statement_.ColumnText(3))), 0};
}

}  // namespace quarry::engine::rdf_io
