#include <fcntl.h>
#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "store/ipc/call_options.h"
#include "store/ipc/dbus_names.h"
#include "store/ipc/error_names.h"
#include "store/ipc/event_loop.h"
#include "store/ipc/interfaces.h"
#include "store/ipc/log.h"
#include "store/ipc/query_parameters.h"
#include "store/ipc/reply.h"
#include "store/ipc/served_method.h"
#include "store/ipc/update_stream.h"

namespace quarry::ipc {
namespace {

// GraphUpdated triples: (graph, subject, predicate, object) IDs.
using TripleIds = sdbus::Struct<int32_t, int32_t, int32_t, int32_t>;

// The marshalled size of one string in an `aas` reply: alignment padding (at most 3), the
// uint32 length, the bytes and the NUL. An upper bound, so the cap errs on the safe side.
size_t WireSize(std::string_view value) { return 3 + 4 + value.size() + 1; }

// The `aas` reply of SparqlQuery, marshalled straight from the cursor into the D-Bus message:
// every row as lexical forms, "" for unbound values (Tracker's SparqlQuery shape). No row is
// kept as strings on the way (issue 4, bench/ipc: building a vector<vector<string>> first cost
// one allocation per value and a second copy of the result). Stops with a ReplyTooLarge error
// as soon as the rows would exceed `max_bytes` on the wire: a reply over dbus-daemon's (or
// sd-bus's) message limit gets the store's connection dropped. `too_large` tells that error
// from the query's own. A value sd-bus refuses (text that is not UTF-8) is an internal error.
Result<void> MarshalRows(sd_bus_message* reply, engine::Store& store, const std::string& query,
                         const engine::QueryParameters& parameters, size_t max_bytes,
                         bool* too_large) {
  QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, CountedQuery(store, query, parameters));
  int r = sd_bus_message_open_container(reply, 'a', "as");
  const int columns = cursor.ColumnCount();
  std::string value;  // the NUL-terminated copy sd-bus takes (a cursor value is a view)
  size_t bytes = 4;   // the outer array's length
  size_t rows = 0;
  while (r >= 0) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    ++rows;
    bytes += 3 + 4;  // the row array's padding and length
    r = sd_bus_message_open_container(reply, 'a', "s");
    for (int column = 0; r >= 0 && column < columns; ++column) {
      value.assign(cursor.GetString(column));
      bytes += WireSize(value);
      r = sd_bus_message_append_basic(reply, 's', value.c_str());
    }
    if (r >= 0) r = sd_bus_message_close_container(reply);
    if (bytes > max_bytes) {
      *too_large = true;
      return Error(Errc::kUnsupported,
                   fmt::format("the result is too large for one D-Bus reply: over {} bytes after "
                               "{} rows (quarry-store's limit is {} bytes); fetch it through the "
                               "FD stream (Steroids.Query; `quarry sparql` without --no-fd) or "
                               "in pages with LIMIT/OFFSET",
                               bytes, rows, max_bytes));
    }
  }
  if (r >= 0) r = sd_bus_message_close_container(reply);
  if (r < 0) return BuildError(r, "the result");
  return Ok();
}

// LOAD <uri> needs an IRIREF: these characters cannot appear in one (SPARQL 1.1 grammar [139]).
Result<std::string> LoadRequest(const std::string& uri) {
  const bool bad = uri.empty() || uri.find_first_of("<>\"{}|^`\\") != std::string::npos ||
                   std::any_of(uri.begin(), uri.end(),
                               [](char c) { return static_cast<unsigned char>(c) <= 0x20; });
  if (bad) {
    return Error(
        Errc::kInvalidArgument,
        fmt::format("Load: '{}' is not a valid IRI (empty, or has spaces or <>\"{{}}|^`\\)", uri));
  }
  return fmt::format("LOAD <{}>", uri);
}

// SparqlQuery and SparqlQueryWithOptions: the rows in one reply, on a reader thread.
void SubmitPlainQuery(Backend& backend, size_t max_reply_bytes, const SharedResponder& responder,
                      std::string query, engine::QueryParameters parameters) {
  // A query that ran short before runs right here (backend.h "inline_read_budget").
  const size_t cost_key = std::hash<std::string>{}(query);
  backend.SubmitRead(
      {[responder, query = std::move(query), parameters = std::move(parameters),
        max_reply_bytes](engine::Store& store) {
         ReplyBuilt(*responder, [&](sd_bus_message* reply, bool* too_large) {
           return MarshalRows(reply, store, query, parameters, max_reply_bytes, too_large);
         });
       },
       [responder](const Error& error) { ReplyFailure(*responder, error); }},
      cost_key);
}

void SubmitUpdate(Backend& backend, UpdateSource source, SharedReply<> reply,
                  std::vector<std::string> requests) {
  backend.SubmitWrite(source, {[reply, requests = std::move(requests)](engine::Store& store) {
                                 SendOutcome(reply, store.UpdateBatch(requests));
                               },
                               FailWith(reply)});
}

// SparqlUpdate and BatchSparqlUpdate (served on the bus and the peer socket).
void SubmitServedUpdate(Backend& backend, UpdateSource source, const SharedResponder& responder,
                        std::vector<std::string> requests) {
  backend.SubmitWrite(source,
                      {[responder, requests = std::move(requests)](engine::Store& store) {
                         ReplyOutcome(*responder, store.UpdateBatch(requests));
                       },
                       [responder](const Error& error) { ReplyFailure(*responder, error); }});
}

// How long an UpdateStream waits for the client's next bytes before it gives the batch up
// (the writer thread, and every other write, waits meanwhile).
constexpr std::chrono::seconds kStreamStallTimeout(60);

