// The D-Bus backend: queries through the Steroids FD stream (or plain SparqlQuery), updates,
// status and backup through quarry-store's interfaces (DESIGN.md "D-Bus"). Queries take the
// store's peer socket when it has one (bus_link.h RunPeer, issue 7), and so do updates
// (docs/peer-socket.md); status, backup and signals stay on the bus.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <unordered_set>

#include "store/client/backend.h"
#include "store/client/bus_link.h"
#include "store/client/pipe_reader.h"
#include "store/client/row_stream_cursor.h"
#include "store/client/text_rows_cursor.h"
#include "store/ipc/error_names.h"
#include "store/ipc/graph_stream.h"
#include "store/ipc/poll_timeout.h"
#include "store/ipc/query_parameters.h"
#include "store/ipc/raw_message.h"
#include "store/ipc/update_stream.h"

namespace quarry {
namespace {

// A query may run long; the store replies only after the last row is written.
constexpr uint64_t kQueryTimeoutUs = 10ull * 60 * 1000 * 1000;

using VariantMap = std::map<std::string, sdbus::Variant>;
// How long the read-back for a store without UpdateStream waits for the producer's next bytes.
constexpr std::chrono::minutes kReadBackStall{10};

constexpr std::string_view kNotSupportedError = "org.freedesktop.DBus.Error.NotSupported";
constexpr std::string_view kUnknownMethodError = "org.freedesktop.DBus.Error.UnknownMethod";
// Query texts whose rows were too large for QueryRows, remembered up to this many.
constexpr size_t kMaxLargeTexts = 4096;

// The reply of an asynchronous Steroids call, brought in by dispatching the link's connection
// from inside the PipeReader's waits (pipe_reader.h): no thread of its own, no hand-off.
class BusReplyPump final : public ReplyPump {
 public:
  BusReplyPump(BusLink& link, sdbus::IConnection& connection, PipeReader& reader)
      : link_(link), connection_(connection), reader_(reader) {}
  ~BusReplyPump() override { pending_.cancel(); }

  // Sends `call`; its reply (the variable names) goes to the reader.
  void Send(sdbus::IProxy& proxy, const sdbus::MethodCall& call, uint64_t timeout_us) {
    pending_ = proxy.callMethod(
        call,
        [this](sdbus::MethodReply& reply, const sdbus::Error* error) {
          if (error != nullptr) return reader_.Deliver(link_.TranslateLater(*error));
          try {
            PipeReader::Names names;
            reply >> names;
            reader_.Deliver(std::move(names));
          } catch (const sdbus::Error& failure) {
            reader_.Deliver(link_.TranslateLater(failure));
          }
        },
        timeout_us);
  }
  Watch Prepare() override {
    Process();
    if (reader_.replied()) return {};
    try {
      const sdbus::IConnection::PollData poll = connection_.getEventLoopPollData();
      return {poll.fd, poll.events, ipc::PollTimeoutMs(poll.timeout_usec)};
    } catch (const sdbus::Error& error) {
      reader_.Deliver(link_.TranslateLater(error));
      return {};
    }
  }
  void Dispatch() override { Process(); }

 private:
  void Process() {
    try {
      while (!reader_.replied() && connection_.processPendingRequest()) {
      }
    } catch (const sdbus::Error& error) {
      reader_.Deliver(link_.TranslateLater(error));
    }
  }

