#include <fcntl.h>
#include <sdbus-c++/sdbus-c++.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
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
#include "store/ipc/served_method.h"
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

void ReplyNames(Responder& responder, const Names& names) {
  const Result<void> sent = responder.Reply(
      [&](sd_bus_message* reply) { return AppendStrings(reply, names); });
  if (!sent) ReplyFailure(responder, sent.error());
}

void RunStreamQuery(engine::Store& store, const std::string& query,
                    const engine::QueryParameters& parameters, UniqueFd fd,
                    StreamDrainer& drainer, const SharedResponder& responder) {
  OutgoingBlocks blocks;
  auto names = StepIntoBlocks(store, query, parameters, fd.get(), blocks);
  if (!names) {
    fd.reset();
    return ReplyFailure(*responder, names.error());
  }
  blocks.SealAll();
  auto written = blocks.WriteAvailable(fd.get());
  if (!written || *written) {
    fd.reset();  // EOF before the reply: a success reply means the stream was complete
    if (!written) return ReplyFailure(*responder, written.error());
    return ReplyNames(*responder, *names);
  }
  drainer.Add(std::move(fd), std::move(blocks),
              [responder, names = std::move(*names)](Result<void> outcome) {
                if (outcome)
                  ReplyNames(*responder, names);
                else
                  ReplyFailure(*responder, outcome.error());
              });
}

// QueryRows' reply: the variable names and every row, encoded as in the FD stream
// (row_encoder.h), appended as one `ay` (raw_message.h). Fails with `too_large` set as soon as
// the encoded rows pass `max_bytes`: the client then streams the query instead.
Result<void> EncodeRowsReply(sd_bus_message* reply, engine::Store& store,
                             const std::string& query, const engine::QueryParameters& parameters,
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
  QUARRY_TRY(AppendStrings(reply, names));
  const int r = sd_bus_message_append_array(reply, 'y', rows.data(), rows.size());
  if (rows.capacity() > kStreamBlockSize * 16) rows = std::string();  // keep no large buffer
  if (r < 0) return BuildError(r, "the rows");
  return Ok();
}

}  // namespace

void RegisterSteroids(sdbus::IObject& object, Backend& backend, StreamDrainer& drainer,
                      size_t max_reply_bytes, const std::string* peer_address, PeerMethods* peer) {
  // QueryRows(s query, a{sv} options) -> (as variable_names, ay rows): a small result in the
  // reply itself, no pipe or descriptor (issue 7). The rows are appended as one array.
  RegisterServed(
      object, peer, kSteroidsInterface, "QueryRows", "sa{sv}", {"query", "options"}, "asay",
      {"variable_names", "rows"},
      [&backend, max_reply_bytes](sd_bus_message* call, const SharedResponder& responder) {
        auto read = ReadQueryCall(call, QueryOptionSet::kStream);
        if (!read) return ReplyFailure(*responder, read.error());
        const uint64_t asked = read->options.max_bytes;
        const size_t max_bytes =
            asked == 0 ? max_reply_bytes
                       : static_cast<size_t>(std::min<uint64_t>(asked, max_reply_bytes));
        // A query that ran short before runs right here (backend.h "inline_read_budget").
        const size_t cost_key = std::hash<std::string>{}(read->query);
        backend.SubmitRead(
            {[responder, query = std::move(read->query),
              parameters = std::move(read->options.parameters), max_bytes](engine::Store& store) {
               ReplyBuilt(*responder, [&](sd_bus_message* reply, bool* too_large) {
                 return EncodeRowsReply(reply, store, query, parameters, max_bytes, too_large);
               });
             },
             [responder](const Error& error) { ReplyFailure(*responder, error); }},
            cost_key);
      });

  // Query(s query, h fd, a{sv} options) -> (as variable_names): the rows through `fd`.
  RegisterServed(
      object, peer, kSteroidsInterface, "Query", "sha{sv}", {"query", "fd", "options"}, "as",
      {"variable_names"},
      [&backend, &drainer](sd_bus_message* call, const SharedResponder& responder) {
        auto query = ReadString(call);
        if (!query) return ReplyFailure(*responder, query.error());
        int passed = -1;  // owned by the message: duplicated below
        const int r = sd_bus_message_read_basic(call, 'h', &passed);
        if (r <= 0) return ReplyFailure(*responder, ArgumentError(r < 0 ? r : -EBADMSG, "fd"));
        auto fd = std::make_shared<UniqueFd>(::fcntl(passed, F_DUPFD_CLOEXEC, 3));
        if (!*fd) {
          return ReplyFailure(*responder,
                              Error(Errc::kIo, fmt::format("cannot take the descriptor: {}",
                                                           std::strerror(errno))));
        }
        std::optional<engine::QueryParameters> parameters;
        auto options = ReadCallOptions(call, &parameters);
        Result<QueryOptions> parsed =
            options ? ParseStreamOptions(*options) : Result<QueryOptions>(options.error());
        if (parsed && parameters) parsed->parameters = std::move(*parameters);
        Result<void> usable = parsed ? MakeNonBlocking(fd->get()) : Result<void>(parsed.error());
        if (!usable) {
          fd->reset();
          return ReplyFailure(*responder, usable.error());
        }
        EnlargePipe(fd->get());
        // A query that ran short before runs right here (backend.h "inline_read_budget").
        const size_t cost_key = std::hash<std::string>{}(*query);
        backend.SubmitRead({[responder, fd, query = std::move(*query),
                             parameters = std::move(parsed->parameters),
                             &drainer](engine::Store& store) {
                              RunStreamQuery(store, query, parameters, std::move(*fd), drainer,
                                             responder);
                            },
                            [responder, fd](const Error& error) {
                              fd->reset();
                              ReplyFailure(*responder, error);
                            }},
                           cost_key);
      });

  // Issue 7: where a client of this user reaches the store without dbus-daemon (peer_server.h).
  object.registerMethod("GetPeerAddress")
      .onInterface(kSteroidsInterface)
      .withOutputParamNames("address")
      .implementedAs([peer_address]() -> std::string {
        return peer_address != nullptr ? *peer_address : std::string();
      });
}

}  // namespace quarry::ipc
