#include "store/engine/triple_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/engine/sql_value_io.h"
#include "store/schema/fts.h"

namespace quarry::engine {
namespace {

using ontology::Class;
using ontology::Property;
using schema::Quote;

Error ConstraintError(std::string message) { return Error(Errc::kConstraint, std::move(message)); }

}  // namespace

TripleWriter::TripleWriter(Database& db, const ontology::Ontology& ontology)
    : db_(db),
      ontology_(ontology),
      names_(ontology),
      rdf_type_(ontology.FindProperty(ontology::iri::kRdfType)),
      fts_delete_sql_(schema::FtsWriteValuesSql(ontology, /*remove=*/true)),
      fts_insert_sql_(schema::FtsWriteValuesSql(ontology, /*remove=*/false)),
      fts_select_row_sql_(schema::FtsSelectRowsSql(ontology, "R.ID = ?1")),
      fts_select_rows_sql_(
          schema::FtsSelectRowsSql(ontology, "R.ID IN (SELECT value FROM json_each(?1))")) {
  const std::vector<const Property*> fulltext = schema::FulltextProperties(ontology);
  for (size_t column = 0; column < fulltext.size(); ++column) {
    fulltext_column_[fulltext[column]] = column;
  }
}

Result<std::optional<int64_t>> TripleWriter::FindId(std::string_view iri) {
  if (const std::optional<int64_t> found = ids_.find(iri)) return found;
  QUARRY_ASSIGN_OR_RETURN(Statement * select, Cached(db_, "SELECT ID FROM Resource WHERE Uri = ?1"));
  QUARRY_TRY(select->Bind(1, iri));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
  if (!has_row) return std::optional<int64_t>();
  const int64_t id = select->ColumnInt64(0);
  // Reset at once, as every single-row lookup here: a cached statement left on its row keeps
  // the writer's read transaction, and its WAL read mark, past COMMIT, so no checkpoint could
  // pass that mark. quarry-store's WAL then held the whole database and every reader read its
  // pages out of it (issue 7: 101 MB of WAL against a 4 KiB meta.db at 12,800 contacts).
  select->Reset();
  ids_.emplace(iri, id);
  return std::optional<int64_t>(id);
}

Result<int64_t> TripleWriter::IdOf(const RdfTerm& resource, BlankScope& blanks) {
  if (resource.kind == RdfTerm::Kind::kBlank) {
    if (const auto found = blanks.find(resource.value); found != blanks.end()) return found->second;
    QUARRY_ASSIGN_OR_RETURN(Statement * insert,
                            Cached(db_, "INSERT INTO Resource (Uri) VALUES (NULL)"));
    QUARRY_TRY(insert->Step());
    const int64_t id = db_.LastInsertRowId();
    blanks.emplace(resource.value, id);
    marks_.Add(id, kCreated);
    return id;
  }
  if (resource.kind != RdfTerm::Kind::kIri) {
    return ConstraintError(fmt::format("{} is a literal where a resource is expected",
                                       resource.ToString()));
  }
  return IriId(resource.value);
}

Result<int64_t> TripleWriter::IriId(std::string_view iri) {
  if (const std::optional<int64_t> found = ids_.find(iri)) return *found;
  // Insert first, look up only when the IRI was there: the unique index checks for it anyway,
  // so a new IRI (every subject of a bulk import) costs one statement instead of two.
  QUARRY_ASSIGN_OR_RETURN(
      Statement * insert,
      Cached(db_, "INSERT INTO Resource (Uri) VALUES (?1) ON CONFLICT (Uri) DO NOTHING"));
  QUARRY_TRY(insert->Bind(1, iri));
  QUARRY_TRY(insert->Step());
  if (db_.Changes() == 0) {
    QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> existing, FindId(iri));
    if (!existing) return Error(Errc::kInternal, fmt::format("<{}> neither inserted nor found", iri));
    return *existing;
  }
  const int64_t id = db_.LastInsertRowId();
  ids_.emplace(iri, id);
  marks_.Add(id, kCreated);
  return id;
}

Result<int64_t> TripleWriter::GraphIdOf(std::string_view graph_iri) {
  BlankScope no_blanks;
  QUARRY_ASSIGN_OR_RETURN(const int64_t id, IdOf(RdfTerm::Iri(std::string(graph_iri)), no_blanks));
  QUARRY_ASSIGN_OR_RETURN(Statement * insert,
                          Cached(db_, "INSERT OR IGNORE INTO Graph (ID) VALUES (?1)"));
  QUARRY_TRY(insert->Bind(1, id));
  QUARRY_TRY(insert->Step());
  return id;
}

