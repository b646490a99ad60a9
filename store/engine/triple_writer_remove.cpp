// TripleWriter: removing types and graphs, and full-text upkeep.
#include <fmt/format.h>

#include <algorithm>

#include "store/engine/sql_value_io.h"
#include "store/engine/triple_writer.h"

namespace quarry::engine {
namespace {

using ontology::Class;
using ontology::Property;
using schema::Quote;

}  // namespace

Result<void> TripleWriter::RemoveType(std::optional<int64_t> graph, int64_t subject,
                                      const Class& cls) {
  const schema::PropertyStorage types = names_.TypeStorage();
  const std::string graph_test =
      graph ? fmt::format(" AND {} = ?3", Quote(types.graph_column)) : std::string();
  // Removing a class removes its subclasses too: a resource that is no longer an
  // nie:InformationElement cannot stay an nmm:MusicPiece.
  for (const std::string& sub_iri : ontology_.SubClassesOf(cls.iri)) {
    const Class* sub = ontology_.FindClass(sub_iri);
    if (!sub) continue;
    QUARRY_ASSIGN_OR_RETURN(const int64_t class_id, OntologyId(sub->iri));
    QUARRY_ASSIGN_OR_RETURN(
        Statement * remove,
        Cached(db_, fmt::format("DELETE FROM {} WHERE ID = ?1 AND {} = ?2{}", Quote(types.table),
                                Quote(types.column), graph_test)));
    QUARRY_TRY(remove->Bind(1, subject));
    QUARRY_TRY(remove->Bind(2, class_id));
    if (graph) QUARRY_TRY(remove->Bind(3, *graph));
    QUARRY_TRY(remove->Step());
    if (db_.Changes() == 0) continue;
    QUARRY_ASSIGN_OR_RETURN(
        Statement * remaining,
        Cached(db_, fmt::format("SELECT 1 FROM {} WHERE ID = ?1 AND {} = ?2", Quote(types.table),
                                Quote(types.column))));
    QUARRY_TRY(remaining->Bind(1, subject));
    QUARRY_TRY(remaining->Bind(2, class_id));
    QUARRY_ASSIGN_OR_RETURN(const bool still_typed, remaining->Step());
    remaining->Reset();
    if (!still_typed) QUARRY_TRY(DropClassRow(subject, *sub));
  }
  return Ok();
}

Result<void> TripleWriter::DropClassRow(int64_t subject, const Class& cls) {
  for (const Property* property : ontology_.PropertiesOfDomain(cls.iri)) {
    QUARRY_TRY(TouchFulltext(subject, *property));
    if (!property->multi_valued() || property == rdf_type_) continue;
    const schema::PropertyStorage storage = names_.StorageOf(*property);
    QUARRY_ASSIGN_OR_RETURN(
        Statement * remove,
        Cached(db_, fmt::format("DELETE FROM {} WHERE ID = ?1", Quote(storage.table))));
    QUARRY_TRY(remove->Bind(1, subject));
    QUARRY_TRY(remove->Step());
  }
  QUARRY_ASSIGN_OR_RETURN(
      Statement * remove,
      Cached(db_, fmt::format("DELETE FROM {} WHERE ID = ?1", Quote(names_.ClassTable(cls)))));
  QUARRY_TRY(remove->Bind(1, subject));
  QUARRY_TRY(remove->Step());
  typed_.erase({subject, &cls});
  return Ok();
}

Result<void> TripleWriter::ClearGraph(int64_t graph) {
  QUARRY_TRY(Flush());
  // Full-text rows first: their old values must be deleted from the index while still readable.
  for (const Property& property : ontology_.properties()) {
    if (!property.fulltext) continue;
    const schema::PropertyStorage storage = names_.StorageOf(property);
    QUARRY_ASSIGN_OR_RETURN(
        Statement * select,
        Cached(db_, fmt::format("SELECT DISTINCT ID FROM {} WHERE {} = ?1", Quote(storage.table),
                                Quote(storage.graph_column))));
    QUARRY_TRY(select->Bind(1, graph));
    std::vector<int64_t> subjects;
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
      if (!has_row) break;
      subjects.push_back(select->ColumnInt64(0));
    }
    for (const int64_t subject : subjects) QUARRY_TRY(TouchFulltextRow(subject));
  }
  for (const Property& property : ontology_.properties()) {
    if (&property == rdf_type_) continue;
    const schema::PropertyStorage storage = names_.StorageOf(property);
    const std::string sql =
        storage.multi_valued
            ? fmt::format("DELETE FROM {} WHERE {} = ?1", Quote(storage.table),
                          Quote(storage.graph_column))
            : fmt::format("UPDATE {0} SET {1} = NULL, {2} = NULL WHERE {2} = ?1",
                          Quote(storage.table), Quote(storage.column),
                          Quote(storage.graph_column));
    QUARRY_ASSIGN_OR_RETURN(Statement * clear, Cached(db_, sql));
    QUARRY_TRY(clear->Bind(1, graph));
    QUARRY_TRY(clear->Step());
  }
  const schema::PropertyStorage types = names_.TypeStorage();
  QUARRY_ASSIGN_OR_RETURN(
      Statement * select_types,
      Cached(db_, fmt::format("SELECT ID, {} FROM {} WHERE {} = ?1", Quote(types.column),
                              Quote(types.table), Quote(types.graph_column))));
  QUARRY_TRY(select_types->Bind(1, graph));
  std::vector<std::pair<int64_t, int64_t>> typed_rows;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, select_types->Step());
    if (!has_row) break;
    typed_rows.emplace_back(select_types->ColumnInt64(0), select_types->ColumnInt64(1));
  }
  for (const Class& cls : ontology_.classes()) {
    QUARRY_ASSIGN_OR_RETURN(const int64_t class_id, OntologyId(cls.iri));
    for (const auto& [subject, type_id] : typed_rows) {
      if (type_id == class_id) QUARRY_TRY(RemoveType(graph, subject, cls));
    }
  }
  return Ok();
}