  BusLink& link_;
  sdbus::IConnection& connection_;
  PipeReader& reader_;
  sdbus::PendingAsyncCall pending_;
};

class BusConnection;

// The pipe of an FD-stream query. Both ends stay with the client between queries (PipeReader's
// recycle): a small query then costs no pipe2(), F_SETPIPE_SZ, O_NONBLOCK or close() (issue 7).
struct StreamPipe {
  UniqueFd read;
  UniqueFd write;
};

Result<StreamPipe> NewStreamPipe() {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) {
    return Error(Errc::kIo, fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  }
  StreamPipe pipe{UniqueFd(ends[0]), UniqueFd(ends[1])};
  // A 1 MiB pipe (the unprivileged maximum) instead of 64 KiB: 16x fewer wake-ups of the store's
  // writer and of the reader on large results (bench/ipc). Best effort: the default size still
  // works.
  (void)::fcntl(pipe.write.get(), F_SETPIPE_SZ, 1 << 20);
  return pipe;
}

// One integer option of a query call ("version": i, "max_bytes": t).
struct IntegerOption {
  const char* key;
  char type;  // 'i' or 't'
  uint64_t value;
};

// Appends the a{sv} options of a query call straight into `call`: `integer` when it has a key,
// "parameters" when there are any (query_parameters.h: no sdbus::Variant, ~30 k instructions per
// fetch_one less, issue 7). A parameter sd-bus refuses is kInvalidArgument naming it.
Result<void> AppendQueryOptions(sdbus::MethodCall& call, const IntegerOption& integer,
                                const engine::QueryParameters& parameters) {
  sd_bus_message* message = ipc::RawMessage::Of(call);
  int r = sd_bus_message_open_container(message, 'a', "{sv}");
  if (r >= 0 && integer.key != nullptr) {
    r = integer.type == 'i'
            ? sd_bus_message_append(message, "{sv}", integer.key, "i",
                                    static_cast<int32_t>(integer.value))
            : sd_bus_message_append(message, "{sv}", integer.key, "t", integer.value);
  }
  if (r >= 0 && !parameters.empty()) {
    r = sd_bus_message_open_container(message, 'e', "sv");
    if (r >= 0) r = sd_bus_message_append_basic(message, 's', ipc::kParametersOption);
    if (r >= 0) r = sd_bus_message_open_container(message, 'v', "a{s(ssss)}");
    if (r >= 0) QUARRY_TRY(ipc::AppendParameters(message, parameters));
    if (r >= 0) r = sd_bus_message_close_container(message);  // the variant
    if (r >= 0) r = sd_bus_message_close_container(message);  // the entry
  }
  if (r >= 0) r = sd_bus_message_close_container(message);
  if (r < 0) {
    return Error(Errc::kInternal,
                 fmt::format("cannot build the query options: {}", std::strerror(-r)));
  }
  return Ok();
}

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
  explicit BusConnection(BusOptions options)
      : inline_max_(options.inline_rows_max_bytes), link_(std::move(options)) {}
  ~BusConnection() override { FinishInFlight(); }
  Result<void> Ping() { return Link().Ping(); }

  Result<Cursor> Query(std::string_view sparql) override { return Query(sparql, {}); }
  // `parameters` travel beside the unchanged text (store/ipc/query_parameters.h): the store binds
  // them into the query it keeps compiled for that text.
  Result<Cursor> Query(std::string_view sparql, const engine::QueryParameters& parameters) {
    // kAuto: the rows inside the reply (QueryRows: one message each way, no pipe, no descriptor
    // for dbus-daemon and the store to duplicate, the client woken once; the `ay` appended and
    // read whole, raw_message.h) unless this text's rows were too large before; then the FD
    // stream, typed, any size (bench/ipc); plain D-Bus only on a connection that cannot pass
    // descriptors.
    if (transport_ == QueryTransport::kFdStream) return StreamQuery(sparql, parameters);
    if (transport_ == QueryTransport::kAuto && inline_max_ > 0 && !rows_unsupported_ &&
        !ipc::IsGraphQuery(sparql)) {
      const size_t key = std::hash<std::string_view>{}(sparql);
      if (!large_texts_.contains(key)) {
        bool too_large = false;
        auto rows = RowsQuery(sparql, parameters, &too_large);
        if (!too_large && !rows_unsupported_) return rows;
        if (too_large) {
          if (large_texts_.size() >= kMaxLargeTexts) large_texts_.clear();
          large_texts_.insert(key);
        }
      }
    }
    if (transport_ == QueryTransport::kAuto && !fds_unsupported_) {
      bool fd_unsupported = false;
      auto streamed = StreamQuery(sparql, parameters, &fd_unsupported);
      if (!fd_unsupported) return streamed;
      fds_unsupported_ = true;  // this bus never will: go straight to plain D-Bus from now on
    }
    bool too_large = false;
    return PlainQuery(sparql, &too_large, parameters);
  }
  Result<GraphAnswer> QueryGraph(std::string_view sparql) override;
  Result<Statement> Prepare(std::string_view sparql) override {
    return Statement(std::make_unique<BusStatement>(*this, std::string(sparql)));
  }
  Result<void> UpdateBatch(std::span<const std::string> requests) override;
  Result<void> UpdateStream(const Connection::UpdateProducer& next) override;
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
  Result<Cursor> StreamQuery(std::string_view sparql,
                             const engine::QueryParameters& parameters = {},
                             bool* fd_unsupported = nullptr);
  // A streamed query still in flight owns link_ on its call thread: every other use of link_
  // first lets it finish (the rest of its rows wait in memory for its cursor).
  void FinishInFlight() {
    if (auto reader = in_flight_.lock()) (void)reader->Finish();
    in_flight_.reset();
  }
  BusLink& Link() {
    FinishInFlight();
    return link_;
  }
  // Steroids.QueryRows: `too_large` when the rows passed inline_max_; a store without the
  // method sets rows_unsupported_.
  Result<Cursor> RowsQuery(std::string_view sparql, const engine::QueryParameters& parameters,
                           bool* too_large);
  Result<Cursor> PlainQuery(std::string_view sparql, bool* too_large,
                            const engine::QueryParameters& parameters = {});
  Result<void> CallWithPath(const char* interface, const char* method,
                            const std::filesystem::path& file);

