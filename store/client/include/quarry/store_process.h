// Who runs quarry-store: the process owning the store's bus name, for `quarry daemon` (stop
// sends that process SIGTERM) and for tests that wait for the name.
// Thread-safety: free functions; each call opens its own bus connection.
#pragma once

#include <sys/types.h>

#include <optional>

#include "quarry/connection.h"
#include "quarry/result.h"

namespace quarry {

// The PID of the bus name's owner (org.freedesktop.DBus GetConnectionUnixProcessID); nullopt
// when nobody owns it. Fails only when the bus itself cannot be reached.
Result<std::optional<pid_t>> StoreProcessId(const BusOptions& options = {});

}  // namespace quarry
