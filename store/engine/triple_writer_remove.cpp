// TripleWriter: removing types and graphs, and full-text upkeep.
#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "store/engine/sql_value_io.h"
#include "store/engine/sqlite/errors.h"
#include "store/engine/triple_writer.h"
#include "store/schema/fts.h"

namespace quarry::engine {
namespace {

using ontology::Class;
using ontology::Property;
using schema::Quote;

}  // namespace

Result<void> TripleWriter::RemoveType(std::optional<int64_t> graph, int64_t subject,
                                      const Class& cls) {
  ForgetFtsSignature(subject);
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
  for (const Property* property : ColumnsOf(cls).domain) {
    QUARRY_TRY(TouchFulltext(subject, *property));
    if (!property->multi_valued() || property == rdf_type_) continue;
    QUARRY_ASSIGN_OR_RETURN(Statement * remove, Cached(db_, SqlOf(*property).delete_rows));
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

Result<void> TripleWriter::TouchFulltext(int64_t subject, const Property& predicate,
                                         bool buffered) {
  if (!predicate.fulltext) return Ok();
  return TouchFulltextRow(subject, buffered);
}

Result<void> TripleWriter::TouchFulltextRow(int64_t subject, bool buffered) {
  if (fts_delete_sql_.empty()) return Ok();
  // A value of a resource flushed before (its row may be kept already) or not for the fresh
  // buffer: FlushFresh() does not see every value of the row, which is read back at Finish().
  const ResourceMarks::Mark marks = marks_.Of(subject);
  if (!buffered || (marks & kFlushed) != 0) {
    if (!fulltext_rows_.empty()) fulltext_rows_.erase(subject);
    // Only a new resource not flushed yet can still be kept (KeepFulltextRows): kFlushed rules
    // out the others. Marking every one held a set of all a batch save's resources (issue 7).
    if (!buffered && (marks & (kCreated | kFlushed)) == kCreated) {
      marks_.Add(subject, kFulltextRead);
    }
  }
  if ((marks & kFulltextTouched) != 0) return Ok();
  if ((marks & kCreated) != 0) {  // nothing indexed yet: only the insert at Finish()
    marks_.Add(subject, kFulltextTouched);
    fulltext_order_.push_back(subject);
    return Ok();
  }
  // External-content FTS5 needs the OLD values to delete a row: take them before any change.
  // The delete itself waits for Finish(): written now, FTS5 would flush its pending terms at the
  // next statement journal and at every later row with a lower ID (WriteFulltextRows).
  QUARRY_ASSIGN_OR_RETURN(Statement select, db_.cache().Borrow(fts_select_row_sql_));
  QUARRY_TRY(select.Bind(1, subject));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, select.Step());
  if (has_row) {  // a row in the index: its old values
    std::vector<SqlValue>& old = fulltext_deletes_[subject];
    for (int column = 1; column < select.ColumnCount(); ++column) old.push_back(ReadValue(select, column));
  }
  marks_.Add(subject, kFulltextTouched);
  fulltext_order_.push_back(subject);
  return Ok();
}

void TripleWriter::KeepFulltextRows() {
  if (fts_delete_sql_.empty()) return;
  const size_t columns = fulltext_column_.size();
  const auto keeps = [&](int64_t subject) {
    return (marks_.Of(subject) & (kFulltextTouched | kFlushed | kFulltextRead)) == kFulltextTouched;
  };
  FlatSet<int64_t, IdHash> kept;  // in this flush
  for (const int64_t subject : fresh_order_) {
    if (!keeps(subject)) continue;
    bool text_only = true;  // other values: the column's affinity may convert them; read back
    size_t bytes = fulltext_row_overhead();
    std::vector<FreshValue>& values = fresh_.at(subject).values;
    for (const FreshValue& held : values) {
      if (!fulltext_column_.count(held.property)) continue;
      const auto* text = std::get_if<std::string>(&held.value);
      text_only = text_only && text;
      if (text) bytes += text->size();
    }
    // Not kept: read back at Finish() (kFlushed from now on, never kept later).
    if (!text_only || fulltext_rows_bytes_ + bytes > max_kept_fulltext_bytes_) continue;
    fulltext_rows_bytes_ += bytes;
    std::vector<SqlValue> row(columns);
    for (FreshValue& held : values) {
      const auto column = fulltext_column_.find(held.property);
      if (column != fulltext_column_.end()) row[column->second] = std::move(held.value);
    }
    fulltext_rows_[subject] = std::move(row);
    kept.insert(subject);
  }
  KeepMultiValuedText(kept);
  // No value at all: no row, as in the view (an empty row stays as the mark "nothing to read").
  for (const int64_t subject : fresh_order_) {
    if (!kept.count(subject)) continue;
    std::vector<SqlValue>& row = fulltext_rows_.at(subject);
    if (std::all_of(row.begin(), row.end(),
                    [](const SqlValue& v) { return std::holds_alternative<std::monostate>(v); })) {
      row.clear();
    }
  }
}

void TripleWriter::KeepMultiValuedText(FlatSet<int64_t, IdHash>& kept) {
  // Multi-valued columns as the view's group_concat(value, ' ') gives them: one value per row
  // of the table, whose key (ID, value, graph) orders them (BINARY: byte order) and drops
  // a value stated twice in one graph.
  struct Multi {
    int64_t subject;
    size_t column;
    const std::string* value;
    int64_t graph;
    auto key() const { return std::tie(subject, column, *value, graph); }
  };
  std::vector<Multi> multi;
  for (const auto& [property, rows] : fresh_multi_) {
    const auto column = fulltext_column_.find(property);
    if (column == fulltext_column_.end()) continue;
    for (const FreshMultiValue& row : rows) {
      if (!kept.count(row.subject)) continue;
      const auto* text = std::get_if<std::string>(&row.value);
      if (!text) {  // read back at Finish()
        fulltext_rows_.erase(row.subject);
        kept.erase(row.subject);
        continue;
      }
      multi.push_back({row.subject, column->second, text, row.graph});
    }
  }
  std::sort(multi.begin(), multi.end(),
            [](const Multi& a, const Multi& b) { return a.key() < b.key(); });
  for (size_t i = 0; i < multi.size(); ++i) {
    if (i > 0 && multi[i].key() == multi[i - 1].key()) continue;
    if (!kept.count(multi[i].subject)) continue;  // a non-text value of it came later
    const auto row = fulltext_rows_.find(multi[i].subject);
    fulltext_rows_bytes_ += multi[i].value->size() + 1;
    SqlValue& cell = row->second[multi[i].column];
    if (auto* text = std::get_if<std::string>(&cell)) {
      (*text += ' ') += *multi[i].value;
    } else {
      cell = *multi[i].value;
    }
  }
}

// FTS5 flushes its pending terms as a new segment whenever a row's ID is lower than the one
// written before it (sqlite3Fts5IndexBeginWrite) and at a statement journal's savepoint; so the
// rows go in ascending ID order across all the reads (each ordered by ID), one INSERT ... VALUES
// each, and a transaction's rows become one segment at COMMIT.
Result<void> TripleWriter::WriteFulltextRows(std::vector<Statement>& selects,
                                             const std::vector<KeptRow>& kept,
                                             const std::string& write) {
  std::vector<Statement*> open;  // positioned on a row
  for (Statement& select : selects) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, select.Step());
    if (has_row) open.push_back(&select);
  }
  // Old rows to delete (TouchFulltextRow) go first for their ID, before its new row.
  auto deletes = fulltext_deletes_.begin();
  const auto write_deletes_to = [&](int64_t last) -> Result<void> {
    for (; deletes != fulltext_deletes_.end() && deletes->first <= last; ++deletes) {
      QUARRY_ASSIGN_OR_RETURN(Statement * remove, Cached(db_, fts_delete_sql_));
      QUARRY_TRY(remove->Bind(1, deletes->first));
      for (size_t i = 0; i < deletes->second.size(); ++i) {
        QUARRY_TRY(BindValue(*remove, static_cast<int>(i) + 2, deletes->second[i]));
      }
      QUARRY_TRY(remove->Step());
    }
    return Ok();
  };
  Statement* insert = nullptr;  // from the cache once the first row is known
  auto next_kept = kept.begin();
  while (!open.empty() || next_kept != kept.end()) {
    size_t lowest = 0;
    for (size_t i = 1; i < open.size(); ++i) {
      if (open[i]->ColumnInt64(0) < open[lowest]->ColumnInt64(0)) lowest = i;
    }
    const bool is_kept = next_kept != kept.end() &&
                         (open.empty() || next_kept->first < open[lowest]->ColumnInt64(0));
    QUARRY_TRY(write_deletes_to(is_kept ? next_kept->first : open[lowest]->ColumnInt64(0)));
    if (!insert) {
      QUARRY_ASSIGN_OR_RETURN(insert, Cached(db_, write));
    } else {
      insert->Reset();
    }
    if (is_kept) {
      // A row has a few of the ontology's dozens of columns: binding each NULL one by one was
      // a quarter of these rows' cost (callgrind, contacts batch save).
      sqlite3_clear_bindings(insert->handle());
      QUARRY_TRY(insert->Bind(1, next_kept->first));
      const std::vector<SqlValue>& values = *next_kept->second;
      for (size_t i = 0; i < values.size(); ++i) {
        if (std::holds_alternative<std::monostate>(values[i])) continue;
        QUARRY_TRY(BindValue(*insert, static_cast<int>(i) + 2, values[i]));
      }
      QUARRY_TRY(insert->Step());
      ++next_kept;
      continue;
    }
    Statement& select = *open[lowest];
    const int columns = select.ColumnCount();
    for (int column = 0; column < columns; ++column) {
      const int rc = sqlite3_bind_value(insert->handle(), column + 1,
                                        sqlite3_column_value(select.handle(), column));
      if (rc != SQLITE_OK) return SqliteError(db_.handle(), rc, write);
    }
    QUARRY_TRY(insert->Step());
    QUARRY_ASSIGN_OR_RETURN(const bool more, select.Step());
    if (!more) open.erase(open.begin() + static_cast<std::ptrdiff_t>(lowest));
  }
  QUARRY_TRY(write_deletes_to(std::numeric_limits<int64_t>::max()));
  fulltext_deletes_.clear();
  return Ok();
}

