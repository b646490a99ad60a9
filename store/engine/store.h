// Store: one database directory opened embedded — schema creation and migration, SPARQL updates
// and queries. The daemon (issue 4) wraps one Store; `quarry --database DIR` opens one directly.
//
// A Store that holds the directory's lock file is the one writer; without the lock (another
// process writes) it opens read-only and refuses updates with a clear error.
// Thread-safety: one thread at a time (the daemon gives the writer its own Store and readers
// their own read-only connections).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/engine/committed_changes.h"
#include "store/engine/cursor.h"
#include "store/engine/query_executor.h"
#include "store/engine/sqlite/database.h"
#include "store/engine/sqlite/lock_file.h"
#include "store/engine/triple_set.h"
#include "store/ontology/ontology.h"
#include "store/sparql/ast.h"
#include "store/sparql/parser.h"
#include "store/sparql/sql_query.h"

namespace quarry::engine {

class ChangeCapture;
class Transaction;
class QuadWriter;
class QueryCache;
class SqlProfile;
class TripleWriter;
class UpdateExecutor;

struct StoreOptions {
  std::filesystem::path directory;  // holds meta.db and the lock file; created when missing
  // Ontology files; empty = the project's ontology/ (installed beside the binaries). Read only
  // by a connection that holds the lock: a read-only one follows the ontology stored in the
  // database (the writer's), and shares the writer's Ontology object in the same process.
  std::filesystem::path ontology_dir;
  bool read_only = false;  // never write, even when the lock is free
  // Open mode (SCHEMA.md "Open mode", `--ontology none`): a new database follows only the
  // built-in base ontology and keeps triples of any other predicate in the quad table. An
  // existing open-mode database opens in open mode whatever this says.
  bool open_mode = false;
};

// The ontology files used when none are named.
std::filesystem::path DefaultOntologyDir();

class Store {
 public:
  static Result<std::unique_ptr<Store>> Open(const StoreOptions& options);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const ontology::Ontology& ontology() const { return *ontology_; }
  bool writable() const { return lock_.has_value(); }
  // Whether unknown predicates are stored (quad table) rather than refused.
  bool open_mode() const { return quads_ != nullptr; }
  const std::filesystem::path& database_file() const { return database_file_; }
  // What the last Open() migrated, one line per change (empty when nothing changed).
  const std::vector<std::string>& migration_summary() const { return migration_summary_; }

  // Runs one SPARQL Update request (several operations separated by ';') in one transaction.
  Result<void> Update(std::string_view sparql);
  // Runs many requests in one transaction; the first failure rolls back all of them and names
  // the request ("update 3: ...").
  Result<void> UpdateBatch(std::span<const std::string> requests);
  // The next request of a streamed batch: its text (valid until the next call), nullopt after
  // the last, or an error (which rolls the batch back).
  using NextRequest = std::function<Result<std::optional<std::string_view>>()>;
  // UpdateBatch() over requests produced one at a time (issue 7, Resources.UpdateStream): each
  // runs as it comes, so the batch is never held whole; one transaction, all or nothing, a
  // failure named "update N" (N counts from 1, also when `next` failed producing request N).
  Result<void> UpdateStream(const NextRequest& next);
  // Compiles and runs a SPARQL query; the cursor borrows this Store.
  Result<Cursor> Query(std::string_view sparql, const QueryParameters& parameters = {});
  // Runs a CONSTRUCT or DESCRIBE query: its triples (construct_executor.h). Other forms are
  // refused, as Query() refuses these.
  Result<TripleSet> QueryGraph(std::string_view sparql, const QueryParameters& parameters = {});
  // Parses a query with the store's prefixes (e.g. to tell a graph query from a SELECT).
  Result<sparql::Query> Parse(std::string_view sparql);
  // Compiles once (parse + translate), for queries run many times with different `~name`s.
  Result<sparql::SqlQuery> Compile(std::string_view sparql);
  // A compiled query ready to run many times (Connection::Prepare on the direct backend): its
  // cursors share its columns, and its binding is planned once (query_executor.h BindPlan).
  // `slot`: where Run() last found the SQLite statement in the connection's StatementCache,
  // so a repeated run does not hash the SQL text again; a cache hint only (mutable: Run() takes
  // the query const), used on the store's thread like the rest of Prepared.
  struct Prepared {
    std::shared_ptr<const sparql::SqlQuery> compiled;
    BindPlan binds;
    mutable StatementCache::Slot slot{};
  };
  Result<Prepared> Prepare(std::string_view sparql);
  // The same for a query already compiled (Compile, or sparql::TranslateQuery).
  static Prepared Prepare(sparql::SqlQuery compiled);
  Result<Cursor> Run(const Prepared& prepared, const QueryParameters& parameters);
  // The compiled form of Query() texts (query_cache.h): hits, misses, size.
  const QueryCache& query_cache() const { return *query_cache_; }
  // The SQL a query compiles to, and SQLite's plan for it.
  Result<std::string> Explain(std::string_view sparql);

  Database& database() { return db_; }

  // One step of the full-text index's segment merging, about `pages` leaf pages, in its own
  // transaction (schema/fts.h: FTS5 merges only when asked, so a writer calls this when idle).
  // True when it merged something, false when nothing is left to merge (or there is no
  // full-text index, or the store is read-only).
  Result<bool> MergeFullText(int pages);

  // Change capture for GraphUpdated/Writeback (issue 4, change_capture.h): after each
  // committed Update/UpdateBatch that changed something, `sink` gets its CommittedChanges on
  // this thread. An empty sink turns capture off (the default: bulk imports pay nothing).
  // Errors: the store is read-only.
  Result<void> SetChangeSink(ChangeSink sink);

 private:
  Store(Database db, std::optional<LockFile> lock, std::filesystem::path database_file);
  Result<void> LoadOrCreateSchema(const StoreOptions& options);
  Result<void> CommitAndReport(Transaction& transaction);
  Result<void> RunUpdates(const NextRequest& next, bool name_requests);

  Database db_;
  std::optional<LockFile> lock_;
  std::filesystem::path database_file_;
  std::shared_ptr<const ontology::Ontology> ontology_;
  sparql::ParseOptions parse_options_;  // the ontology's prefixes and Tracker's usual ones
  std::vector<std::string> migration_summary_;
  std::unique_ptr<TripleWriter> writer_;
  std::unique_ptr<UpdateExecutor> executor_;
  std::unique_ptr<QuadWriter> quads_;  // open mode only
  std::unique_ptr<QueryCache> query_cache_;
  std::unique_ptr<ChangeCapture> capture_;  // only while a change sink is set
  ChangeSink change_sink_;
  std::unique_ptr<SqlProfile> sql_profile_;  // QUARRY_SQL_PROFILE (sql_profile.h); before db_ closes
};

}  // namespace quarry::engine
