#include "store/engine/store.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <system_error>

#include "store/engine/change_capture.h"
#include "store/engine/construct_executor.h"
#include "store/engine/migrate.h"
#include "store/engine/quad_writer.h"
#include "store/engine/query_cache.h"
#include "store/engine/query_executor.h"
#include "store/engine/sql_functions.h"
#include "store/engine/sql_profile.h"
#include "store/engine/sqlite/transaction.h"
#include "store/engine/triple_writer.h"
#include "store/engine/update_executor.h"
#include "store/schema/fts.h"
#include "store/schema/names.h"
#include "store/sparql/parser.h"
#include "store/sparql/translate/translator.h"

namespace quarry::engine {
namespace {

constexpr std::string_view kDatabaseFile = "meta.db";

sparql::ParseOptions ParseOptionsFor(const ontology::Ontology& ontology) {
  sparql::ParseOptions options;
  options.prefixes = ontology.prefixes();
  // Prefixes every Tracker query may use, whatever the ontology declares.
  options.prefixes.emplace("rdf", std::string(ontology::iri::kRdf));
  options.prefixes.emplace("rdfs", std::string(ontology::iri::kRdfs));
  options.prefixes.emplace("xsd", std::string(ontology::iri::kXsd));
  options.prefixes.emplace("nrl", std::string(ontology::iri::kNrl));
  options.prefixes.emplace("tracker", std::string(ontology::iri::kTracker));
  options.prefixes.emplace("fts", "http://tracker.api.gnome.org/ontology/v3/fts#");
  return options;
}

// Open mode is asked for (a new database only) or found (the quad table exists).
Result<bool> OpenModeOf(Database& db, bool requested) {
  QUARRY_ASSIGN_OR_RETURN(const bool has_quads, HasQuadTable(db));
  if (has_quads || !requested) return has_quads;
  QUARRY_ASSIGN_OR_RETURN(Statement existing,
                          db.Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1"));
  QUARRY_TRY(existing.Bind(1, schema::kMetaTable));
  QUARRY_ASSIGN_OR_RETURN(const bool has_schema, existing.Step());
  if (has_schema) {
    return Error(Errc::kIncompatible,
                 "open mode (no ontology) needs a new database: this one was created with an "
                 "ontology");
  }
  return true;
}

}  // namespace

std::filesystem::path DefaultOntologyDir() {
  if (const char* overridden = std::getenv("QUARRY_ONTOLOGY_DIR"); overridden && *overridden) {
    return overridden;
  }
  std::error_code error;
  const std::filesystem::path installed = QUARRY_INSTALL_ONTOLOGY_DIR;
  if (std::filesystem::is_directory(installed, error)) return installed;
  return QUARRY_SOURCE_ONTOLOGY_DIR;
}

Store::Store(Database db, std::optional<LockFile> lock, std::filesystem::path database_file)
    : db_(std::move(db)),
      lock_(std::move(lock)),
      database_file_(std::move(database_file)),
      query_cache_(std::make_unique<QueryCache>()) {}

Store::~Store() = default;

Result<std::unique_ptr<Store>> Store::Open(const StoreOptions& options) {
  std::error_code error;
  if (!options.read_only) std::filesystem::create_directories(options.directory, error);
  if (error) {
    return Error(Errc::kIo, fmt::format("cannot create database folder {}: {}",
                                        options.directory.string(), error.message()));
  }
  std::optional<LockFile> lock;
  if (!options.read_only) {
    QUARRY_ASSIGN_OR_RETURN(lock, LockFile::TryAcquire(options.directory));
  }
  const std::filesystem::path file = options.directory / kDatabaseFile;
  const OpenMode mode = lock ? OpenMode::kReadWrite : OpenMode::kReadOnly;
  auto db = Database::Open(file, mode);
  if (!db) return std::move(db).error().WithContext(file.string());
  std::unique_ptr<Store> store(new Store(std::move(*db), std::move(lock), file));
  QUARRY_TRY(RegisterSqlFunctions(store->db_.handle()));
  if (store->writable()) store->sql_profile_ = SqlProfile::FromEnvironment(store->db_.handle());
  auto loaded = store->LoadOrCreateSchema(options);
  if (!loaded) return std::move(loaded).error().WithContext(options.directory.string());
  return store;
}

Result<void> Store::LoadOrCreateSchema(const StoreOptions& options) {
  // Connections of one process to the same ontology files share one Ontology (loader.h). A
  // read-only connection follows the ontology stored in the database (EnsureSchema), which is
  // the one the writer created or migrated to: the folder is not read (~0.46 M instructions a
  // reader with the project's ontology), and the loader cache hands over the writer's Ontology.
  std::vector<ontology::OntologyFile> files;
  if (writable()) {
    const std::filesystem::path ontology_dir =
        options.ontology_dir.empty() ? DefaultOntologyDir() : options.ontology_dir;
    QUARRY_ASSIGN_OR_RETURN(files, ontology::ReadOntologyDir(ontology_dir));
  }
  QUARRY_ASSIGN_OR_RETURN(const bool open_mode, OpenModeOf(db_, options.open_mode));
  if (open_mode) std::erase_if(files, [](const auto& file) { return !IsBaseOntologyFile(file.name); });
  QUARRY_ASSIGN_OR_RETURN(SchemaState state, EnsureSchema(db_, files, writable()));
  ontology_ = std::move(state.ontology);
  migration_summary_ = std::move(state.changes);
  parse_options_ = ParseOptionsFor(*ontology_);  // built once: a map of ~60 prefixes
  writer_ = std::make_unique<TripleWriter>(db_, *ontology_);
  executor_ = std::make_unique<UpdateExecutor>(db_, *ontology_, *writer_);
  if (open_mode) {
    if (writable()) QUARRY_TRY(CreateQuadTables(db_));
    quads_ = std::make_unique<QuadWriter>(db_, *writer_, *ontology_);
    executor_->set_quad_writer(quads_.get());
  }
  return Ok();
}

Result<void> Store::Update(std::string_view sparql) {
  const std::string request(sparql);
  return UpdateBatch(std::span<const std::string>(&request, 1));
}

Result<void> Store::UpdateBatch(std::span<const std::string> requests) {
  size_t next_index = 0;
  return RunUpdates(
      [&]() -> Result<std::optional<std::string_view>> {
        if (next_index == requests.size()) return std::optional<std::string_view>();
        return std::optional<std::string_view>(requests[next_index++]);
      },
      requests.size() != 1);
}

Result<void> Store::UpdateStream(const NextRequest& next) { return RunUpdates(next, true); }

Result<void> Store::RunUpdates(const NextRequest& next, bool name_requests) {
  if (!writable()) {
    return Error(Errc::kIo, fmt::format("{} is open read-only: another process holds its lock "
                                        "(send updates through it)",
                                        database_file_.string()));
  }
  // Parsed and run in one pass (UpdateExecutor::ExecuteText): a bulk INSERT DATA never becomes
  // a whole AST. A parse error late in a request rolls back what ran before it.
  const sparql::ParseOptions& options = parse_options_;
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction, Transaction::Begin(db_, TransactionMode::kImmediate));
  if (capture_) capture_->Discard();  // rows of writes made outside UpdateBatch are not ours
  for (size_t i = 0;; ++i) {
    Result<std::optional<std::string_view>> request = next();
    Result<void> done = Ok();
    if (!request) {
      done = std::move(request).error();
    } else if (!request->has_value()) {
      break;
    } else {
      done = executor_->ExecuteText(**request, options);
    }
    if (!done) {
      writer_->Abandon();
      if (capture_) capture_->Discard();
      if (!name_requests) return done;
      return std::move(done).error().WithContext(fmt::format("update {}", i + 1));
    }
  }
  auto finished = writer_->Finish();
  if (finished) finished = CommitAndReport(transaction);
  if (!finished) writer_->Abandon();
  return finished;
}

// COMMIT; with a change sink, the transaction's changes are collected just before (they need
// the types inside it) and handed over only once the commit succeeded.
Result<void> Store::CommitAndReport(Transaction& transaction) {
  if (!capture_) return transaction.Commit();
  auto changes = capture_->Collect();
  if (!changes) return std::move(changes).error();
  QUARRY_TRY(transaction.Commit());
  if (!changes->empty()) change_sink_(std::move(*changes));
  return Ok();
}

Result<bool> Store::MergeFullText(int pages) {
  if (!writable() || schema::FulltextProperties(*ontology_).empty()) return false;
  const int before = sqlite3_total_changes(db_.handle());
  QUARRY_TRY(db_.Exec(schema::FtsMergeStepSql(pages)));
  return sqlite3_total_changes(db_.handle()) - before >= 2;
}

Result<void> Store::SetChangeSink(ChangeSink sink) {
  if (!sink) {
    executor_->set_change_capture(nullptr);
    capture_.reset();
    change_sink_ = nullptr;
    return Ok();
  }
  if (!writable()) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("{} is open read-only: it has no changes to report",
                             database_file_.string()));
  }
  if (!capture_) {
    QUARRY_ASSIGN_OR_RETURN(capture_, ChangeCapture::Attach(db_, *ontology_));
    executor_->set_change_capture(capture_.get());
  }
  change_sink_ = std::move(sink);
  return Ok();
}