// Full-text rows of the touched resources, grouped by their classes: each group's read looks
// up only the full-text properties those classes can hold (a music piece has 5 of the
// ontology's 39); the rows are written one INSERT ... VALUES each (WriteFulltextRows).
Result<void> TripleWriter::InsertFulltextRows(const std::vector<int64_t>& subjects) {
  // Signatures FlushFresh() recorded need no read of the type table.
  std::map<std::string, std::vector<int64_t>> groups;
  std::vector<int64_t> unknown;
  std::vector<KeptRow> kept;  // ascending, as `subjects`
  for (const int64_t subject : subjects) {
    if (const auto row = fulltext_rows_.find(subject); row != fulltext_rows_.end()) {
      if (!row->second.empty()) kept.emplace_back(subject, &row->second);
      continue;
    }
    const auto known = fts_signature_of_.find(subject);
    if (known != fts_signature_of_.end()) {
      groups[*known->second].push_back(subject);
    } else {
      unknown.push_back(subject);
    }
  }
  if (!unknown.empty()) {
    std::string ids = "[";
    for (size_t i = 0; i < unknown.size(); ++i) ids += (i ? "," : "") + std::to_string(unknown[i]);
    ids += ']';
    const schema::PropertyStorage types = names_.TypeStorage();
    QUARRY_ASSIGN_OR_RETURN(
        Statement * select,
        Cached(db_, fmt::format("SELECT DISTINCT ID, {} FROM {} WHERE ID IN (SELECT value FROM "
                                "json_each(?1)) ORDER BY ID, {}",
                                Quote(types.column), Quote(types.table), Quote(types.column))));
    QUARRY_TRY(select->Bind(1, std::string_view(ids)));
    std::unordered_map<int64_t, std::string> signature_of;
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
      if (!has_row) break;
      signature_of[select->ColumnInt64(0)] += std::to_string(select->ColumnInt64(1)) + ",";
    }
    for (const int64_t subject : unknown) groups[signature_of[subject]].push_back(subject);
  }
  // Signatures whose classes give the same full-text properties share one SQL text: one read
  // for all of them. A read per signature borrowed that text from the statement cache while an
  // earlier one still held it, so each duplicate compiled a statement of its own (~1.2 M
  // instructions) in every transaction.
  std::map<std::string_view, std::vector<int64_t>> reads;
  for (const auto& [signature, members] : groups) {
    auto sql = fts_select_by_signature_.find(signature);
    if (sql == fts_select_by_signature_.end()) {
      std::vector<const Property*> applicable;
      for (const Property* property : schema::FulltextProperties(ontology_)) {
        QUARRY_ASSIGN_OR_RETURN(const int64_t domain_id, OntologyId(property->domain));
        if (("," + signature).find("," + std::to_string(domain_id) + ",") != std::string::npos) {
          applicable.push_back(property);
        }
      }
      // No type rows (or no full-text property): look everything up, as the view does.
      sql = fts_select_by_signature_
                .emplace(signature,
                         applicable.empty()
                             ? fts_select_rows_sql_
                             : schema::FtsSelectRowsSql(
                                   ontology_, "R.ID IN (SELECT value FROM json_each(?1))", applicable))
                .first;
    }
    std::vector<int64_t>& read = reads[sql->second];
    read.insert(read.end(), members.begin(), members.end());
  }
  std::vector<Statement> selects;
  selects.reserve(reads.size());
  for (const auto& [sql, members] : reads) {
    std::string member_ids = "[";
    for (size_t i = 0; i < members.size(); ++i) member_ids += (i ? "," : "") + std::to_string(members[i]);
    member_ids += ']';
    QUARRY_ASSIGN_OR_RETURN(Statement select, db_.cache().Borrow(sql));
    QUARRY_TRY(select.Bind(1, std::string_view(member_ids)));
    selects.push_back(std::move(select));
  }
  return WriteFulltextRows(selects, kept, fts_insert_sql_);
}