// UpdateStream: the requests read from `fd` on the writer thread as they come and run in one
// transaction (update_stream.h); the store never holds more than one request of the batch.
void SubmitStreamedUpdate(Backend& backend, UpdateSource source, const SharedResponder& responder,
                          UniqueFd fd) {
  auto shared_fd = std::make_shared<UniqueFd>(std::move(fd));
  backend.SubmitWrite(
      source, {[responder, shared_fd](engine::Store& store) {
                 UpdateStreamReader reader(std::move(*shared_fd), kStreamStallTimeout);
                 const Result<void> outcome = store.UpdateStream([&reader] { return reader.Next(); });
                 ReplyOutcome(*responder, outcome);
               },
               [responder, shared_fd](const Error& error) {
                 shared_fd->reset();
                 ReplyFailure(*responder, error);
               }});
}

void RegisterSignals(sdbus::IObject& object) {
  object.registerSignal("GraphUpdated")
      .onInterface(kResourcesInterface)
      .withParameters<std::string, std::vector<TripleIds>, std::vector<TripleIds>>(
          "class_name", "deletes", "inserts");
  object.registerSignal("Writeback")
      .onInterface(kResourcesInterface)
      .withParameters<std::map<int32_t, std::vector<int32_t>>>("subjects");
}

}  // namespace

void RegisterResources(sdbus::IObject& object, Backend& backend, size_t max_reply_bytes,
                       PeerMethods* peer) {
  // Served on the bus and the peer socket alike (served_method.h), the rows marshalled from the
  // cursor (MarshalRows).
  RegisterServed(object, peer, kResourcesInterface, "SparqlQuery", "s", {"query"}, "aas",
                 {"rows"},
                 [&backend, max_reply_bytes](sd_bus_message* call,
                                             const SharedResponder& responder) {
                   auto query = ReadString(call);
                   if (!query) return ReplyFailure(*responder, query.error());
                   SubmitPlainQuery(backend, max_reply_bytes, responder, std::move(*query), {});
                 });
  // SparqlQuery with options: "parameters" (query_parameters.h), the `~name` values of a
  // statement the store keeps compiled by its text.
  RegisterServed(object, peer, kResourcesInterface, "SparqlQueryWithOptions", "sa{sv}",
                 {"query", "options"}, "aas", {"rows"},
                 [&backend, max_reply_bytes](sd_bus_message* call,
                                             const SharedResponder& responder) {
                   auto read = ReadQueryCall(call, QueryOptionSet::kPlain);
                   if (!read) return ReplyFailure(*responder, read.error());
                   SubmitPlainQuery(backend, max_reply_bytes, responder, std::move(read->query),
                                    std::move(read->options.parameters));
                 });
  RegisterServed(object, peer, kResourcesInterface, "SparqlUpdate", "s", {"update"}, "", {},
                 [&backend](sd_bus_message* call, const SharedResponder& responder) {
                   auto update = ReadString(call);
                   if (!update) return ReplyFailure(*responder, update.error());
                   SubmitServedUpdate(backend, UpdateSource::kInteractive, responder,
                                      {std::move(*update)});
                 });
  RegisterServed(object, peer, kResourcesInterface, "BatchSparqlUpdate", "asa{sv}",
                 {"updates", "options"}, "", {},
                 [&backend](sd_bus_message* call, const SharedResponder& responder) {
                   auto updates = ReadStrings(call);
                   if (!updates) return ReplyFailure(*responder, updates.error());
                   auto options = ReadCallOptions(call);
                   if (!options) return ReplyFailure(*responder, options.error());
                   auto source = ParseBatchOptions(*options);
                   if (!source) return ReplyFailure(*responder, source.error());
                   SubmitServedUpdate(backend, *source, responder, std::move(*updates));
                 });
  // UpdateStream(h fd, a{sv} options): BatchSparqlUpdate with the requests streamed through
  // `fd` (update_stream.h); the reply comes once the batch committed or rolled back.
  RegisterServed(object, peer, kResourcesInterface, "UpdateStream", "ha{sv}", {"fd", "options"},
                 "", {}, [&backend](sd_bus_message* call, const SharedResponder& responder) {
                   int passed = -1;  // owned by the message: duplicated below
                   const int r = sd_bus_message_read_basic(call, 'h', &passed);
                   if (r <= 0) {
                     return ReplyFailure(*responder,
                                         ArgumentError(r < 0 ? r : -EBADMSG, "fd"));
                   }
                   UniqueFd fd(::fcntl(passed, F_DUPFD_CLOEXEC, 3));
                   if (!fd) {
                     return ReplyFailure(
                         *responder, Error(Errc::kIo, fmt::format("cannot take the descriptor: {}",
                                                                  std::strerror(errno))));
                   }
                   auto options = ReadCallOptions(call);
                   if (!options) return ReplyFailure(*responder, options.error());
                   auto source = ParseBatchOptions(*options);
                   if (!source) return ReplyFailure(*responder, source.error());
                   SubmitStreamedUpdate(backend, *source, responder, std::move(fd));
                 });
  object.registerMethod("Load")
      .onInterface(kResourcesInterface)
      .withInputParamNames("uri")
      .implementedAs([&backend](sdbus::Result<>&& result, std::string uri) {
        auto reply = Share(std::move(result));
        auto request = LoadRequest(uri);
        if (!request) return SendError(reply, request.error());
        SubmitUpdate(backend, UpdateSource::kInteractive, reply, {std::move(*request)});
      });
  RegisterSignals(object);
}

}  // namespace quarry::ipc