Result<int64_t> TripleWriter::OntologyId(std::string_view iri) {
  if (const auto found = ontology_ids_.find(iri); found != ontology_ids_.end()) {
    return found->second;
  }
  QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, FindId(iri));
  if (!id) return Error(Errc::kInternal, fmt::format("ontology resource <{}> has no ID", iri));
  ontology_ids_.emplace(iri, *id);
  return *id;
}

Result<bool> TripleWriter::HasClassRow(int64_t subject, const Class& cls) {
  if (const auto fresh = fresh_.find(subject); fresh != fresh_.end()) {  // rows not written yet
    const auto& classes = fresh->second.classes;
    if (std::find(classes.begin(), classes.end(), &cls) != classes.end()) return true;
  }
  if (typed_.count({subject, &cls})) return true;
  QUARRY_ASSIGN_OR_RETURN(
      Statement * select,
      Cached(db_, fmt::format("SELECT 1 FROM {} WHERE ID = ?1", Quote(names_.ClassTable(cls)))));
  QUARRY_TRY(select->Bind(1, subject));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
  select->Reset();  // not left on its row (FindId)
  if (has_row) typed_.insert({subject, &cls});
  return has_row;
}

const Class* TripleWriter::DomainOf(const Property& predicate) {
  auto [slot, added] = domains_.try_emplace(&predicate, nullptr);
  if (added) slot->second = ontology_.FindClass(predicate.domain);
  return slot->second;
}

Result<bool> TripleWriter::InDomain(int64_t subject, const Property& predicate) {
  const Class* domain = DomainOf(predicate);
  if (!domain) return Error(Errc::kInternal, "property without a domain class");
  return HasClassRow(subject, *domain);
}

Result<void> TripleWriter::CheckDomain(int64_t subject, const Property& predicate) {
  QUARRY_ASSIGN_OR_RETURN(const bool in_domain, InDomain(subject, predicate));
  const Class* domain = DomainOf(predicate);
  if (!in_domain) {
    return ConstraintError(fmt::format("subject is not in the domain of {}: it is not a {}",
                                       predicate.name, domain->name));
  }
  return Ok();
}

std::string DescribeObject(const Object& object) {
  if (const auto* term = std::get_if<RdfTerm>(&object)) return term->ToString();
  if (const auto* ref = std::get_if<ResourceRef>(&object)) return fmt::format("resource #{}", ref->id);
  const auto& stored = std::get<StoredValue>(object);
  return DescribeValue(stored.value, stored.type);
}

Error SecondValueError(const Property& predicate, const SqlValue& current, const Object& object) {
  return ConstraintError(fmt::format(
      "{} is single-valued and already holds {}; cannot add {} (use INSERT OR REPLACE)",
      predicate.name, DescribeValue(current, predicate.type), DescribeObject(object)));
}

Result<const Class*> TripleWriter::ClassOf(const Object& object) {
  if (const auto* term = std::get_if<RdfTerm>(&object)) {
    if (term->kind != RdfTerm::Kind::kIri) {
      return ConstraintError(fmt::format("rdf:type needs a class IRI, got {}", term->ToString()));
    }
    const Class* cls = ontology_.FindClass(term->value);
    if (!cls) return ConstraintError(fmt::format("unknown class <{}>", term->value));
    return cls;
  }
  const auto* ref = std::get_if<ResourceRef>(&object);
  if (!ref) return ConstraintError("rdf:type needs a class, got a literal");
  if (classes_by_id_.empty()) {
    for (const Class& cls : ontology_.classes()) {
      QUARRY_ASSIGN_OR_RETURN(const int64_t id, OntologyId(cls.iri));
      classes_by_id_.emplace(id, &cls);
    }
  }
  const auto found = classes_by_id_.find(ref->id);
  if (found == classes_by_id_.end()) {
    return ConstraintError(fmt::format("resource #{} is not a class of the ontology", ref->id));
  }
  return found->second;
}

