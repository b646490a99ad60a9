// TripleWriter: applies ground triples to the schema of SCHEMA.md inside the caller's
// transaction, checking each against the ontology (unknown property, domain, range, cardinality).
//
// Every statement comes from the database's statement cache, so a bulk import compiles each SQL
// text once, never per triple. Keeps per-transaction caches (IRI → ID, known types, full-text rows
// to re-index); call Finish() before COMMIT and Abandon() after a ROLLBACK.
// Thread-safety: one writer thread; not shareable.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "store/common/result.h"
#include "store/engine/flat_set.h"
#include "store/engine/sql_value_io.h"
#include "store/engine/triple_writer_ids.h"
#include "store/schema/rdf_term.h"
#include "store/engine/sqlite/database.h"
#include "store/ontology/ontology.h"
#include "store/schema/names.h"

namespace quarry::engine {

inline constexpr int64_t kDefaultGraph = 0;

// The object of a triple: a term from the request, a resource ID from a WHERE solution, or a
// stored literal value from a WHERE solution (already in its column encoding).
struct ResourceRef {
  int64_t id = 0;
};
struct StoredValue {
  SqlValue value;
  ontology::ValueType type = ontology::ValueType::kString;
};
using Object = std::variant<RdfTerm, ResourceRef, StoredValue>;
std::string DescribeObject(const Object& object);
// The error for a second value of a single-valued property (both write paths use it).
Error SecondValueError(const ontology::Property& predicate, const SqlValue& current,
                       const Object& object);

// Blank-node labels of one update operation (or one solution of a template) → fresh IDs.
using BlankScope = std::unordered_map<std::string, int64_t>;

class TripleWriter {
  struct PendingRow;

 public:
  TripleWriter(Database& db, const ontology::Ontology& ontology);

  // The bulk path's multi-row INSERTs kept prepared (BulkStatement): at most this many, holding
  // at most this much SQLite heap (their own report, SQLITE_STMTSTATUS_MEMUSED). The count alone
  // was 64, fewer than the ~80 shapes (class, columns, row count) a contacts batch save cycles
  // through at each flush: least recently used, each was finalized just before its next use and
  // compiled again, 441 compiles of ~0.8 M instructions in a 3,200-contact save (issue 7). Those
  // hold ~35 KiB each on average, a 200-row INSERT of a wide class up to ~280 KiB. 2 MiB holds
  // most of a save's ~80 shapes; 8 MiB with kMaxKeptFulltextBytes at 8 MiB put quarry-store's peak
  // in a 12,800-contact save 10 MiB above s22's, past Tracker's (issue 7, s23).
  static constexpr size_t kMaxBulkStatements = 256;
  static constexpr size_t kMaxBulkStatementBytes = size_t{2} << 20;
  size_t bulk_statement_count() const { return bulk_statements_.size(); }
  size_t bulk_statement_bytes() const { return bulk_statement_bytes_; }
  // Tests: smaller bounds, to reach them with a few shapes.
  void set_bulk_statement_bounds(size_t count, size_t bytes) {
    max_bulk_statements_ = count;
    max_bulk_statement_bytes_ = bytes;
  }

  // Memory of full-text rows kept for Finish() (KeepFulltextRows) at most, in bytes (text plus
  // each row's cells and map node, fulltext_row_overhead()): past it, new resources' rows are
  // read back at Finish() as changed ones are, so a huge one-transaction import does not hold
  // all its text in memory until COMMIT. Multi-valued values may pass it by one resource's
  // worth. Counting the text alone let a 12,800-contact batch save keep ~90,000 rows of ~40
  // cells each: quarry-store's peak went from 55 to 196 MiB (issue 7, s23).
  static constexpr size_t kMaxKeptFulltextBytes = size_t{1} << 20;
  size_t kept_fulltext_bytes() const { return fulltext_rows_bytes_; }
  size_t fulltext_row_overhead() const {
    return fulltext_column_.size() * sizeof(SqlValue) + kFulltextRowNodeBytes;
  }
  void set_max_kept_fulltext_bytes(size_t bytes) { max_kept_fulltext_bytes_ = bytes; }  // tests
  // New resources still in the fresh buffer whose row must be read back (tests).
  size_t fulltext_read_count() const { return marks_.Count(kFulltextRead); }
  // The bytes of the per-transaction flags of resources (tests and measurements).
  size_t resource_marks_bytes() const { return marks_.MemoryBytes(); }

