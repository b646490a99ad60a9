#include <sdbus-c++/sdbus-c++.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "store/common/unique_fd.h"
#include "store/ipc/call_options.h"
#include "store/ipc/dbus_names.h"
#include "store/ipc/graph_stream.h"
#include "store/ipc/interfaces.h"
#include "store/ipc/outgoing_blocks.h"
#include "store/ipc/error_names.h"
#include "store/ipc/query_parameters.h"
#include "store/ipc/raw_message.h"
#include "store/ipc/reply.h"
#include "store/ipc/row_encoder.h"

namespace quarry::ipc {
namespace {

using Names = std::vector<std::string>;

// Steps the whole query into `blocks`, writing to `fd` whatever the pipe takes on the way.
// The cursor (and SQLite's read transaction) ends when this returns: rows the client has not
// read yet stay in `blocks`.
// `parameters` are bound into the compiled query (query_parameters.h): the store's QueryCache
// finds a repeated statement by its unchanged text.
Result<Names> StepIntoBlocks(engine::Store& store, const std::string& query,
                             const engine::QueryParameters& parameters, int fd,
                             OutgoingBlocks& blocks) {
  if (IsGraphQuery(query)) return StepGraphIntoBlocks(store, query, fd, blocks, parameters);
  QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, CountedQuery(store, query, parameters));
  Names names;
  for (int column = 0; column < cursor.ColumnCount(); ++column) {
    names.push_back(cursor.VariableName(column));
  }
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    AppendRow(cursor, blocks.tail());
    if (blocks.tail().size() < kStreamBlockSize) continue;
    blocks.SealFullBlocks();
    QUARRY_TRY(blocks.WriteAvailable(fd));
  }
  return names;
}

void RunStreamQuery(engine::Store& store, const std::string& query,
                    const engine::QueryParameters& parameters, UniqueFd fd,
                    StreamDrainer& drainer, const SharedReply<Names>& reply) {
  OutgoingBlocks blocks;
  auto names = StepIntoBlocks(store, query, parameters, fd.get(), blocks);
  if (!names) {
    fd.reset();
    return SendError(reply, names.error());
  }
  blocks.SealAll();
  auto written = blocks.WriteAvailable(fd.get());
  if (!written || *written) {
    fd.reset();  // EOF before the reply: a success reply means the stream was complete
    if (!written) return SendError(reply, written.error());
    return SendResults(reply, *names);
  }
  drainer.Add(std::move(fd), std::move(blocks),
              [reply, names = std::move(*names)](Result<void> outcome) {
                if (outcome)
                  SendResults(reply, names);
                else
                  SendError(reply, outcome.error());
              });
}

// QueryRows' reply: the variable names and every row, encoded as in the FD stream
// (row_encoder.h), appended as one `ay` (raw_message.h). Fails with `too_large` set as soon as
// the encoded rows pass `max_bytes`: the client then streams the query instead.
Result<sdbus::MethodReply> EncodeRowsReply(const sdbus::MethodCall& call, engine::Store& store,
                                           const std::string& query,
                                           const engine::QueryParameters& parameters,
                                           size_t max_bytes, bool* too_large) {
  if (IsGraphQuery(query)) {
    return Error(Errc::kInvalidArgument, "QueryRows takes SELECT and ASK queries; CONSTRUCT and "
                                         "DESCRIBE results stream through Steroids.Query");
  }
  QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, CountedQuery(store, query, parameters));
  Names names;
  for (int column = 0; column < cursor.ColumnCount(); ++column) {
    names.push_back(cursor.VariableName(column));
  }
  // One buffer per thread: a small reply costs no allocation once the thread has run one.
  thread_local std::string rows;
  rows.clear();
  size_t count = 0;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    AppendRow(cursor, rows);
    ++count;
    if (rows.size() > max_bytes) {
      *too_large = true;
      return Error(Errc::kUnsupported,
                   fmt::format("the rows are too large for one QueryRows reply: over {} bytes "
                               "after {} rows (the limit is {} bytes); stream them through "
                               "Steroids.Query",
                               rows.size(), count, max_bytes));
    }
  }
  sdbus::MethodReply reply = call.createReply();
  reply << names;
  AppendByteArray(reply, rows);
  if (rows.capacity() > kStreamBlockSize * 16) rows = std::string();  // keep no large buffer
  return reply;
}

}  // namespace

