// Sending the reply of an asynchronous method from whichever thread finished the work.
//
// sdbus-c++ allows replies from any thread; it throws sdbus::Error when the bus is gone. That
// throw stops here (logged): the caller is a worker thread that must go on serving. Each send
// wakes the event loop, which writes out what did not fit in the socket (event_loop.h).
// sdbus::Result is move-only while jobs are std::function, hence the shared_ptr.
// Thread-safety: any thread, once per call.
#pragma once

#include <sdbus-c++/Error.h>
#include <sdbus-c++/Message.h>
#include <sdbus-c++/MethodResult.h>

#include <memory>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/ipc/error_names.h"
#include "store/ipc/event_loop.h"
#include "store/ipc/log.h"

namespace quarry::ipc {

template <typename... Values>
using SharedReply = std::shared_ptr<sdbus::Result<Values...>>;

template <typename... Values>
SharedReply<Values...> Share(sdbus::Result<Values...>&& result) {
  return std::make_shared<sdbus::Result<Values...>>(std::move(result));
}

template <typename... Values, typename... Args>
void SendResults(const SharedReply<Values...>& reply, const Args&... values) {
  try {
    reply->returnResults(values...);
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("cannot send a reply: {}", error.what()));
  }
  WakeEventLoop();
}

template <typename... Values>
void SendError(const SharedReply<Values...>& reply, const Error& error) {
  try {
    reply->returnError(ToDbusError(error));
  } catch (const sdbus::Error& failure) {
    LogWarning(fmt::format("cannot send an error reply: {}", failure.what()));
  }
  WakeEventLoop();
}

// `error` under a D-Bus error name of its own (e.g. kReplyTooLargeError) instead of its Errc's.
template <typename... Values>
void SendNamedError(const SharedReply<Values...>& reply, std::string_view name,
                    const Error& error) {
  try {
    reply->returnError(sdbus::Error(std::string(name), error.ToString()));
  } catch (const sdbus::Error& failure) {
    LogWarning(fmt::format("cannot send an error reply: {}", failure.what()));
  }
  WakeEventLoop();
}

// A reply with no values, or the error of `outcome`.
inline void SendOutcome(const SharedReply<>& reply, const Result<void>& outcome) {
  if (outcome)
    SendResults(reply);
  else
    SendError(reply, outcome.error());
}

// Replies to a call registered without sdbus-c++'s typed Result (by signature, the reply built
// by hand: Resources.SparqlQuery, Steroids.QueryRows).
inline void SendCallReply(const sdbus::MethodReply& reply) {
  try {
    reply.send();
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("cannot send a reply: {}", error.what()));
  }
  WakeEventLoop();
}
inline void SendCallError(const sdbus::MethodCall& call, const sdbus::Error& error) {
  try {
    call.createErrorReply(error).send();
  } catch (const sdbus::Error& failure) {
    LogWarning(fmt::format("cannot send an error reply: {}", failure.what()));
  }
  WakeEventLoop();
}

// Replies to `call` with what `build(&too_large)` returns: a value sd-bus refuses (it throws
// sdbus::Error, e.g. text that is not UTF-8) as an internal error naming `what`, a result past
// the size limit (`too_large` set) as kReplyTooLargeError, any other error under its Errc's name.
template <typename Build>
void SendBuiltReply(const sdbus::MethodCall& call, std::string_view what, Build&& build) {
  bool too_large = false;
  Result<sdbus::MethodReply> reply = Error(Errc::kInternal, "no reply");
  try {
    reply = build(&too_large);
  } catch (const sdbus::Error& error) {
    reply = Error(Errc::kInternal,
                  fmt::format("cannot put {} into a D-Bus reply: {}", what, error.getMessage()));
  }
  if (reply) {
    SendCallReply(*reply);
  } else if (too_large) {
    SendCallError(call,
                  sdbus::Error(std::string(kReplyTooLargeError), reply.error().ToString()));
  } else {
    SendCallError(call, ToDbusError(reply.error()));
  }
}

// The `fail` half of a StoreJob for this reply.
template <typename... Values>
auto FailWith(const SharedReply<Values...>& reply) {
  return [reply](const Error& error) { SendError(reply, error); };
}

}  // namespace quarry::ipc
