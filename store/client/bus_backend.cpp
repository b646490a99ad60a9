// The D-Bus backend: queries through the Steroids FD stream (or plain SparqlQuery), updates,
// status and backup through quarry-store's interfaces (DESIGN.md "D-Bus").
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "store/client/backend.h"
#include "store/client/bus_link.h"
#include "store/client/parameter_text.h"
#include "store/client/pipe_reader.h"
#include "store/client/row_stream_cursor.h"
#include "store/client/text_rows_cursor.h"
#include "store/ipc/error_names.h"
#include "store/ipc/graph_stream.h"

namespace quarry {
namespace {

// A query may run long; the store replies only after the last row is written.
constexpr uint64_t kQueryTimeoutUs = 10ull * 60 * 1000 * 1000;

using VariantMap = std::map<std::string, sdbus::Variant>;

class BusConnection;

class BusStatement final : public Statement::Impl {
 public:
  BusStatement(BusConnection& connection, std::string sparql)
      : connection_(connection), sparql_(std::move(sparql)) {}
  Result<Cursor> Execute() override;

 private:
  BusConnection& connection_;
  std::string sparql_;
};

class BusConnection final : public Connection::Impl {
 public:
  explicit BusConnection(BusOptions options) : link_(std::move(options)) {}
  Result<void> Ping() { return link_.Ping(); }

  Result<Cursor> Query(std::string_view sparql) override {
    if (transport_ == QueryTransport::kFdStream) return StreamQuery(sparql);
    bool too_large = false;
    auto plain = PlainQuery(sparql, &too_large);
    // The store refused a reply that would not fit one D-Bus message (ReplyTooLarge): unless
    // plain D-Bus was forced, the FD stream carries any size.
    if (too_large && transport_ == QueryTransport::kAuto) return StreamQuery(sparql);
    return plain;
  }
  Result<GraphAnswer> QueryGraph(std::string_view sparql) override;
  Result<Statement> Prepare(std::string_view sparql) override {
    return Statement(std::make_unique<BusStatement>(*this, std::string(sparql)));
  }
  Result<void> UpdateBatch(std::span<const std::string> requests) override;
  Result<std::string> Explain(std::string_view) override {
    return Error(Errc::kUnsupported, "explain compiles in this process: open the database "
                                     "directly (Connection::Direct, quarry --database)");
  }
  bool writable() const override { return true; }  // the store writes
  void SetQueryTransport(QueryTransport transport) override { transport_ = transport; }
  void SetUpdateSource(std::string source) override { source_ = std::move(source); }
  Result<StoreStatus> Status() override;
  Result<void> Backup(const std::filesystem::path& file) override {
    return CallWithPath(kBackupInterface, "Save", file);
  }
  Result<void> Restore(const std::filesystem::path& file) override {
    return CallWithPath(kBackupInterface, "Restore", file);
  }

 private:
  Result<Cursor> StreamQuery(std::string_view sparql);
  Result<Cursor> PlainQuery(std::string_view sparql, bool* too_large);
  Result<void> CallWithPath(const char* interface, const char* method,
                            const std::filesystem::path& file);