Result<void> TripleWriter::TouchFulltext(int64_t subject, const Property& predicate) {
  if (!predicate.fulltext) return Ok();
  return TouchFulltextRow(subject);
}

Result<void> TripleWriter::TouchFulltextRow(int64_t subject) {
  if (fts_delete_sql_.empty() || fulltext_touched_.count(subject)) return Ok();
  if (created_.count(subject)) {  // nothing indexed yet: only the insert at Finish()
    fulltext_touched_.insert(subject);
    fulltext_order_.push_back(subject);
    return Ok();
  }
  // External-content FTS5 needs the OLD values to delete a row: take them before any change.
  QUARRY_ASSIGN_OR_RETURN(Statement * remove, Cached(db_, fts_delete_sql_));
  QUARRY_TRY(remove->Bind(1, subject));
  QUARRY_TRY(remove->Step());
  fulltext_touched_.insert(subject);
  fulltext_order_.push_back(subject);
  return Ok();
}

Result<void> TripleWriter::Finish() {
  QUARRY_TRY(Flush());
  constexpr size_t kChunk = 20000;
  for (size_t start = 0; start < fulltext_order_.size(); start += kChunk) {
    std::string ids = "[";
    for (size_t i = start; i < std::min(fulltext_order_.size(), start + kChunk); ++i) {
      if (i > start) ids += ',';
      ids += std::to_string(fulltext_order_[i]);
    }
    ids += ']';
    QUARRY_ASSIGN_OR_RETURN(Statement * insert, Cached(db_, fts_insert_sql_));
    QUARRY_TRY(insert->Bind(1, std::string_view(ids)));
    QUARRY_TRY(insert->Step());
  }
  fulltext_touched_.clear();
  fulltext_order_.clear();
  created_.clear();
  fresh_disabled_ = false;
  // Caches stay valid after a commit; bound them so a long-lived writer does not grow forever.
  if (ids_.size() > (1u << 20)) ids_.clear();
  if (typed_.size() > (1u << 20)) typed_.clear();
  return Ok();
}

void TripleWriter::RollbackTo(size_t mark) {
  pending_.clear();
  fresh_.clear();
  fresh_order_.clear();
  fresh_disabled_ = true;  // typed_ is forgotten below: class rows may exist unknown to it
  for (size_t i = mark; i < fulltext_order_.size(); ++i) fulltext_touched_.erase(fulltext_order_[i]);
  fulltext_order_.resize(mark);
  // created_ stays: an ID created inside the savepoint and reused after it is new either way.
  ids_.clear();
  typed_.clear();
}

void TripleWriter::Abandon() {
  pending_.clear();
  fresh_.clear();
  fresh_order_.clear();
  fresh_disabled_ = false;
  created_.clear();
  ids_.clear();
  typed_.clear();
  fulltext_touched_.clear();
  fulltext_order_.clear();
}

}  // namespace quarry::engine