  // The pipe a finished stream gave back (or a new one).
  Result<StreamPipe> TakePipe() {
    if (!spare_pipe_->has_value()) return NewStreamPipe();
    StreamPipe pipe = std::move(**spare_pipe_);
    spare_pipe_->reset();
    return pipe;
  }

  size_t inline_max_;
  std::unordered_set<size_t> large_texts_;  // hashes of texts whose rows went over inline_max_
  bool rows_unsupported_ = false;            // the store has no QueryRows (an older store)
  BusLink link_;
  std::shared_ptr<std::optional<StreamPipe>> spare_pipe_ =
      std::make_shared<std::optional<StreamPipe>>();
  std::weak_ptr<PipeReader> in_flight_;
  QueryTransport transport_ = QueryTransport::kAuto;
  bool fds_unsupported_ = false;  // the bus connection cannot pass descriptors (e.g. TCP)
  bool stream_unsupported_ = false;  // the store has no Resources.UpdateStream (older store)
  std::string source_;
};

Result<Cursor> BusStatement::Execute() { return connection_.Query(sparql_, parameters); }

// Query(s query, h fd, a{sv} options) -> as: the store writes every row into the pipe, closes
// it, then replies. The call is sent asynchronously and its reply pumped while the cursor reads
// (pipe_reader.h), on this thread; the reply's error (a stream cut short) comes from its Next()
// after the rows that did arrive.
Result<Cursor> BusConnection::StreamQuery(std::string_view sparql,
                                          const engine::QueryParameters& parameters,
                                          bool* fd_unsupported) {
  FinishInFlight();
  QUARRY_ASSIGN_OR_RETURN(StreamPipe pipe, TakePipe());
  UniqueFd write_end = std::move(pipe.write);
  auto reader = std::make_shared<PipeReader>(std::move(pipe.read));
  auto sent = link_.RunPeer([&](sdbus::IProxy& proxy) -> Result<void> {
    try {
      auto call = proxy.createMethodCall(kSteroidsInterface, "Query");
      call << std::string(sparql) << sdbus::UnixFd(write_end.get());
      QUARRY_TRY(AppendQueryOptions(call, {"version", 'i', 1}, parameters));
      auto pump = std::make_unique<BusReplyPump>(link_, *link_.connection(), *reader);
      pump->Send(proxy, call, kQueryTimeoutUs);
      reader->SetPump(std::move(pump));
      return Ok();
    } catch (const sdbus::Error& error) {
      // A connection that cannot pass descriptors (not a unix socket) refuses the fd, in the
      // message or at sending; the connection is fine for everything else: no bus failure.
      if (error.getName() != kNotSupportedError) throw;
      if (fd_unsupported) *fd_unsupported = true;
      return Error(Errc::kUnsupported,
                   fmt::format("the bus connection cannot pass file descriptors, so the FD "
                               "stream is unavailable (use the plain D-Bus transport): {}",
                               error.getMessage()));
    }
  });
  // The message held its own copy of the write end; the store gets another. Ours stays open
  // with the reader, which gives the pipe back for the next query once its stream is complete.
  reader->SetRecycle(std::move(write_end),
                     [spare = std::weak_ptr<std::optional<StreamPipe>>(spare_pipe_)](
                         UniqueFd read_end, UniqueFd kept_write_end) {
                       const auto slot = spare.lock();
                       if (slot && !slot->has_value()) {
                         *slot = StreamPipe{std::move(read_end), std::move(kept_write_end)};
                       }
                     });
  if (!sent) return std::move(sent).error();
  in_flight_ = reader;
  // Compile errors and empty results come as the reply with no row: report them from Query().
  QUARRY_ASSIGN_OR_RETURN(const bool ended, reader->WaitForData());
  if (ended) {
    auto names = reader->Finish();
    if (!names) return std::move(names).error();
  }
  return Cursor(std::make_unique<RowStreamCursor>(std::make_unique<PipeSource>(std::move(reader))));
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

// QueryRows(s query, a{sv} options) -> (as variable_names, ay rows): the rows encoded as in the
// FD stream, in the reply; the store refuses with ReplyTooLarge past "max_bytes".
Result<Cursor> BusConnection::RowsQuery(std::string_view sparql,
                                        const engine::QueryParameters& parameters,
                                        bool* too_large) {
  return Link().RunPeer([&](sdbus::IProxy& proxy) -> Result<Cursor> {
    try {
      auto call = proxy.createMethodCall(kSteroidsInterface, "QueryRows");
      call << std::string(sparql);
      QUARRY_TRY(AppendQueryOptions(call, {"max_bytes", 't', uint64_t{inline_max_}}, parameters));
      sdbus::MethodReply reply = proxy.callMethod(call, kQueryTimeoutUs);
      std::vector<std::string> names;
      reply >> names;
      const std::string_view rows = ipc::ReadByteArray(reply);
      return Cursor(std::make_unique<RowStreamCursor>(std::string(rows), std::move(names)));
    } catch (const sdbus::Error& error) {
      *too_large = error.getName() == ipc::kReplyTooLargeError;
      if (error.getName() == kUnknownMethodError) rows_unsupported_ = true;
      throw;
    }
  });
}

Result<Cursor> BusConnection::PlainQuery(std::string_view sparql, bool* too_large,
                                         const engine::QueryParameters& parameters) {
  // The reply is kept whole and read by the cursor in place (text_rows_cursor.h).
  auto reply = Link().RunPeer([&](sdbus::IProxy& proxy) -> Result<sdbus::MethodReply> {
    try {
      auto call = proxy.createMethodCall(
          kResourcesInterface, parameters.empty() ? "SparqlQuery" : "SparqlQueryWithOptions");
      call << std::string(sparql);
      if (!parameters.empty()) QUARRY_TRY(AppendQueryOptions(call, {nullptr, 'i', 0}, parameters));
      return proxy.callMethod(call, kQueryTimeoutUs);
    } catch (const sdbus::Error& error) {
      *too_large = error.getName() == ipc::kReplyTooLargeError;
      throw;
    }
  });
  if (!reply) return std::move(reply).error();
  return Cursor(std::make_unique<TextRowsCursor>(std::move(*reply)));
}

// One request without a source: SparqlUpdate(s). Otherwise BatchSparqlUpdate(as, a{sv}), one
// transaction, with the "source" option when set. Through the peer socket when there is one.
Result<void> BusConnection::UpdateBatch(std::span<const std::string> requests) {
  return Link().RunPeer([&](sdbus::IProxy& proxy) -> Result<void> {
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

// Sends `header` then `body` whole on the socket `fd`, waiting while it is full; false once the
// store closed its end (it failed the batch or went away: its reply says which).
bool SendRecord(int fd, std::string_view header, std::string_view body) {
  iovec parts[2] = {{const_cast<char*>(header.data()), header.size()},
                    {const_cast<char*>(body.data()), body.size()}};
  size_t first = 0;
  while (first < 2) {
    msghdr message{};
    message.msg_iov = parts + first;
    message.msg_iovlen = 2 - first;
    const ssize_t sent = ::sendmsg(fd, &message, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    size_t left = static_cast<size_t>(sent);
    while (first < 2 && left >= parts[first].iov_len) left -= parts[first++].iov_len;
    if (first < 2) {
      parts[first].iov_base = static_cast<char*>(parts[first].iov_base) + left;
      parts[first].iov_len -= left;
    }
  }
  return true;
}

// Resources.UpdateStream: the call waits for its reply on a thread of its own while this one
// produces the requests and writes each into a socket pair the store reads from (issue 7:
// neither process holds the batch). `next` must not use this Connection meanwhile. A request
// `next` fails to produce ends the stream without its end record: the store rolls back.
// A store without the method (older than s19) answers UnknownMethod at once: the call thread
// then reads back what was written into the socket pair (it keeps the store's end open until
// the reply for that), and the batch goes out as BatchSparqlUpdate; the connection remembers
// and collects the next batches directly (Connection::Impl's default).
Result<void> BusConnection::UpdateStream(const Connection::UpdateProducer& next) {
  if (stream_unsupported_) return Connection::Impl::UpdateStream(next);
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    return Error(Errc::kIo, fmt::format("cannot create the update stream's socket pair: {}",
                                        std::strerror(errno)));
  }
  UniqueFd ours(ends[0]);
  BusLink& link = Link();
  Result<void> answer = Ok();
  bool unknown_method = false;
  std::vector<std::string> read_back;  // an older store: the requests, for BatchSparqlUpdate
  std::optional<Error> read_back_error;
  std::thread call([&, theirs = UniqueFd(ends[1]), source = source_]() mutable {
    answer = link.RunPeer([&](sdbus::IProxy& proxy) -> Result<void> {
      try {
        auto method = proxy.createMethodCall(kResourcesInterface, "UpdateStream");
        method << sdbus::UnixFd(theirs.get());  // the message holds its own duplicate
        VariantMap options;
        if (!source.empty()) options.emplace("source", sdbus::Variant(source));
        method << options;
        proxy.callMethod(method, kQueryTimeoutUs);
      } catch (const sdbus::Error& error) {
        unknown_method = error.getName() == kUnknownMethodError;
        throw;
      }
      return Ok();
    });
    if (unknown_method) {
      ipc::UpdateStreamReader reader(std::move(theirs), kReadBackStall);
      for (;;) {
        auto record = reader.Next();
        if (!record) {  // the producer failed (its error is returned) or stalled
          read_back_error = std::move(record).error();
          break;
        }
        if (!*record) break;
        read_back.emplace_back(**record);
      }
    }
    // The store has replied (or the call was never sent): with the store's end closed, the
    // writer below stops at once instead of filling the socket.
    theirs.reset();
  });
  std::optional<Error> produce_error;
  bool store_gone = false;
  std::string request;
  std::string header;
  for (size_t index = 1;; ++index) {
    request.clear();
    auto more = next(request);
    if (!more) {
      produce_error = std::move(more).error().WithContext(fmt::format("update {}", index));
      break;
    }
    if (*more && request.size() > ipc::kMaxStreamedRequestBytes) {
      produce_error = Error(Errc::kInvalidArgument,
                            fmt::format("update {}: the request is {} bytes, over the stream's "
                                        "limit of {} bytes",
                                        index, request.size(), ipc::kMaxStreamedRequestBytes));
      break;
    }
    header.clear();
    if (*more) {
      ipc::AppendUpdateHeader(header, static_cast<uint32_t>(request.size()));
    } else {
      ipc::AppendUpdateEnd(header);
    }
    if (!SendRecord(ours.get(), header, *more ? std::string_view(request) : std::string_view())) {
      store_gone = true;
      break;
    }
    if (!*more) break;
    if (request.capacity() > (size_t{4} << 20)) request = std::string();  // keep no huge buffer
  }
  ours.reset();  // without the end record the store rolls the batch back
  call.join();
  if (produce_error) return *produce_error;
  if (unknown_method) {
    if (read_back_error) {
      return std::move(*read_back_error)
          .WithContext("reading back the batch for a store without UpdateStream");
    }
    stream_unsupported_ = true;
    return UpdateCollected(read_back);
  }
  if (!answer) return answer;
  if (store_gone) {
    return Error(Errc::kIo, "quarry-store stopped reading the update stream before its end");
  }
  return Ok();
}

Result<StoreStatus> BusConnection::Status() {
  return Link().Run([](sdbus::IProxy& proxy) -> Result<StoreStatus> {
    StoreStatus status;
    proxy.callMethod("GetStatus").onInterface(kStatusInterface).storeResultsTo(status.state);
    proxy.callMethod("GetProgress").onInterface(kStatusInterface).storeResultsTo(status.progress);
    return status;
  });
}

Result<void> BusConnection::CallWithPath(const char* interface, const char* method,
                                         const std::filesystem::path& file) {
  return Link().Run([&](sdbus::IProxy& proxy) -> Result<void> {
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