  BusLink link_;
  QueryTransport transport_ = QueryTransport::kFdStream;
  std::string source_;
};

Result<Cursor> BusStatement::Execute() {
  QUARRY_ASSIGN_OR_RETURN(const std::string text, SubstituteParameters(sparql_, parameters));
  return connection_.Query(text);
}

// Query(s query, h fd, a{sv} options) -> as: the store writes every row into the pipe, closes
// it, then replies. Rows are trusted only after a success reply.
Result<Cursor> BusConnection::StreamQuery(std::string_view sparql) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return Error(Errc::kIo, fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  }
  // A 1 MiB pipe (the unprivileged maximum) instead of 64 KiB: 16x fewer wake-ups of the store's
  // writer and of the reader thread on large results (bench/ipc). Best effort: the default
  // size still works.
  (void)::fcntl(ends[0], F_SETPIPE_SZ, 1 << 20);
  UniqueFd write_end(ends[1]);
  PipeReader reader{UniqueFd(ends[0])};
  auto names = link_.Run([&](sdbus::IProxy& proxy) -> Result<std::vector<std::string>> {
    auto call = proxy.createMethodCall(kSteroidsInterface, "Query");
    call << std::string(sparql) << sdbus::UnixFd(write_end.get())
         << VariantMap{{"version", sdbus::Variant(int32_t{1})}};
    write_end.reset();  // the message holds its own copy; the store gets another
    auto reply = proxy.callMethod(call, kQueryTimeoutUs);
    std::vector<std::string> variable_names;
    reply >> variable_names;
    return variable_names;
  });
  auto stream = reader.Finish();
  if (!names) return std::move(names).error();
  if (!stream) return std::move(stream).error();
  return Cursor(std::make_unique<RowStreamCursor>(std::move(*stream), std::move(*names)));
}

// CONSTRUCT / DESCRIBE: the store streams (subject, predicate, object) rows (graph_stream.h),
// whatever the transport, as plain SparqlQuery replies carry no types. Turtle gets the query's
// own PREFIX declarations: this process has no ontology.
Result<GraphAnswer> BusConnection::QueryGraph(std::string_view sparql) {
  if (!ipc::IsGraphQuery(sparql)) {
    return Error(Errc::kInvalidArgument, "QueryTriples and QueryRdf take a CONSTRUCT or DESCRIBE "
                                         "query");
  }
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, StreamQuery(sparql));
  if (cursor.ColumnCount() != static_cast<int>(ipc::kTripleColumns.size())) {
    return Error(Errc::kInternal, "quarry-store sent a graph result without three columns");
  }
  GraphAnswer answer{{}, ipc::DeclaredPrefixes(sparql)};
  const auto term = [&cursor](int column) {
    return ipc::TermOfStreamValue(static_cast<engine::ValueKind>(cursor.Kind(column)),
                                  cursor.GetString(column), cursor.GetLanguage(column));
  };
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    std::optional<schema::RdfTerm> subject = term(0);
    std::optional<schema::RdfTerm> object = term(2);
    if (!subject || !object) return Error(Errc::kInternal, "a graph row with an unbound term");
    answer.triples.Add({std::move(*subject), std::string(cursor.GetString(1)), std::move(*object)});
  }
  return answer;
}

Result<Cursor> BusConnection::PlainQuery(std::string_view sparql, bool* too_large) {
  auto rows = link_.Run([&](sdbus::IProxy& proxy) -> Result<std::vector<std::vector<std::string>>> {
    std::vector<std::vector<std::string>> result;
    try {
      proxy.callMethod("SparqlQuery")
          .onInterface(kResourcesInterface)
          .withTimeout(kQueryTimeoutUs)
          .withArguments(std::string(sparql))
          .storeResultsTo(result);
    } catch (const sdbus::Error& error) {
      *too_large = error.getName() == ipc::kReplyTooLargeError;
      throw;
    }
    return result;
  });
  if (!rows) return std::move(rows).error();
  return Cursor(std::make_unique<TextRowsCursor>(std::move(*rows)));
}

// One request without a source: SparqlUpdate(s). Otherwise BatchSparqlUpdate(as, a{sv}), one
// transaction, with the "source" option when set.
Result<void> BusConnection::UpdateBatch(std::span<const std::string> requests) {
  return link_.Run([&](sdbus::IProxy& proxy) -> Result<void> {
    if (requests.size() == 1 && source_.empty()) {
      proxy.callMethod("SparqlUpdate")
          .onInterface(kResourcesInterface)
          .withTimeout(kQueryTimeoutUs)
          .withArguments(requests.front());
      return Ok();
    }
    VariantMap options;
    if (!source_.empty()) options.emplace("source", sdbus::Variant(source_));
    proxy.callMethod("BatchSparqlUpdate")
        .onInterface(kResourcesInterface)
        .withTimeout(kQueryTimeoutUs)
        .withArguments(std::vector<std::string>(requests.begin(), requests.end()), options);
    return Ok();
  });
}

Result<StoreStatus> BusConnection::Status() {
  return link_.Run([](sdbus::IProxy& proxy) -> Result<StoreStatus> {
    StoreStatus status;
    proxy.callMethod("GetStatus").onInterface(kStatusInterface).storeResultsTo(status.state);
    proxy.callMethod("GetProgress").onInterface(kStatusInterface).storeResultsTo(status.progress);
    return status;
  });
}

Result<void> BusConnection::CallWithPath(const char* interface, const char* method,
                                         const std::filesystem::path& file) {
  return link_.Run([&](sdbus::IProxy& proxy) -> Result<void> {
    proxy.callMethod(method).onInterface(interface).withTimeout(kQueryTimeoutUs).withArguments(
        file.string());
    return Ok();
  });
}

}  // namespace

Result<std::unique_ptr<Connection::Impl>> OpenBusBackend(const BusOptions& options) {
  auto connection = std::make_unique<BusConnection>(options);
  QUARRY_TRY(connection->Ping());
  return std::unique_ptr<Connection::Impl>(std::move(connection));
}

}  // namespace quarry
