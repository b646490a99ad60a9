// quarry-store as a whole: the bus connection, the object /org/quarry/Store1 with its four
// interfaces, the Backend threads and the stream drainer, and the life cycle around them —
// take the bus name first (clients queue while the database opens), serve until SIGTERM or
// SIGINT, then stop accepting, finish every queued job and close the database.
// Thread-safety: RunStoreService() is called once, from main(), before any other thread runs
// (it blocks SIGTERM/SIGINT for every thread it starts and waits for them itself).
#pragma once

#include <cstddef>
#include <string>

#include "store/ipc/backend.h"
#include "store/notifier/change_batcher.h"

namespace quarry::ipc {

struct DaemonOptions {
  std::string bus_address;  // empty = the session bus ($DBUS_SESSION_BUS_ADDRESS)
  BackendOptions backend;
  // GraphUpdated coalescing (README.md "Signals"): --signal-delay-ms, --signal-max-triples.
  notifier::ChangeBatcher::Limits signal_limits;
  // The largest SparqlQuery reply sent over the bus (--max-reply-mib); larger results are
  // refused with kReplyTooLargeError and go through the FD stream instead. Well under
  // dbus-daemon's and sd-bus's message limits (128 MiB for sd-bus).
  size_t max_reply_bytes = size_t{64} << 20;
  // Unsent Steroids stream bytes all streams may hold in memory (--stream-buffer-mib); the
  // rest waits in an unlinked file in the database directory (outgoing_blocks.h).
  size_t stream_memory_bytes = size_t{64} << 20;
  // The peer socket under $XDG_RUNTIME_DIR/quarry (peer_server.h); --no-peer-socket turns it off.
  bool peer_socket = true;
};

// Runs until a stop signal; returns the process exit status (0, or 1 when the bus or the
// database could not be set up — the reason is logged).
int RunStoreService(const DaemonOptions& options);

// $XDG_CACHE_HOME/quarry (or ~/.cache/quarry): the default database directory.
std::string DefaultDatabaseDir();

}  // namespace quarry::ipc