Result<sparql::Query> Store::Parse(std::string_view sparql) {
  return sparql::ParseQuery(sparql, parse_options_);
}

Result<sparql::SqlQuery> Store::Compile(std::string_view sparql) {
  QUARRY_ASSIGN_OR_RETURN(sparql::Query query, Parse(sparql));
  if (query.form == sparql::QueryForm::kConstruct || query.form == sparql::QueryForm::kDescribe) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("a {} query returns triples, not solutions: run it as a graph query "
                             "(QueryGraph)",
                             query.form == sparql::QueryForm::kConstruct ? "CONSTRUCT" : "DESCRIBE"));
  }
  return sparql::TranslateQuery(query, *ontology_, open_mode());
}

Result<TripleSet> Store::QueryGraph(std::string_view sparql, const QueryParameters& parameters) {
  QUARRY_ASSIGN_OR_RETURN(sparql::Query query, Parse(sparql));
  const SelectCompiler compile = [this](const sparql::Query& select) {
    return sparql::TranslateQuery(select, *ontology_, open_mode());
  };
  switch (query.form) {
    case sparql::QueryForm::kConstruct:
      return RunConstruct(db_, compile, std::move(query), parameters);
    case sparql::QueryForm::kDescribe:
      return RunDescribe(db_, *ontology_, compile, std::move(query), parameters);
    case sparql::QueryForm::kSelect:
    case sparql::QueryForm::kAsk:
      break;
  }
  return Error(Errc::kInvalidArgument,
               "only CONSTRUCT and DESCRIBE queries return triples; run SELECT and ASK with Query");
}

