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

// A reply with no values, or the error of `outcome`.
inline void SendOutcome(const SharedReply<>& reply, const Result<void>& outcome) {
  if (outcome)
    SendResults(reply);
  else
    SendError(reply, outcome.error());
}

// The `fail` half of a StoreJob for this reply.
template <typename... Values>
auto FailWith(const SharedReply<Values...>& reply) {
  return [reply](const Error& error) { SendError(reply, error); };
}

}  // namespace quarry::ipc