void RegisterSteroids(sdbus::IObject& object, Backend& backend, StreamDrainer& drainer,
                      size_t max_reply_bytes, const std::string* peer_address, PeerMethods* peer) {
  // QueryRows(s query, a{sv} options) -> (as variable_names, ay rows): a small result in the
  // reply itself, no pipe or descriptor (issue 7). Registered by signature: the rows are
  // appended as one array.
  const auto query_rows = [&backend, max_reply_bytes](sdbus::MethodCall call) {
    std::string query;
    CallOptions options;
    call >> query >> options;
    auto parsed = ParseStreamOptions(options);
    if (!parsed) return SendCallError(call, ToDbusError(parsed.error()));
    const size_t max_bytes =
        parsed->max_bytes == 0
            ? max_reply_bytes
            : static_cast<size_t>(std::min<uint64_t>(parsed->max_bytes, max_reply_bytes));
    // A query that ran short before runs right here (backend.h "inline_read_budget").
    const size_t cost_key = std::hash<std::string>{}(query);
    backend.SubmitRead(
        {[call, query = std::move(query), parameters = std::move(parsed->parameters),
          max_bytes](engine::Store& store) {
           SendBuiltReply(call, "the rows", [&](bool* too_large) {
             return EncodeRowsReply(call, store, query, parameters, max_bytes, too_large);
           });
         },
         [call](const Error& error) { SendCallError(call, ToDbusError(error)); }},
        cost_key);
  };
  object.registerMethod(kSteroidsInterface, "QueryRows", "sa{sv}", {"query", "options"}, "asay",
                        {"variable_names", "rows"}, query_rows);

  const auto stream_query = [&backend, &drainer](sdbus::Result<Names>&& result,
                                                 std::string query, sdbus::UnixFd passed_fd,
                                                 CallOptions options) {
    auto reply = Share(std::move(result));
    auto fd = std::make_shared<UniqueFd>(passed_fd.release());
    auto parsed = ParseStreamOptions(options);
    Result<void> usable = parsed ? MakeNonBlocking(fd->get()) : Result<void>(parsed.error());
    if (!usable) {
      fd->reset();
      return SendError(reply, usable.error());
    }
    EnlargePipe(fd->get());
    // A query that ran short before runs right here (backend.h "inline_read_budget").
    const size_t cost_key = std::hash<std::string>{}(query);
    backend.SubmitRead({[reply, fd, query = std::move(query),
                         parameters = std::move(parsed->parameters),
                         &drainer](engine::Store& store) {
                          RunStreamQuery(store, query, parameters, std::move(*fd), drainer,
                                         reply);
                        },
                        [reply, fd](const Error& error) {
                          fd->reset();
                          SendError(reply, error);
                        }},
                       cost_key);
  };
  object.registerMethod("Query")
      .onInterface(kSteroidsInterface)
      .withInputParamNames("query", "fd", "options")
      .withOutputParamNames("variable_names")
      .implementedAs(stream_query);

  // Issue 7: where a client of this user reaches the store without dbus-daemon (peer_server.h).
  object.registerMethod("GetPeerAddress")
      .onInterface(kSteroidsInterface)
      .withOutputParamNames("address")
      .implementedAs([peer_address]() -> std::string {
        return peer_address != nullptr ? *peer_address : std::string();
      });

  if (peer != nullptr) {
    peer->emplace(PeerMethodKey(kSteroidsInterface, "QueryRows"), query_rows);
    peer->emplace(PeerMethodKey(kSteroidsInterface, "Query"),
                  [stream_query](sdbus::MethodCall call) {
                    std::string text;
                    sdbus::UnixFd fd;
                    CallOptions options;
                    call >> text >> fd >> options;
                    stream_query(sdbus::Result<Names>(std::move(call)), std::move(text),
                                 std::move(fd), std::move(options));
                  });
  }
}

}  // namespace quarry::ipc
