// quarry-store: serves one database directory on the session bus as org.quarry.Store1
// (DESIGN.md "D-Bus"; store/ipc/ does the work).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "store/common/process_memory.h"
#include "store/engine/sqlite/database.h"
#include "store/ipc/store_service.h"

int main(int argc, char** argv) {
  // Before any thread; two arenas for the store's threads (process_memory.h).
  quarry::ConfigureMalloc("quarry-store", quarry::MallocSettings{.arena_max = 2});
  CLI::App app{"quarry-store: the Quarry store service (D-Bus name org.quarry.Store1)"};
  quarry::ipc::DaemonOptions options;
  std::string database = quarry::ipc::DefaultDatabaseDir();
  std::string ontology;
  if (const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS")) options.bus_address = address;
  app.add_option("--bus", options.bus_address,
                 "D-Bus address to serve on (default: $DBUS_SESSION_BUS_ADDRESS)");
  app.add_option("--database", database, "database directory (default: $XDG_CACHE_HOME/quarry)");
  app.add_option("--ontology", ontology,
                 "ontology folder (default: the installed ontology), or \"none\": a new database "
                 "in open mode, storing any predicate in the quad table");
  app.add_option("--readers", options.backend.reader_count, "read threads (default: 4)")
      ->check(CLI::Range(1, 64));
  app.add_option("--mapped-readers", options.backend.mapped_readers,
                 "read threads whose connection maps the database file (default: 1)")
      ->check(CLI::Range(0, 64));
  int64_t signal_delay_ms = options.signal_limits.delay.count();
  app.add_option("--signal-delay-ms", signal_delay_ms,
                 "longest wait before GraphUpdated announces a change (default: 100)")
      ->check(CLI::Range(int64_t{0}, int64_t{60000}));
  app.add_option("--signal-max-triples", options.signal_limits.max_triples,
                 "most triples in one GraphUpdated signal (default: 4096)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 24));
  size_t max_reply_mib = options.max_reply_bytes >> 20;
  app.add_option("--max-reply-mib", max_reply_mib,
                 "largest plain D-Bus query reply in MiB; larger results must use the FD stream "
                 "(default: 64)")
      ->check(CLI::Range(size_t{1}, size_t{100}));
  size_t stream_buffer_mib = options.stream_memory_bytes >> 20;
  app.add_option("--stream-buffer-mib", stream_buffer_mib,
                 "unread FD-stream bytes kept in memory over all clients, in MiB; the rest waits "
                 "in an unlinked file in the database directory (default: 64)")
      ->check(CLI::Range(size_t{0}, size_t{1} << 20));
  bool no_peer_socket = false;
  app.add_flag("--no-peer-socket", no_peer_socket,
               "serve only on the bus, without the peer-to-peer socket under "
               "$XDG_RUNTIME_DIR/quarry");
  CLI11_PARSE(app, argc, argv);
  options.peer_socket = !no_peer_socket;
  options.max_reply_bytes = max_reply_mib << 20;
  options.stream_memory_bytes = stream_buffer_mib << 20;
  options.signal_limits.delay = std::chrono::milliseconds(signal_delay_ms);
  quarry::engine::Database::LimitProcessHeap(0);
  options.backend.directory = database;
  // "none" is open mode (SCHEMA.md): the base ontology plus the quad table for the rest.
  options.backend.open_mode = ontology == "none";
  if (!options.backend.open_mode) options.backend.ontology_dir = ontology;
  return quarry::ipc::RunStoreService(options);
}
