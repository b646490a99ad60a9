#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <algorithm>
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
// from the query's own.
Result<sdbus::MethodReply> MarshalRows(const sdbus::MethodCall& call, engine::Store& store,
                                       const std::string& query,
                                       const engine::QueryParameters& parameters,
                                       size_t max_bytes, bool* too_large) {
  QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, CountedQuery(store, query, parameters));
  sdbus::MethodReply reply = call.createReply();
  reply.openContainer("as");
  const int columns = cursor.ColumnCount();
  std::string value;  // the NUL-terminated copy sd-bus takes (a cursor value is a view)
  size_t bytes = 4;   // the outer array's length
  size_t rows = 0;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    ++rows;
    bytes += 3 + 4;  // the row array's padding and length
    reply.openContainer("s");
    for (int column = 0; column < columns; ++column) {
      value.assign(cursor.GetString(column));
      bytes += WireSize(value);
      reply << value;
    }
    reply.closeContainer();
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
  reply.closeContainer();
  return reply;
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
void SubmitPlainQuery(Backend& backend, size_t max_reply_bytes, sdbus::MethodCall call,
                      std::string query, engine::QueryParameters parameters) {
  // A query that ran short before runs right here (backend.h "inline_read_budget").
  const size_t cost_key = std::hash<std::string>{}(query);
  backend.SubmitRead(
      {[call, query = std::move(query), parameters = std::move(parameters),
        max_reply_bytes](engine::Store& store) {
         SendBuiltReply(call, "the result", [&](bool* too_large) {
           return MarshalRows(call, store, query, parameters, max_reply_bytes, too_large);
         });
       },
       [call](const Error& error) { SendCallError(call, ToDbusError(error)); }},
      cost_key);
}

void SubmitUpdate(Backend& backend, UpdateSource source, SharedReply<> reply,
                  std::vector<std::string> requests) {
  backend.SubmitWrite(source, {[reply, requests = std::move(requests)](engine::Store& store) {
                                 SendOutcome(reply, store.UpdateBatch(requests));
                               },
                               FailWith(reply)});
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
  // Registered by signature, not through sdbus::Result<Rows>: the reply is marshalled from the
  // cursor (MarshalRows).
  const auto sparql_query = [&backend, max_reply_bytes](sdbus::MethodCall call) {
    std::string query;
    call >> query;
    SubmitPlainQuery(backend, max_reply_bytes, std::move(call), std::move(query), {});
  };
  object.registerMethod(kResourcesInterface, "SparqlQuery", "s", {"query"}, "aas", {"rows"},
                        sparql_query);
  // SparqlQuery with options: "parameters" (query_parameters.h), the `~name` values of a
  // statement the store keeps compiled by its text.
  const auto sparql_query_with_options = [&backend, max_reply_bytes](sdbus::MethodCall call) {
    std::string query;
    CallOptions options;
    call >> query >> options;
    auto parameters = ParsePlainQueryOptions(options);
    if (!parameters) return SendCallError(call, ToDbusError(parameters.error()));
    SubmitPlainQuery(backend, max_reply_bytes, std::move(call), std::move(query),
                     std::move(*parameters));
  };
  object.registerMethod(kResourcesInterface, "SparqlQueryWithOptions", "sa{sv}",
                        {"query", "options"}, "aas", {"rows"}, sparql_query_with_options);
  const auto sparql_update = [&backend](sdbus::Result<>&& result, std::string update) {
    SubmitUpdate(backend, UpdateSource::kInteractive, Share(std::move(result)),
                 {std::move(update)});
  };
  object.registerMethod("SparqlUpdate")
      .onInterface(kResourcesInterface)
      .withInputParamNames("update")
      .implementedAs(sparql_update);
  const auto batch_update = [&backend](sdbus::Result<>&& result, std::vector<std::string> updates,
                                       CallOptions options) {
    auto reply = Share(std::move(result));
    auto source = ParseBatchOptions(options);
    if (!source) return SendError(reply, source.error());
    SubmitUpdate(backend, *source, reply, std::move(updates));
  };
  object.registerMethod("BatchSparqlUpdate")
      .onInterface(kResourcesInterface)
      .withInputParamNames("updates", "options")
      .implementedAs(batch_update);
  if (peer != nullptr) {  // the same handlers on the peer socket (peer_server.h)
    peer->emplace(PeerMethodKey(kResourcesInterface, "SparqlQuery"), sparql_query);
    peer->emplace(PeerMethodKey(kResourcesInterface, "SparqlQueryWithOptions"),
                  sparql_query_with_options);
    peer->emplace(PeerMethodKey(kResourcesInterface, "SparqlUpdate"),
                  [sparql_update](sdbus::MethodCall call) {
                    std::string update;
                    call >> update;
                    sparql_update(sdbus::Result<>(std::move(call)), std::move(update));
                  });
    peer->emplace(PeerMethodKey(kResourcesInterface, "BatchSparqlUpdate"),
                  [batch_update](sdbus::MethodCall call) {
                    std::vector<std::string> updates;
                    CallOptions options;
                    call >> updates >> options;
                    batch_update(sdbus::Result<>(std::move(call)), std::move(updates),
                                 std::move(options));
                  });
  }
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