Result<SqlValue> TripleWriter::EncodeObject(const Property& predicate, const Object& object,
                                            BlankScope* blanks) {
  const bool is_resource_range = predicate.type == ontology::ValueType::kResource;
  if (const auto* ref = std::get_if<ResourceRef>(&object)) {
    if (!is_resource_range) {
      return ConstraintError(fmt::format("a resource is not a valid {} for {}",
                                         ontology::ValueTypeName(predicate.type), predicate.name));
    }
    return SqlValue(ref->id);
  }
  if (const auto* stored = std::get_if<StoredValue>(&object)) {
    if (stored->type == predicate.type) return stored->value;
    return EncodeObject(predicate, schema::DecodeLiteral(stored->value, stored->type), blanks);
  }
  const RdfTerm& term = std::get<RdfTerm>(object);
  if (!is_resource_range) {
    auto value = schema::EncodeLiteral(term, predicate.type);
    if (!value) return std::move(value).error().WithContext(fmt::format("range of {}", predicate.name));
    return value;
  }
  if (!term.is_resource()) {
    return ConstraintError(fmt::format("{} is a literal but the range of {} is the class {}",
                                       term.ToString(), predicate.name,
                                       ontology_.Compact(predicate.range)));
  }
  if (blanks) {
    QUARRY_ASSIGN_OR_RETURN(const int64_t id, IdOf(term, *blanks));
    return SqlValue(id);
  }
  if (term.kind == RdfTerm::Kind::kBlank) return SqlValue();  // a fresh blank matches nothing
  QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, FindId(term.value));
  return id ? SqlValue(*id) : SqlValue();
}

Result<void> TripleWriter::Insert(int64_t graph, int64_t subject, const Property& predicate,
                                  const Object& object, bool replace, BlankScope& blanks) {
  if (&predicate == rdf_type_) {
    QUARRY_ASSIGN_OR_RETURN(const Class* cls, ClassOf(object));
    return AddType(graph, subject, *cls);
  }
  QUARRY_ASSIGN_OR_RETURN(SqlValue value, EncodeObject(predicate, object, &blanks));
  if (!predicate.multi_valued()) {
    if (const auto fresh = fresh_.find(subject); fresh != fresh_.end()) {
      QUARRY_ASSIGN_OR_RETURN(const bool buffered, InsertFresh(fresh->second, graph, subject, predicate,
                                                               value, object, replace));
      if (buffered) return Ok();
      // A subject whose buffer holds no class row (a resource flushed earlier in this
      // transaction and typed again: the tag a later request of a batch save states again)
      // has every row the value can go to written already, and no buffered row a trigger of
      // the UPDATE could reach: the buffer of the other resources stays. Flushing it here
      // wrote a streamed 3,200-contact save in ~40 small flushes, compiling 1,871 multi-row
      // INSERTs of odd sizes (19 % of its instructions, issue 7).
      if (!fresh->second.classes.empty()) QUARRY_TRY(FlushFresh());
    }
    return InsertSingle(graph, subject, predicate, value, object, replace);
  }
  // Another table than any buffered row: nothing to flush first.
  QUARRY_TRY(CheckDomain(subject, predicate));
  QUARRY_TRY(TouchFulltext(subject, predicate, /*buffered=*/fresh_.count(subject) != 0));
  if (fresh_.count(subject)) {  // written with the resource's class rows (FlushFresh)
    HoldFreshMulti(predicate, subject, std::move(value), graph);
    return Ok();
  }
  // The SQL once per property: formatting and quoting it per triple showed in bulk profiles.
  auto [sql, added] = multi_insert_sql_.try_emplace(&predicate);
  if (added) {
    const schema::PropertyStorage storage = names_.StorageOf(predicate);
    sql->second = fmt::format("INSERT OR IGNORE INTO {} (ID, {}, {}) VALUES (?1, ?2, ?3)",
                              Quote(storage.table), Quote(storage.column), Quote(storage.graph_column));
  }
  QUARRY_ASSIGN_OR_RETURN(Statement * insert, Cached(db_, sql->second));
  QUARRY_TRY(insert->Bind(1, subject));
  QUARRY_TRY(BindValue(*insert, 2, value));
  QUARRY_TRY(insert->Bind(3, graph));
  QUARRY_TRY(insert->Step());
  return Ok();
}

Result<void> TripleWriter::InsertSingle(int64_t graph, int64_t subject, const Property& predicate,
                                        const SqlValue& value, const Object& object,
                                        bool replace) {
  QUARRY_TRY(TouchFulltext(subject, predicate));  // before any change: FTS needs the old text
  const std::string* table = &SqlOf(predicate).storage.table;
  if (!pending_.empty() && (pending_.front().subject != subject || pending_.front().graph != graph ||
                            pending_.front().replace != replace)) {
    QUARRY_TRY(Flush());
  }
  PendingRow* row = nullptr;
  for (PendingRow& candidate : pending_) {
    if (*candidate.table == *table) row = &candidate;
  }
  if (row) {
    for (const PendingValue& pending : row->values) {
      if (pending.property == &predicate) {  // a second value for the cell: apply in order
        QUARRY_TRY(Flush());
        row = nullptr;
        break;
      }
    }
  }
  if (!row) {
    pending_.push_back(PendingRow{graph, subject, table, replace, {}});
    row = &pending_.back();
  }
  row->values.push_back({&predicate, value, object});
  return Ok();
}

