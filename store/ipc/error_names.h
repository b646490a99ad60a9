// D-Bus error names of quarry-store: each Errc maps to one name, org.quarry.Store1.Error.<Kind>
// (Kind = ErrcName(code), e.g. org.quarry.Store1.Error.Parse), and back on the client side.
// The message is Error::ToString() (context frames included), never localized.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace sdbus {
class Error;
}

namespace quarry::ipc {

inline constexpr std::string_view kErrorPrefix = "org.quarry.Store1.Error.";

// SparqlQuery's answer when its rows would not fit in one D-Bus reply (README.md "Reply size").
// A name of its own, so that a client can switch to the FD stream by itself; it maps to
// Errc::kUnsupported.
inline constexpr std::string_view kReplyTooLargeError = "org.quarry.Store1.Error.ReplyTooLarge";

// "org.quarry.Store1.Error.Parse" for Errc::kParse.
std::string DbusErrorName(Errc code);
// The code a D-Bus error name stands for; nullopt for names outside kErrorPrefix.
std::optional<Errc> ErrcFromDbusName(std::string_view name);
// The sdbus-c++ exception carrying `error` over the bus (the adaptor's only use of exceptions).
sdbus::Error ToDbusError(const Error& error);

}  // namespace quarry::ipc