  // The ID of an IRI, created when missing; blank nodes get fresh IDs per scope.
  Result<int64_t> IdOf(const RdfTerm& resource, BlankScope& blanks);
  // The same for an IRI, without building an RdfTerm (a string copy per triple on bulk imports).
  Result<int64_t> IriId(std::string_view iri);
  // The ID of an IRI if it exists.
  Result<std::optional<int64_t>> FindId(std::string_view iri);
  // The ID of a named graph, registering it in Graph when new.
  Result<int64_t> GraphIdOf(std::string_view graph_iri);

  // Inserts (subject, predicate, object) into `graph`. rdf:type adds the class and its
  // superclasses. A second value for a single-valued property is an error unless `replace`.
  Result<void> Insert(int64_t graph, int64_t subject, const ontology::Property& predicate,
                      const Object& object, bool replace, BlankScope& blanks);
  // Deletes the triple from `graph`, or from whichever graph holds it when graph is nullopt.
  // Deleting a triple that is not there is not an error.
  Result<void> Delete(std::optional<int64_t> graph, int64_t subject,
                      const ontology::Property& predicate, const Object& object);
  // Whether the subject has a row in the table of the predicate's domain, the condition Insert
  // checks (types this transaction added count). The streaming executor holds back values
  // stated before their subject's type with it; Insert still makes the check itself.
  Result<bool> InDomain(int64_t subject, const ontology::Property& predicate);
  // Removes every value held in `graph` (CLEAR GRAPH / DROP GRAPH).
  Result<void> ClearGraph(int64_t graph);

  // Applies buffered single-valued inserts. Consecutive single-valued values of one subject and
  // table are written by one UPDATE (the bulk path); every other call flushes them first, so
  // the order of effects is the order of calls. Call before reading the database.
  Result<void> Flush();
  // Applies only the buffered UPDATEs of the current subject (errors then belong to it); the
  // bulk buffer of new resources stays, to be written many resources per statement.
  Result<void> FlushPending();
  // Whether `subject` has rows held in the bulk buffer of new resources, which Flush() writes
  // and FlushPending() does not: a read of its values needs Flush() first (update_executor.cpp).
  bool Buffered(int64_t subject) const { return fresh_.count(subject) > 0; }
  // Writes the bulk buffer of new resources when it holds more than a few thousand; called
  // after each update operation (update_executor.cpp), where an INSERT DATA has given its
  // resources all their values. Without it a transaction of many requests (a streamed batch
  // save) kept up to 65,536 resources buffered: 56 of quarry-store's 110 MiB heap peak on a
  // 12,800-contact save (issue 7).
  Result<void> FlushFreshIfLarge();

  // Re-indexes full text of the resources touched in this transaction. Call before COMMIT.
  Result<void> Finish();
  // Forgets per-transaction caches; call after ROLLBACK.
  void Abandon();
  // Savepoint support: Mark() before a savepoint, RollbackTo(mark) after rolling it back, so
  // full-text rows deleted inside it are not re-inserted twice and no cached ID outlives it.
  size_t Mark() const { return fulltext_order_.size(); }
  void RollbackTo(size_t mark);

  // The ID of a class or property resource (created with the schema).
  Result<int64_t> OntologyId(std::string_view iri);

