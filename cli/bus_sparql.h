// `quarry sparql` without --database: the request goes to the running quarry-store over D-Bus
// (rows through the FD stream as QueryTransport::kAuto picks it, plain SparqlQuery with --no-fd), printed in every --format the
// --database path offers, by the same writers; CONSTRUCT and DESCRIBE come through the FD stream.
// Thread-safety: main thread only.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace quarry::cli {

struct SparqlArgs;

struct BusQueryArgs {
  bool force_fd = false;     // --fd: the FD stream
  bool force_plain = false;  // --no-fd: plain SparqlQuery; neither: QueryTransport::kAuto
};

// Makes --database optional and adds --fd / --no-fd.
void AddBusQueryOptions(CLI::App& command, BusQueryArgs& args);
// Runs `text` (a query, or an update when `is_update`) through quarry-store.
int RunBusSparql(const SparqlArgs& args, const std::string& text, bool is_update);

}  // namespace quarry::cli
