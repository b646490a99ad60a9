#include "store/engine/quad_writer.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "store/engine/sql_value_io.h"
#include "store/engine/sqlite/transaction.h"
#include "store/schema/quad_table.h"

namespace quarry::engine {
namespace {

// A literal from a WHERE solution (stored value of a known column) as an RDF term.
RdfTerm LiteralOf(const StoredValue& stored) {
  if (const auto* blob = std::get_if<Blob>(&stored.value)) {
    std::string_view text, lang;
    if (schema::DecodeLangString(blob->bytes, &text, &lang)) {
      return RdfTerm::Literal(std::string(text), {}, std::string(lang));
    }
  }
  return schema::DecodeLiteral(stored.value, stored.type);
}

}  // namespace

Result<bool> HasQuadTable(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(
      Statement * select,
      Cached(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1"));
  QUARRY_TRY(select->Bind(1, schema::kQuadTable));
  QUARRY_ASSIGN_OR_RETURN(const bool found, select->Step());
  select->Reset();
  return found;
}

namespace {

// True when the quad table was made with Graph as its first column (before the columns followed
// the primary key; schema/quad_table.cpp says why that matters).
Result<bool> HasGraphFirstLayout(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(
      Statement columns,
      db.Prepare(fmt::format("SELECT name FROM pragma_table_info('{}') WHERE cid = 0",
                             schema::kQuadTable)));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, columns.Step());
  return has_row && columns.ColumnText(0) == "Graph";
}

}  // namespace

Result<void> CreateQuadTables(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(const bool is_old_layout, HasGraphFirstLayout(db));
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction, Transaction::Begin(db));
  const std::vector<std::string> statements =
      is_old_layout ? schema::RebuildQuadTableSql() : schema::CreateQuadTablesSql();
  for (const std::string& sql : statements) QUARRY_TRY(db.Exec(sql));
  return transaction.Commit();
}

bool IsBaseOntologyFile(std::string_view file_name) {
  return file_name == "10-xsd.ontology" || file_name == "11-rdf.ontology" ||
         file_name == "12-nrl.ontology";
}

Result<bool> QuadWriter::Routes(const ontology::Property* property, const Object& object) {
  // Every predicate but rdf:type: the base ontology's domains and ranges (rdf:first an
  // rdfs:Resource, rdfs:label on rdfs:Resource) would refuse arbitrary RDF such as the W3C data.
  if (!property || property->iri != ontology::iri::kRdfType) return true;
  if (const auto* term = std::get_if<RdfTerm>(&object)) {
    return !term->is_resource() || !ontology_.FindClass(term->value);
  }
  if (const auto* ref = std::get_if<ResourceRef>(&object)) {
    QUARRY_ASSIGN_OR_RETURN(const std::optional<std::string> iri, UriOf(ref->id));
    return !iri || !ontology_.FindClass(*iri);
  }
  return true;  // a literal as a type: only the quad table can hold it
}

Result<int64_t> QuadWriter::PredicateId(std::string_view iri) {
  BlankScope no_blanks;
  return writer_.IdOf(RdfTerm::Iri(std::string(iri)), no_blanks);
}

Result<std::optional<std::string>> QuadWriter::UriOf(int64_t id) {
  QUARRY_ASSIGN_OR_RETURN(Statement * select,
                          Cached(db_, "SELECT Uri FROM Resource WHERE ID = ?1"));
  QUARRY_TRY(select->Bind(1, id));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
  std::optional<std::string> uri;
  if (has_row && select->ColumnType(0) != SQLITE_NULL) uri = std::string(select->ColumnText(0));
  select->Reset();
  return uri;
}

Result<std::optional<int64_t>> QuadWriter::LiteralId(const RdfTerm& literal, bool create) {
  const std::string datatype = schema::LiteralDatatype(literal);
  QUARRY_ASSIGN_OR_RETURN(
      Statement * select,
      Cached(db_,
             fmt::format("SELECT ID FROM {} WHERE Lexical = ?1 AND Datatype = ?2 AND Lang = ?3",
                         schema::kLiteralTable)));
  QUARRY_TRY(select->Bind(1, std::string_view(literal.value)));
  QUARRY_TRY(select->Bind(2, std::string_view(datatype)));
  QUARRY_TRY(select->Bind(3, std::string_view(literal.lang)));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
  const std::optional<int64_t> found =
      has_row ? std::optional<int64_t>(select->ColumnInt64(0)) : std::nullopt;
  select->Reset();
  if (found || !create) return found;
  // Literal IDs count down from -1 so they never meet a Resource ID.
  QUARRY_ASSIGN_OR_RETURN(
      Statement * insert,
      Cached(db_, fmt::format("INSERT INTO {0} (ID, Lexical, Datatype, Lang, Value) VALUES "
                              "((SELECT coalesce(min(ID), 0) - 1 FROM {0}), ?1, ?2, ?3, ?4)",
                              schema::kLiteralTable)));
  QUARRY_TRY(insert->Bind(1, std::string_view(literal.value)));
  QUARRY_TRY(insert->Bind(2, std::string_view(datatype)));
  QUARRY_TRY(insert->Bind(3, std::string_view(literal.lang)));
  QUARRY_TRY(BindValue(*insert, 4, schema::LiteralValue(literal)));
  QUARRY_TRY(insert->Step());
  return std::optional<int64_t>(db_.LastInsertRowId());
}

Result<std::optional<int64_t>> QuadWriter::TermId(const Object& object, BlankScope* blanks,
                                                  bool create) {
  if (const auto* ref = std::get_if<ResourceRef>(&object)) return std::optional<int64_t>(ref->id);
  if (const auto* stored = std::get_if<StoredValue>(&object)) {
    return LiteralId(LiteralOf(*stored), create);
  }
  const RdfTerm& term = std::get<RdfTerm>(object);
  if (term.kind == RdfTerm::Kind::kLiteral) return LiteralId(term, create);
  if (term.kind == RdfTerm::Kind::kIri && !create) return writer_.FindId(term.value);
  if (!blanks) return std::optional<int64_t>();  // a blank node in a DELETE matches nothing new
  QUARRY_ASSIGN_OR_RETURN(const int64_t id, writer_.IdOf(term, *blanks));
  return std::optional<int64_t>(id);
}

Result<void> QuadWriter::Insert(int64_t graph, int64_t subject, int64_t predicate,
                                const Object& object, BlankScope& blanks) {
  QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, TermId(object, &blanks, true));
  QUARRY_ASSIGN_OR_RETURN(
      Statement * insert,
      Cached(db_, fmt::format("INSERT OR IGNORE INTO {} (Graph, Subject, Predicate, Object) "
                              "VALUES (?1, ?2, ?3, ?4)",
                              schema::kQuadTable)));
  QUARRY_TRY(insert->Bind(1, graph));
  QUARRY_TRY(insert->Bind(2, subject));
  QUARRY_TRY(insert->Bind(3, predicate));
  QUARRY_TRY(insert->Bind(4, *id));
  QUARRY_TRY(insert->Step());
  return Ok();
}