 private:
  Result<void> CheckDomain(int64_t subject, const ontology::Property& predicate);
  // The class of the predicate's rdfs:domain, cached (a string look-up per triple otherwise).
  const ontology::Class* DomainOf(const ontology::Property& predicate);
  Result<SqlValue> EncodeObject(const ontology::Property& predicate, const Object& object,
                                BlankScope* blanks);
  Result<const ontology::Class*> ClassOf(const Object& object);
  Result<void> AddType(int64_t graph, int64_t subject, const ontology::Class& cls);
  Result<void> RemoveType(std::optional<int64_t> graph, int64_t subject,
                          const ontology::Class& cls);
  Result<void> DropClassRow(int64_t subject, const ontology::Class& cls);
  Result<void> InsertSingle(int64_t graph, int64_t subject, const ontology::Property& predicate,
                            const SqlValue& value, const Object& object, bool replace);
  Result<void> InsertSingleNow(int64_t graph, int64_t subject, const ontology::Property& predicate,
                               const SqlValue& value, const Object& object, bool replace);
  Result<const std::string*> GroupedUpdateSql(const PendingRow& row);
  // The bulk path for resources created in this transaction (triple_writer_fresh.cpp): their
  // class rows, type rows and single values are gathered in memory and written with multi-row
  // INSERTs, many resources per statement, instead of an INSERT plus UPDATEs per resource.
  Result<void> AddTypeFresh(int64_t graph, int64_t subject, const ontology::Class& cls);
  // False when the value is not for a row this buffer will insert (the caller writes it);
  // `value` is moved into the buffer only when it returns true.
  struct FreshResource;
  Result<bool> InsertFresh(FreshResource& fresh, int64_t graph, int64_t subject,
                           const ontology::Property& predicate, SqlValue& value,
                           const Object& object, bool replace);
  Result<void> FlushFresh();
  void RecordFtsSignatures();  // of the fresh buffer's resources (fts_signature_of_)
  // Values of multi-valued properties of resources in the fresh buffer: held with them and
  // written by FlushFresh() after their class rows, many rows per INSERT (issue 7: one statement
  // per value was ~20% of a contacts batch save).
  void HoldFreshMulti(const ontology::Property& predicate, int64_t subject, SqlValue value,
                      int64_t graph);
  Result<void> InsertMultiRows();
  struct FreshEntry;
  Result<void> InsertClassRows(const ontology::Class& cls, const std::vector<FreshEntry>& rows);
  Result<void> InsertTypeRows();
  Result<void> FlushRow(PendingRow& row);
  // `buffered`: the value goes to the fresh buffer, whose FlushFresh() keeps the row's values
  // (fulltext_rows_); any other change means the row must be read back at Finish().
  Result<void> TouchFulltext(int64_t subject, const ontology::Property& predicate,
                             bool buffered = false);
  Result<void> TouchFulltextRow(int64_t subject, bool buffered = false);
  Result<void> InsertFulltextRows(const std::vector<int64_t>& subjects);
  // Full-text rows of the fresh buffer's resources from the values in hand (FlushFresh()).
  void KeepFulltextRows();
  // Their multi-valued columns; a resource with a value that is not text leaves `kept`.
  void KeepMultiValuedText(FlatSet<int64_t, IdHash>& kept);

  Result<bool> HasClassRow(int64_t subject, const ontology::Class& cls);
  Result<const std::string*> TypeRowsSql(const ontology::Class& cls);
  // Names::StorageOf once per property (it looks the domain up and builds three strings: per
  // triple, that was ~2 % of the store's instructions applying the miner's and extractor's
  // updates), with the SQL of the row-by-row paths that use it.
  struct PropertySql {
    schema::PropertyStorage storage;
    std::string update_if_null;   // InsertSingleNow: ?1 ID, ?2 value, ?3 graph
    std::string update_replace;   // the same, INSERT OR REPLACE
    std::string select_value;     // ?1 ID
    std::string delete_value;     // Delete: ?1 ID, ?2 value
    std::string delete_in_graph;  // the same, ?3 graph
    std::string delete_rows;      // a multi-valued property's rows of ?1 (DropClassRow)
  };
  const PropertySql& SqlOf(const ontology::Property& predicate);
  std::unordered_map<const ontology::Property*, PropertySql> property_sql_;  // stable
  // A class's single-valued domain properties and domain-indexed properties, in column order
  // (InsertClassRows: asking the ontology per flush was ~2 % of the miner's updates).
  struct ClassColumns {
    std::vector<const ontology::Property*> domain;  // every property, as PropertiesOfDomain
    std::vector<const ontology::Property*> singles;
    std::vector<const ontology::Property*> mirrors;
    // Whether a bulk INSERT of this writer wrote the column (InsertClassRows keeps it).
    std::vector<bool> single_written;
    std::vector<bool> mirror_written;
  };
  ClassColumns& ColumnsOf(const ontology::Class& cls);
  std::unordered_map<const ontology::Class*, ClassColumns> class_columns_;

