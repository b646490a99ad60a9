// The backends behind the public Connection, Cursor and Statement: one abstract Impl each,
// implemented by the direct (in-process SQLite) path and by the D-Bus path (FD stream or plain
// SparqlQuery). Private to store/client.
// Thread-safety: as the public classes: one thread at a time per Connection.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "quarry/connection.h"
#include "quarry/cursor.h"
#include "store/engine/cursor.h"
#include "store/engine/triple_set.h"

namespace quarry {

class Cursor::Impl {
 public:
  virtual ~Impl() = default;
  virtual Result<bool> Next() = 0;
  virtual int ColumnCount() const = 0;
  virtual const std::string& VariableName(int column) const = 0;
  virtual ValueKind Kind(int column) const = 0;
  virtual std::string_view GetString(int column) = 0;
  virtual std::string_view GetLanguage(int column) = 0;
  virtual int64_t GetInteger(int column) const = 0;
  virtual double GetDouble(int column) const = 0;
  virtual bool GetBoolean(int column) const = 0;
};

class Statement::Impl {
 public:
  virtual ~Impl() = default;
  virtual Result<Cursor> Execute() = 0;
  engine::QueryParameters parameters;
};

// A graph query's answer, with the prefixes Turtle output may use.
struct GraphAnswer {
  engine::TripleSet triples;
  std::map<std::string, std::string> prefixes;
};

class Connection::Impl {
 public:
  virtual ~Impl() = default;
  virtual Result<Cursor> Query(std::string_view sparql) = 0;
  // CONSTRUCT / DESCRIBE (graph_query.cpp).
  virtual Result<GraphAnswer> QueryGraph(std::string_view /*sparql*/) {
    return Error(Errc::kUnsupported,
                 "CONSTRUCT and DESCRIBE need direct access to the database for now (open it with "
                 "Connection::Open or Connection::Direct)");
  }
  virtual Result<Statement> Prepare(std::string_view sparql) = 0;
  virtual Result<void> UpdateBatch(std::span<const std::string> requests) = 0;
  // Connection::UpdateStream. This default collects the requests and runs UpdateCollected: the
  // bus backend's way with a store without Resources.UpdateStream (the direct backend streams).
  virtual Result<void> UpdateStream(const Connection::UpdateProducer& next);
  virtual Result<std::string> Explain(std::string_view sparql) = 0;
  virtual bool writable() const = 0;
  virtual void SetQueryTransport(QueryTransport) {}
  virtual void SetUpdateSource(std::string) {}
  virtual Result<StoreStatus> Status() { return NeedsStore("status"); }
  virtual Result<void> Backup(const std::filesystem::path&) { return NeedsStore("backup"); }
  virtual Result<void> Restore(const std::filesystem::path&) { return NeedsStore("restore"); }

 protected:
  // UpdateBatch of requests collected from a producer; its error names the request even when
  // there is only one (UpdateBatch leaves a single request unnamed).
  Result<void> UpdateCollected(std::span<const std::string> requests);
  static Error NeedsStore(std::string_view what) {
    return Error(Errc::kUnsupported,
                 std::string(what) + " needs quarry-store: connect with Connection::Bus()");
  }
};

// The embedded/direct backend over an engine::Store (direct_backend.cpp, quarry_client_direct).
Result<std::unique_ptr<Connection::Impl>> OpenDirectBackend(const Connection::Options& options);
// The D-Bus backend; fails when the bus or quarry-store cannot be reached.
Result<std::unique_ptr<Connection::Impl>> OpenBusBackend(const BusOptions& options);

}  // namespace quarry