const TripleWriter::PropertySql& TripleWriter::SqlOf(const Property& predicate) {
  const auto [slot, added] = property_sql_.try_emplace(&predicate);
  PropertySql& sql = slot->second;
  if (!added) return sql;
  sql.storage = names_.StorageOf(predicate);
  const std::string table = Quote(sql.storage.table);
  const std::string column = Quote(sql.storage.column);
  const std::string graph = Quote(sql.storage.graph_column);
  sql.update_replace =
      fmt::format("UPDATE {0} SET {1} = ?2, {2} = ?3 WHERE ID = ?1", table, column, graph);
  sql.update_if_null = fmt::format("{} AND {} IS NULL", sql.update_replace, column);
  sql.select_value = fmt::format("SELECT {} FROM {} WHERE ID = ?1", column, table);
  sql.delete_value =
      sql.storage.multi_valued
          ? fmt::format("DELETE FROM {} WHERE ID = ?1 AND {} = ?2", table, column)
          : fmt::format("UPDATE {0} SET {1} = NULL, {2} = NULL WHERE ID = ?1 AND {1} = ?2", table,
                        column, graph);
  sql.delete_in_graph = fmt::format("{} AND {} = ?3", sql.delete_value, graph);
  sql.delete_rows = fmt::format("DELETE FROM {} WHERE ID = ?1", table);
  return sql;
}

Result<const std::string*> TripleWriter::GroupedUpdateSql(const PendingRow& row) {
  std::string key = *row.table + (row.replace ? "|r" : "|i");
  for (const PendingValue& pending : row.values) key += "|" + pending.property->name;
  if (const auto found = grouped_update_sql_.find(key); found != grouped_update_sql_.end()) {
    return &found->second;
  }
  std::string set, where;
  int index = 2;
  for (const PendingValue& pending : row.values) {
    const schema::PropertyStorage& storage = SqlOf(*pending.property).storage;
    set += fmt::format("{}{} = ?{}, {} = ?1000", set.empty() ? "" : ", ", Quote(storage.column),
                       index++, Quote(storage.graph_column));
    if (!row.replace) where += fmt::format(" AND {} IS NULL", Quote(storage.column));
  }
  std::string sql = fmt::format("UPDATE {} SET {} WHERE ID = ?1{}", Quote(*row.table), set, where);
  return &grouped_update_sql_.emplace(std::move(key), std::move(sql)).first->second;
}

Result<void> TripleWriter::Flush() {
  QUARRY_TRY(FlushFresh());
  return FlushPending();
}

Result<void> TripleWriter::FlushPending() {
  std::vector<PendingRow> rows = std::move(pending_);
  pending_.clear();
  for (PendingRow& row : rows) QUARRY_TRY(FlushRow(row));
  return Ok();
}

Result<void> TripleWriter::FlushRow(PendingRow& row) {
  if (row.values.size() > 1) {
    QUARRY_ASSIGN_OR_RETURN(const std::string* sql, GroupedUpdateSql(row));
    QUARRY_ASSIGN_OR_RETURN(Statement * update, Cached(db_, *sql));
    QUARRY_TRY(update->Bind(1, row.subject));
    QUARRY_TRY(update->Bind(1000, row.graph));
    for (size_t i = 0; i < row.values.size(); ++i) {
      QUARRY_TRY(BindValue(*update, static_cast<int>(i) + 2, row.values[i].value));
    }
    QUARRY_TRY(update->Step());
    if (db_.Changes() > 0) return Ok();
  }
  // One value, or the grouped UPDATE matched nothing: each value on its own, with its own error.
  for (const PendingValue& pending : row.values) {
    QUARRY_TRY(InsertSingleNow(row.graph, row.subject, *pending.property, pending.value,
                               pending.object, row.replace));
  }
  return Ok();
}

