// quarry::Connection: the public entry point to a Quarry store, by one of three paths with one
// Cursor API (DESIGN.md "Many readers"):
//   Open()   embedded: opens a database directory in this process; it writes only while it holds
//            the directory's lock (no store process runs there), otherwise it is read-only and
//            updates fail with a clear error. Tests, benchmarks and `quarry --database`.
//   Direct() read-only WAL access to the database quarry-store writes; SPARQL compiles in this
//            process (the fastest read path). Updates are refused.
//   Bus()    quarry-store on D-Bus: small results come typed inside the reply (Steroids
//            QueryRows, BusOptions::inline_rows_max_bytes); others stream through a pipe
//            (Steroids FD stream, rows decoded while the store writes them; the reply is
//            dispatched on the caller's thread while the cursor waits for rows) or, with
//            QueryTransport::kPlainDBus, come back as one D-Bus reply; updates run in the store. A cursor still streaming is read to its
//            end into memory before the Connection's next call.
// Thread-safety: one thread at a time per Connection.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/cursor.h"
#include "quarry/result.h"
#include "quarry/triples.h"

namespace quarry {

class Statement;
class Batch;

inline constexpr std::string_view kStoreBusName = "org.quarry.Store1";

// How a Bus() connection fetches query rows.
enum class QueryTransport {
  kAuto,       // the default: typed rows inside the reply (Steroids.QueryRows) up to
               // BusOptions::inline_rows_max_bytes, else the FD stream (typed, no size limit,
               // no thread per query: bench/ipc); plain SparqlQuery for larger results when the
               // bus connection cannot pass descriptors (e.g. a TCP bus)
  kFdStream,   // forced (`--fd`): Steroids Query(s, h, a{sv}), rows through a pipe, typed,
               // decoded while the store writes them
  kPlainDBus,  // forced (`--no-fd`): Resources SparqlQuery(s) -> aas: text only, no types or
               // variable names; a result too large for one reply is an error
};

// quarry-store's Status interface: "Idle" or "Busy" (restore, journal replay) and progress 0..1.
struct StoreStatus {
  std::string state;
  double progress = 0;
};

// Where Connection::Bus() finds quarry-store.
struct BusOptions {
  std::string bus_name{kStoreBusName};
  std::string address;  // empty: the session bus (DBUS_SESSION_BUS_ADDRESS)
  // QueryTransport::kAuto: results up to this many encoded bytes come inside the reply
  // (Steroids.QueryRows, no pipe); a query text whose rows were larger streams from then on.
  // 0: always the FD stream.
  size_t inline_rows_max_bytes = 256 * 1024;
};

class Connection {
 public:
  struct Options {
    std::filesystem::path database;  // the folder holding meta.db
    std::filesystem::path ontology;  // ontology files; empty = the installed ontology
    bool read_only = false;
  };
  class Impl;

  static Result<std::unique_ptr<Connection>> Open(const Options& options);
  // Read-only access to `database` (a folder holding meta.db) while quarry-store writes it.
  static Result<std::unique_ptr<Connection>> Direct(const std::filesystem::path& database,
                                                    const std::filesystem::path& ontology = {});
  // quarry-store on the bus; fails with "quarry-store is not running on ..." when nobody owns
  // the name. A store that restarts later is found again by the next call.
  static Result<std::unique_ptr<Connection>> Bus(const BusOptions& options = {});
  ~Connection();

  Result<Cursor> Query(std::string_view sparql);
  // CONSTRUCT and DESCRIBE: the triples, in result order (a CONSTRUCT keeps its ORDER BY), each
  // once. Through Bus() they come through the FD stream whatever the transport; literals of a
  // datatype other than xsd:string/integer/double/dateTime/boolean arrive as plain strings, and
  // QueryRdf's Turtle uses the query's own PREFIX declarations.
  Result<std::vector<Triple>> QueryTriples(std::string_view sparql);
  // The same triples as Turtle (prefixed names for the ontology's prefixes) or N-Triples text.
  Result<std::string> QueryRdf(std::string_view sparql, RdfSyntax syntax = RdfSyntax::kTurtle);
  // Compiles once; run it many times with different `~name` values.
  Result<Statement> Prepare(std::string_view sparql);
  // One SPARQL Update request (one transaction).
  Result<void> Update(std::string_view sparql);
  // Many requests in one transaction.
  Batch CreateBatch();
  // The next request of UpdateStream(): sets `request` and returns true, false after the
  // last, or an error (the batch then rolls back and UpdateStream returns it).
  using UpdateProducer = std::function<Result<bool>(std::string& request)>;
  // A batch whose requests are produced one at a time and run in one transaction, all or
  // nothing, without the batch ever held whole (issue 7): through Bus() they stream through a
  // socket to quarry-store as `next` produces them (Resources.UpdateStream), through Open()
  // each runs as it is produced. A failure is named "update N" (counted from 1). Use it where
  // a batch is large (a contacts import); a small one costs no less than Batch.
  Result<void> UpdateStream(const UpdateProducer& next);
  // SQL and SQLite's plan for a query (`quarry sparql --explain`).
  Result<std::string> Explain(std::string_view sparql);
  bool writable() const;
  // Bus connections only (a no-op elsewhere): how rows travel, and the "source" option sent
  // with updates ("miner" marks updates that must not trigger writeback).
  void SetQueryTransport(QueryTransport transport);
  void SetUpdateSource(std::string source);
  // quarry-store's Status and Backup interfaces (Bus connections only; others fail with
  // Errc::kUnsupported). Relative paths are made absolute here, as the store has another cwd.
  Result<StoreStatus> Status();
  Result<void> Backup(const std::filesystem::path& file);
  Result<void> Restore(const std::filesystem::path& file);

 private:
  explicit Connection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend class Statement;
  friend class Batch;
};

// A compiled query with `~name` parameters bound per execution:
//   auto statement = connection->Prepare("SELECT ?t { ?s nie:url ~url ; nie:title ?t }");
//   statement->BindIri("url", "file:///a.mp3");  auto cursor = statement->Execute();
class Statement {
 public:
  class Impl;
  explicit Statement(std::unique_ptr<Impl> impl);
  Statement(Statement&&) noexcept;
  Statement& operator=(Statement&&) noexcept;
  ~Statement();

  void BindIri(const std::string& name, std::string iri);
  void BindString(const std::string& name, std::string value, std::string lang = {});
  void BindInteger(const std::string& name, int64_t value);
  void BindDouble(const std::string& name, double value);
  void BindBoolean(const std::string& name, bool value);
  void BindDateTime(const std::string& name, std::string lexical);  // xsd:dateTime lexical form
  void ClearBindings();
  Result<Cursor> Execute();

 private:
  std::unique_ptr<Impl> impl_;
};

// Updates collected and run in one transaction: all or nothing.
class Batch {
 public:
  explicit Batch(Connection& connection) : connection_(connection) {}
  void Add(std::string sparql_update) { updates_.push_back(std::move(sparql_update)); }
  size_t size() const { return updates_.size(); }
  Result<void> Execute();

 private:
  Connection& connection_;
  std::vector<std::string> updates_;
};

}  // namespace quarry