  Database& db_;
  const ontology::Ontology& ontology_;
  schema::Names names_;
  const ontology::Property* rdf_type_ = nullptr;
  // Full-text rows are read with a SELECT and written one row per INSERT ... VALUES (no
  // statement journal: FTS5 flushes its pending terms once, at COMMIT, not at every statement).
  std::string fts_delete_sql_;       // 'delete' of one row: ?1 the ID, ?2.. the old values
  std::string fts_insert_sql_;       // one row: ?1 the ID, ?2.. the values
  std::string fts_select_row_sql_;   // ?1: one resource ID
  std::string fts_select_rows_sql_;  // ?1: a JSON array of resource IDs
  std::unordered_map<std::string, std::string> fts_select_by_signature_;  // class IDs -> SQL
  // Writes the rows `selects` return (ID, then the full-text columns) and `kept` (rows of
  // fulltext_rows_, ascending IDs) with `write`.
  using KeptRow = std::pair<int64_t, const std::vector<SqlValue>*>;
  Result<void> WriteFulltextRows(std::vector<Statement>& selects, const std::vector<KeptRow>& kept,
                                 const std::string& write);
  // Full-text rows of resources created in this transaction, built by FlushFresh() from the
  // values it wrote (the columns of fts_insert_sql_; no row when all are NULL), exactly as the
  // view would give them: Finish() writes them without reading them back through the view,
  // which was a third of a contacts batch save's instructions and re-read every extracted
  // file's text (issues 7 and 5). Only resources whose every full-text value went through the
  // fresh buffer; any other change drops the kept row, or, while the resource is still in the
  // fresh buffer, marks it kFulltextRead (kFlushed rules out the flushed ones).
  std::unordered_map<int64_t, std::vector<SqlValue>> fulltext_rows_;
  static constexpr size_t kFulltextRowNodeBytes = 64;  // the map node and the row's vector
  size_t fulltext_rows_bytes_ = 0;          // text kept in fulltext_rows_ in this transaction
  size_t max_kept_fulltext_bytes_ = kMaxKeptFulltextBytes;
  void ForgetFulltextRows() {  // a new map, as ForgetFtsSignatures()
    if (!fulltext_rows_.empty()) {
      std::unordered_map<int64_t, std::vector<SqlValue>>().swap(fulltext_rows_);
    }
    fulltext_rows_bytes_ = 0;
  }
  std::unordered_map<const ontology::Property*, size_t> fulltext_column_;  // stable
  // The class-ID signature (as InsertFulltextRows reads it from the type table) of resources
  // whose every type row FlushFresh() wrote in this transaction and which wait for their
  // full-text row: no type-table read for them at Finish(). Dropped when their types change.
  std::unordered_map<int64_t, const std::string*> fts_signature_of_;
  std::unordered_set<std::string> fts_signatures_;  // interned, stable addresses
  void ForgetFtsSignature(int64_t subject) {
    if (!fts_signature_of_.empty()) fts_signature_of_.erase(subject);
  }
  // A new map, not clear(): clear() zeroes every bucket of the map's largest size, and after a
  // batch save that was ~1 MB per later one-contact transaction.
  void ForgetFtsSignatures() {
    if (!fts_signature_of_.empty()) std::unordered_map<int64_t, const std::string*>().swap(fts_signature_of_);
  }

