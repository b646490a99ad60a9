// Served methods, independent of the transport (issue 7 review). A method that the store serves
// both on the bus and on its peer socket (peer_server.h) is one ServedMethod: it reads its
// arguments from the raw sd_bus_message* of the call, queues the work, and replies through a
// Responder, whichever connection the call came on:
// - on the bus (BusResponder): sdbus-c++'s public MethodCall/MethodReply, the values appended
//   raw (RawMessage::Of), so that sdbus-c++'s own locking of its connection applies; each send
//   wakes the event loop (event_loop.h);
// - on the peer socket (peer_server.cpp): sd_bus_message_new_method_return /
//   sd_bus_reply_method_error and sd_bus_send under the peer connection's own lock, waking its
//   thread when a reply did not fit in the socket.
// RegisterServed() puts one method on the bus object and, when given, into the peer's table.
// Thread-safety: a ServedMethod runs on the thread that received the call and reads `call`
// there only; a Responder may be used from any thread, one reply per call.
#pragma once

#include <sdbus-c++/IObject.h>
#include <systemd/sd-bus.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/common/result.h"
#include "store/ipc/call_options.h"

namespace quarry::ipc {

class Responder {
 public:
  using Fill = std::function<Result<void>(sd_bus_message* reply)>;
  virtual ~Responder() = default;
  // Creates the method return, lets `fill` append the values, and sends it. `fill`'s error is
  // returned and nothing is sent (the caller replies with an error instead); a failure to
  // create or send the reply (the client is gone) is logged.
  virtual Result<void> Reply(const Fill& fill) = 0;
  // The error `name` with `message`; a failure to send is logged.
  virtual void ReplyError(const std::string& name, const std::string& message) = 0;
};
using SharedResponder = std::shared_ptr<Responder>;

using ServedMethod = std::function<void(sd_bus_message* call, const SharedResponder& responder)>;

// What the peer socket serves: "interface\nmember" -> the input signature and the method.
struct PeerMethod {
  std::string signature;
  ServedMethod run;
};
using PeerMethods = std::unordered_map<std::string, PeerMethod>;
inline std::string PeerMethodKey(std::string_view interface, std::string_view member) {
  std::string key(interface);
  key += '\n';
  key += member;
  return key;
}

// Registers `method` on `object` by signature (input names `in_names`, output `out_signature`
// and `out_names`) and, when `peer` is given, in the peer socket's table.
void RegisterServed(sdbus::IObject& object, PeerMethods* peer, const std::string& interface,
                    const std::string& member, const std::string& in_signature,
                    const std::vector<std::string>& in_names, const std::string& out_signature,
                    const std::vector<std::string>& out_names, ServedMethod method);

// Replies with `error` under its Errc's D-Bus name (error_names.h).
void ReplyFailure(Responder& responder, const Error& error);
// An empty reply, or the error of `outcome`.
void ReplyOutcome(Responder& responder, const Result<void>& outcome);
// Replies with what `fill(reply, &too_large)` appends: its error under its Errc's name, or as
// kReplyTooLargeError when it set `too_large`.
void ReplyBuilt(Responder& responder,
                const std::function<Result<void>(sd_bus_message*, bool* too_large)>& fill);

// An sd-bus failure `r` (negative errno) while reading the arguments or building a reply.
Error ArgumentError(int r, std::string_view what);
Error BuildError(int r, std::string_view what);
// The next argument of `call`, of the named type.
Result<std::string> ReadString(sd_bus_message* call);
Result<std::vector<std::string>> ReadStrings(sd_bus_message* call);
// An a{sv} argument; values of the types no option takes are refused naming the key.
Result<CallOptions> ReadCallOptions(sd_bus_message* call);
// The same for a query call: a "parameters" option of the right type is read straight into
// `*parameters` (query_parameters.h ReadParameters) and left out of the map; of another type it
// stays in the map (where Parse*Options refuses it) and `*parameters` is reset.
Result<CallOptions> ReadCallOptions(sd_bus_message* call,
                                    std::optional<engine::QueryParameters>* parameters);
// Appends `values` as one `as`.
Result<void> AppendStrings(sd_bus_message* reply, const std::vector<std::string>& values);

// The (s query, a{sv} options) arguments of Steroids.QueryRows (ParseStreamOptions) and
// Resources.SparqlQueryWithOptions (ParsePlainQueryOptions: "parameters" only).
enum class QueryOptionSet { kStream, kPlain };
struct QueryCall {
  std::string query;
  QueryOptions options;
};
Result<QueryCall> ReadQueryCall(sd_bus_message* call, QueryOptionSet set);

}  // namespace quarry::ipc