Result<void> TripleWriter::InsertSingleNow(int64_t graph, int64_t subject, const Property& predicate,
                                           const SqlValue& value, const Object& object,
                                           bool replace) {
  const PropertySql& sql = SqlOf(predicate);
  // The common case in one statement: the row exists and the cell is empty (or is replaced).
  // Only when nothing changed do we look why: not in the domain, same value, or another value.
  QUARRY_ASSIGN_OR_RETURN(Statement * update,
                          Cached(db_, replace ? sql.update_replace : sql.update_if_null));
  QUARRY_TRY(update->Bind(1, subject));
  QUARRY_TRY(BindValue(*update, 2, value));
  QUARRY_TRY(update->Bind(3, graph));
  QUARRY_TRY(update->Step());
  if (db_.Changes() > 0) return Ok();
  QUARRY_ASSIGN_OR_RETURN(Statement * select, Cached(db_, sql.select_value));
  QUARRY_TRY(select->Bind(1, subject));
  QUARRY_ASSIGN_OR_RETURN(const bool in_domain, select->Step());
  if (!in_domain) {
    return ConstraintError(fmt::format("subject is not in the domain of {}: it is not a {}",
                                       predicate.name, sql.storage.table));
  }
  const SqlValue current = ReadValue(*select, 0);
  select->Reset();
  if (current == value) return Ok();
  return SecondValueError(predicate, current, object);
}

// "INSERT OR IGNORE INTO types VALUES (?1, id1, ?2), (?1, id2, ?2), ..." for a class and its
// superclasses: one statement per new type instead of one per class.
Result<const std::string*> TripleWriter::TypeRowsSql(const Class& cls) {
  if (const auto found = type_rows_sql_.find(&cls); found != type_rows_sql_.end()) {
    return &found->second;
  }
  const schema::PropertyStorage types = names_.TypeStorage();
  std::string sql = fmt::format("INSERT OR IGNORE INTO {} (ID, {}, {}) VALUES ", Quote(types.table),
                                Quote(types.column), Quote(types.graph_column));
  bool first = true;
  for (const std::string& super_iri : ontology_.SuperClassesOf(cls.iri)) {
    QUARRY_ASSIGN_OR_RETURN(const int64_t class_id, OntologyId(super_iri));
    sql += fmt::format("{}(?1, {}, ?2)", first ? "" : ", ", class_id);
    first = false;
  }
  return &type_rows_sql_.emplace(&cls, std::move(sql)).first->second;
}

Result<void> TripleWriter::AddType(int64_t graph, int64_t subject, const Class& cls) {
  if (marks_.Has(subject, kCreated) && !fresh_disabled_) {
    QUARRY_TRY(FlushPending());
    return AddTypeFresh(graph, subject, cls);
  }
  QUARRY_TRY(Flush());
  ForgetFtsSignature(subject);
  for (const std::string& super_iri : ontology_.SuperClassesOf(cls.iri)) {
    const Class* super = ontology_.FindClass(super_iri);
    if (!super || typed_.count({subject, super})) continue;
    QUARRY_ASSIGN_OR_RETURN(
        Statement * row,
        Cached(db_, fmt::format("INSERT OR IGNORE INTO {} (ID) VALUES (?1)",
                                Quote(names_.ClassTable(*super)))));
    QUARRY_TRY(row->Bind(1, subject));
    QUARRY_TRY(row->Step());
    typed_.insert({subject, super});
  }
  QUARRY_ASSIGN_OR_RETURN(const std::string* sql, TypeRowsSql(cls));
  QUARRY_ASSIGN_OR_RETURN(Statement * type_rows, Cached(db_, *sql));
  QUARRY_TRY(type_rows->Bind(1, subject));
  QUARRY_TRY(type_rows->Bind(2, graph));
  QUARRY_TRY(type_rows->Step());
  return Ok();
}

Result<void> TripleWriter::Delete(std::optional<int64_t> graph, int64_t subject,
                                  const Property& predicate, const Object& object) {
  QUARRY_TRY(Flush());
  if (&predicate == rdf_type_) {
    auto cls = ClassOf(object);
    if (!cls) return Ok();  // nothing can hold an unknown type
    return RemoveType(graph, subject, **cls);
  }
  QUARRY_ASSIGN_OR_RETURN(const SqlValue value, EncodeObject(predicate, object, nullptr));
  if (std::holds_alternative<std::monostate>(value)) return Ok();
  const PropertySql& sql = SqlOf(predicate);
  QUARRY_TRY(TouchFulltext(subject, predicate));
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          Cached(db_, graph ? sql.delete_in_graph : sql.delete_value));
  QUARRY_TRY(statement->Bind(1, subject));
  QUARRY_TRY(BindValue(*statement, 2, value));
  if (graph) QUARRY_TRY(statement->Bind(3, *graph));
  QUARRY_TRY(statement->Step());
  return Ok();
}

}  // namespace quarry::engine