  // IRI look-ups by string_view: no std::string built per triple.
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  IriIdMap<> ids_;  // kept across transactions, bounded (triple_writer_ids.h)
  struct TypedKeyHash {
    size_t operator()(const std::pair<int64_t, const ontology::Class*>& key) const {
      return MixBits(static_cast<uint64_t>(key.first) * 0x9e3779b97f4a7c15ULL ^
                     reinterpret_cast<uintptr_t>(key.second));
    }
  };
  // Flat sets (flat_set.h): a bulk import puts every new resource in them, several times.
  // (subject, class) pairs known to have a class-table row (not those of resources in the
  // fresh buffer: HasClassRow asks the buffer first). Kept across transactions, bounded.
  FlatSet<std::pair<int64_t, const ontology::Class*>, TypedKeyHash> typed_;
  // Per transaction, by resource (triple_writer_ids.h):
  enum : ResourceMarks::Mark {
    // Created in this transaction: no full-text row to delete yet.
    kCreated = 1,
    // Created, and its buffered rows written by FlushFresh() in this transaction: the only
    // created ones that can have class rows (typed_ does not list buffered resources).
    kFlushed = 2,
    kFulltextTouched = 4,  // its full-text row is rewritten at Finish() (fulltext_order_)
    // Still in the fresh buffer, with a full-text value that went elsewhere: its row is read
    // back at Finish(), not kept (KeepFulltextRows).
    kFulltextRead = 8,
  };
  ResourceMarks marks_;
  // Old full-text values of touched resources with a row in the index, by ID: their FTS5
  // 'delete' is written at Finish(), in ID order with the new rows (WriteFulltextRows).
  std::map<int64_t, std::vector<SqlValue>> fulltext_deletes_;
  std::vector<int64_t> fulltext_order_;
  std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>> ontology_ids_;  // stable
  std::unordered_map<int64_t, const ontology::Class*> classes_by_id_;
  std::unordered_map<const ontology::Class*, std::string> type_rows_sql_;
  struct PendingValue {
    const ontology::Property* property;
    SqlValue value;
    Object object;
  };
  struct PendingRow {
    int64_t graph = 0;
    int64_t subject = 0;
    const std::string* table = nullptr;  // in property_sql_
    bool replace = false;
    std::vector<PendingValue> values;
  };
  std::vector<PendingRow> pending_;  // one per table, all for one subject
  std::unordered_map<std::string, std::string> grouped_update_sql_;  // column list -> SQL
  std::unordered_map<const ontology::Property*, std::string> multi_insert_sql_;  // stable
  struct FreshValue {
    const ontology::Property* property;
    SqlValue value;
    int64_t graph;
  };
  struct FreshResource {
    std::vector<const ontology::Class*> classes;  // rows to insert, this buffer's only
    std::vector<std::pair<int64_t, int64_t>> type_rows;  // (class ID, graph)
    // A handful per resource: a vector beats a hash map (one allocation, no per-node malloc).
    std::vector<FreshValue> values;
    const FreshValue* Find(const ontology::Property* property) const;
  };
  struct FreshEntry {  // a resource of one FlushFresh, with its buffer
    int64_t subject;
    const FreshResource* fresh;
  };
  // A class and its superclasses with their resource IDs, the class first (AddTypeFresh).
  using ClassChain = std::vector<std::pair<const ontology::Class*, int64_t>>;
  Result<const ClassChain*> ChainOf(const ontology::Class& cls);
  std::unordered_map<const ontology::Class*, ClassChain> chains_;
  std::unordered_map<const ontology::Property*, const ontology::Class*> domains_;
  std::unordered_map<int64_t, FreshResource> fresh_;
  std::vector<int64_t> fresh_order_;
  struct FreshMultiValue {
    int64_t subject;
    SqlValue value;
    int64_t graph;
  };
  // Per property, in the order the properties first came (a few dozen at most: a linear search).
  std::vector<std::pair<const ontology::Property*, std::vector<FreshMultiValue>>> fresh_multi_;
  bool fresh_disabled_ = false;  // after a savepoint rollback, until the transaction ends
  // Multi-row INSERTs of the bulk path, by a short key (their SQL is long to hash per use),
  // the most recently used first. Bounded (least recently used finalized): a key is a class,
  // a column set and a row count, so a writer fed varied resources for days compiled an
  // unbounded number of them, each up to a few hundred KiB of SQLite heap (issue 7).
  struct BulkEntry {
    std::string key;
    Statement statement;
    size_t bytes;  // SQLITE_STMTSTATUS_MEMUSED when prepared
  };
  using BulkStatements = std::list<BulkEntry>;
  BulkStatements bulk_statements_;
  size_t bulk_statement_bytes_ = 0;  // the sum of their bytes
  size_t max_bulk_statements_ = kMaxBulkStatements;
  size_t max_bulk_statement_bytes_ = kMaxBulkStatementBytes;
  std::unordered_map<std::string_view, BulkStatements::iterator> bulk_index_;  // keys: in the list
  Result<Statement*> BulkStatement(const std::string& key, const std::function<std::string()>& sql);
};

}  // namespace quarry::engine