Result<void> QuadWriter::Delete(std::optional<int64_t> graph, int64_t subject, int64_t predicate,
                                const Object& object) {
  QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, TermId(object, nullptr, false));
  if (!id) return Ok();
  QUARRY_ASSIGN_OR_RETURN(
      Statement * remove,
      Cached(db_,
             fmt::format("DELETE FROM {} WHERE Subject = ?1 AND Predicate = ?2 AND Object = ?3 "
                         "AND (?4 IS NULL OR Graph = ?4)",
                         schema::kQuadTable)));
  QUARRY_TRY(remove->Bind(1, subject));
  QUARRY_TRY(remove->Bind(2, predicate));
  QUARRY_TRY(remove->Bind(3, *id));
  QUARRY_TRY(graph ? remove->Bind(4, *graph) : remove->Bind(4, nullptr));
  QUARRY_TRY(remove->Step());
  return Ok();
}

Result<void> QuadWriter::ClearGraph(std::optional<int64_t> graph) {
  QUARRY_ASSIGN_OR_RETURN(Statement * clear,
                          Cached(db_, fmt::format("DELETE FROM {} WHERE ?1 IS NULL OR Graph = ?1",
                                                  schema::kQuadTable)));
  QUARRY_TRY(graph ? clear->Bind(1, *graph) : clear->Bind(1, nullptr));
  QUARRY_TRY(clear->Step());
  return Ok();
}

}  // namespace quarry::engine