Result<void> TripleWriter::Finish() {
  QUARRY_TRY(Flush());
  // Every buffered row is written: the flags go before the full-text rows' reads and FTS5's
  // pending terms grow the heap (a failure below ends in Abandon()).
  marks_.clear();
  // Chunks in ascending ID order, so the rows of all of them reach FTS5 in ID order.
  std::sort(fulltext_order_.begin(), fulltext_order_.end());
  constexpr size_t kChunk = 20000;
  for (size_t start = 0; start < fulltext_order_.size(); start += kChunk) {
    const auto first = fulltext_order_.begin() + static_cast<std::ptrdiff_t>(start);
    const auto last = fulltext_order_.begin() +
                      static_cast<std::ptrdiff_t>(std::min(fulltext_order_.size(), start + kChunk));
    QUARRY_TRY(InsertFulltextRows(std::vector<int64_t>(first, last)));
  }
  fulltext_order_.clear();
  ForgetFulltextRows();
  ForgetFtsSignatures();
  fresh_disabled_ = false;
  // Caches stay valid after a commit; bound them so a long-lived writer does not grow forever
  // (ids_ bounds itself: triple_writer_ids.h).
  if (typed_.size() > (1u << 20)) typed_.clear();
  return Ok();
}

void TripleWriter::RollbackTo(size_t mark) {
  pending_.clear();
  fresh_.clear();
  fresh_order_.clear();
  fresh_multi_.clear();
  ForgetFtsSignatures();  // the rows they describe may be rolled back
  ForgetFulltextRows();   // the same: read back at Finish() what is left
  // kCreated stays: an ID created inside the savepoint and reused after it is new either way.
  marks_.RemoveAll(kFlushed | kFulltextRead);
  fresh_disabled_ = true;  // typed_ is forgotten below: class rows may exist unknown to it
  for (size_t i = mark; i < fulltext_order_.size(); ++i) {
    marks_.Remove(fulltext_order_[i], kFulltextTouched);
    fulltext_deletes_.erase(fulltext_order_[i]);
  }
  fulltext_order_.resize(mark);
  ids_.clear();
  typed_.clear();
}

void TripleWriter::Abandon() {
  pending_.clear();
  fresh_.clear();
  fresh_order_.clear();
  fresh_multi_.clear();
  fresh_disabled_ = false;
  marks_.clear();
  ForgetFtsSignatures();
  ids_.clear();
  typed_.clear();
  fulltext_order_.clear();
  fulltext_deletes_.clear();
  ForgetFulltextRows();
}

}  // namespace quarry::engine