Result<Store::Prepared> Store::Prepare(std::string_view sparql) {
  QUARRY_ASSIGN_OR_RETURN(sparql::SqlQuery compiled, Compile(sparql));
  return Prepare(std::move(compiled));
}

Store::Prepared Store::Prepare(sparql::SqlQuery compiled) {
  BindPlan binds = PlanBinds(compiled);
  return Prepared{std::make_shared<const sparql::SqlQuery>(std::move(compiled)), std::move(binds)};
}

Result<Cursor> Store::Run(const Prepared& prepared, const QueryParameters& parameters) {
  // A prepared Statement runs here on every execution: borrow from the StatementCache like
  // Query does, or each run pays sqlite3_prepare again (slower than plain text queries).
  const sparql::SqlQuery& compiled = *prepared.compiled;
  QUARRY_ASSIGN_OR_RETURN(Statement statement, db_.cache().Borrow(compiled.sql, prepared.slot));
  QUARRY_TRY(BindQuery(statement, compiled, prepared.binds, parameters));
  return Cursor(std::move(statement), std::shared_ptr<const std::vector<sparql::OutputColumn>>(
                                          prepared.compiled, &compiled.columns));
}

Result<Cursor> Store::Query(std::string_view sparql, const QueryParameters& parameters) {
  // A repeated text reuses its translation (query_cache.h) and its prepared statement (borrowed
  // from the connection's StatementCache, reset when the cursor is dropped).
  std::shared_ptr<const sparql::SqlQuery> compiled = query_cache_->Find(sparql);
  if (!compiled) {
    QUARRY_ASSIGN_OR_RETURN(sparql::SqlQuery fresh, Compile(sparql));
    compiled = query_cache_->Insert(sparql, std::move(fresh));
  }
  QUARRY_ASSIGN_OR_RETURN(Statement statement, db_.cache().Borrow(compiled->sql));
  QUARRY_TRY(BindQuery(statement, *compiled, parameters));
  return Cursor(std::move(statement), std::shared_ptr<const std::vector<sparql::OutputColumn>>(
                                          compiled, &compiled->columns));
}

Result<std::string> Store::Explain(std::string_view sparql) {
  QUARRY_ASSIGN_OR_RETURN(const sparql::SqlQuery compiled, Compile(sparql));
  std::string text = "SQL:\n  " + compiled.sql + "\nPlan:\n";
  sparql::SqlQuery plan_query = compiled;
  plan_query.parameters.clear();  // unbound parameters are NULL: SQLite still plans the query
  plan_query.sql = "EXPLAIN QUERY PLAN " + compiled.sql;
  QUARRY_ASSIGN_OR_RETURN(Statement plan, PrepareQuery(db_, plan_query, {}));
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, plan.Step());
    if (!has_row) break;
    text += fmt::format("  {}\n", plan.ColumnText(3));
  }
  return text;
}

}  // namespace quarry::engine
