// bench/ipc driver (issue 4, the seed's IPC study): fetches a whole query result through one
// read path and copies every value into client memory, once per run, and prints what it cost.
//
// Usage: ipc_bench --path direct|fd|dbus|tracker --query TEXT [--runs N]
//                  [--database DIR --ontology DIR]   (direct)
//                  [--chunk-key VAR --chunk-rows N --total-rows N [--prefetch 0|1]]
//                  (dbus: chunked; --prefetch 1 keeps the next chunk's call in flight)
//                  [--bus-name NAME]   (tracker: the endpoint's name on the session bus)
// Paths: direct = Connection::Direct (SQLite in this process); fd = Connection::Bus with the
// Steroids FD stream; dbus (dbus-serial: without prefetch) = Connection::Bus with plain
// SparqlQuery replies, fetched in chunks
// of --chunk-rows when the query text contains `{CHUNK}` (replaced by a FILTER on ?VAR, as
// quarry-store sends at most 64 MiB in one reply), else in one reply; tracker = libtracker-sparql's bus connection to a
// `tracker3 endpoint` (built only when tracker-sparql-3.0 is found).
// Values are appended to one arena (bytes + end offsets), the same for every path, so the copy
// costs the same and no allocator behaviour differs between paths. The arena is cleared between
// runs but keeps its memory: on this VM every fresh page costs 10-15 us (perf: exc_page_fault
// under memmove), so a new 13 MB arena per run added 80-180 ms to any path in the runs where
// glibc handed out fresh pages and ~0 in the others (the "direct 7 ms or 84-92 ms" of the
// plain-text query). Run 0 still starts with an empty arena.
// Output, one TSV line per run on stdout:  path run ms rows bytes cpu_ms
// (cpu_ms = this process's CPU time during the run). Errors go to stderr, exit 1.
#include <fmt/format.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <future>
#include <span>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/ipc/tracker_client.h"
#include "quarry/connection.h"

namespace {

struct Options {
  std::string path;
  std::string query;
  int runs = 3;
  std::string database;
  std::string ontology;
  std::string chunk_key;
  long chunk_rows = 10000;
  long total_rows = 0;
  bool prefetch = false;
  std::string bus_name = "org.quarry.BenchTracker";
};

// Every value of the result, copied.
struct Arena {
  std::string bytes;
  std::vector<uint32_t> ends;
  uint64_t rows = 0;
  void Clear() {
    bytes.clear();
    ends.clear();
    rows = 0;
  }
  void Add(std::string_view value) {
    bytes.append(value);
    ends.push_back(static_cast<uint32_t>(bytes.size()));
  }
};

double CpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

quarry::Result<void> Drain(quarry::Cursor& cursor, Arena& arena) {
  const int columns = cursor.ColumnCount();
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) return quarry::Ok();
    for (int i = 0; i < columns; ++i) arena.Add(cursor.GetString(i));
    ++arena.rows;
  }
}

quarry::Result<void> FetchOnce(quarry::Connection& connection, const std::string& query,
                               Arena& arena) {
  QUARRY_ASSIGN_OR_RETURN(quarry::Cursor cursor, connection.Query(query));
  return Drain(cursor, arena);
}

// The query of the chunk starting at row `first`: a range FILTER on the chunk key, which the
// store answers from the key's index (keyset paging: each chunk reads only its own rows).
std::string ChunkQuery(const Options& options, size_t slot, long first) {
  std::string query = options.query;
  query.replace(slot, 7,
                fmt::format("FILTER(?{0} >= {1} && ?{0} < {2})", options.chunk_key, first,
                            first + options.chunk_rows));
  return query;
}

// Plain D-Bus: one SparqlQuery per chunk of rows; one SparqlQuery for a query without {CHUNK}
// (the four-query table's results fit one reply). With `prefetch`, the call for the next chunk
// runs on the other connection (its own thread) while this thread copies the current one, so
// the store, dbus-daemon and this process work at the same time; without it each call waits
// for the previous chunk to be copied.
quarry::Result<void> FetchChunked(std::span<const std::shared_ptr<quarry::Connection>> connections,
                                  const Options& options, Arena& arena) {
  const size_t slot = options.query.find("{CHUNK}");
  if (slot == std::string::npos) return FetchOnce(*connections[0], options.query, arena);
  if (options.chunk_key.empty() || options.total_rows <= 0) {
    return quarry::Error(quarry::Errc::kInvalidArgument,
                         "--path dbus with {CHUNK} in the query needs --chunk-key and --total-rows");
  }
  if (!options.prefetch) {
    for (long first = 0; first < options.total_rows; first += options.chunk_rows) {
      QUARRY_TRY(FetchOnce(*connections[0], ChunkQuery(options, slot, first), arena));
    }
    return quarry::Ok();
  }
  const auto launch = [&](long first, size_t index) {
    return std::async(std::launch::async,
                      [connection = connections[index], query = ChunkQuery(options, slot, first)] {
                        return connection->Query(query);
                      });
  };
  auto next = launch(0, 0);
  size_t index = 0;
  for (long first = 0; first < options.total_rows; first += options.chunk_rows) {
    QUARRY_ASSIGN_OR_RETURN(quarry::Cursor cursor, next.get());
    index ^= 1;  // the other connection: the cursor's reply stays with this one until drained
    if (first + options.chunk_rows < options.total_rows) {
      next = launch(first + options.chunk_rows, index);
    }
    QUARRY_TRY(Drain(cursor, arena));
  }
  return quarry::Ok();
}

using Fetcher = std::function<quarry::Result<void>(Arena&)>;

// "dbus-serial" is "dbus" with --prefetch 0 under its own name in the results.
bool IsPlainDBus(std::string_view path) { return path == "dbus" || path == "dbus-serial"; }

quarry::Result<Fetcher> MakeFetcher(const Options& options) {
  if (options.path == "tracker") {
    auto client = std::make_shared<bench::TrackerClient>(options.bus_name);
    return Fetcher([client, query = options.query](Arena& arena) -> quarry::Result<void> {
      return client->Fetch(
          query, [&arena](std::string_view value) { arena.Add(value); },
          [&arena] { ++arena.rows; });
    });
  }
  std::shared_ptr<quarry::Connection> connection;
  std::shared_ptr<quarry::Connection> second;  // dbus --prefetch 1: the next chunk's connection
  if (options.path == "direct") {
    QUARRY_ASSIGN_OR_RETURN(connection,
                            quarry::Connection::Direct(options.database, options.ontology));
  } else if (options.path == "fd" || IsPlainDBus(options.path)) {
    QUARRY_ASSIGN_OR_RETURN(connection, quarry::Connection::Bus());
    connection->SetQueryTransport(options.path == "fd" ? quarry::QueryTransport::kFdStream
                                                       : quarry::QueryTransport::kPlainDBus);
    if (IsPlainDBus(options.path) && options.prefetch) {
      QUARRY_ASSIGN_OR_RETURN(second, quarry::Connection::Bus());
      second->SetQueryTransport(quarry::QueryTransport::kPlainDBus);
    }
  } else {
    return quarry::Error(
        quarry::Errc::kInvalidArgument,
        fmt::format("unknown --path {} (direct, fd, dbus, tracker)", options.path));
  }
  if (IsPlainDBus(options.path)) {
    return Fetcher([connections = std::vector{connection, second ? second : connection},
                    options](Arena& arena) { return FetchChunked(connections, options, arena); });
  }
  return Fetcher([connection, query = options.query](Arena& arena) {
    return FetchOnce(*connection, query, arena);
  });
}

bool ParseArgs(int argc, char** argv, Options& options) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--path")
      options.path = value;
    else if (flag == "--query")
      options.query = value;
    else if (flag == "--runs")
      options.runs = std::stoi(value);
    else if (flag == "--database")
      options.database = value;
    else if (flag == "--ontology")
      options.ontology = value;
    else if (flag == "--chunk-key")
      options.chunk_key = value;
    else if (flag == "--chunk-rows")
      options.chunk_rows = std::stol(value);
    else if (flag == "--total-rows")
      options.total_rows = std::stol(value);
    else if (flag == "--prefetch")
      options.prefetch = value == "1";
    else if (flag == "--bus-name")
      options.bus_name = value;
    else
      return false;
  }
  if (options.path == "dbus-serial") options.prefetch = false;
  return argc % 2 == 1 && !options.path.empty() && !options.query.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, options)) {
    std::cerr << "usage: ipc_bench --path direct|fd|dbus|tracker --query TEXT [--runs N] ...\n";
    return 2;
  }
  auto fetch = MakeFetcher(options);
  if (!fetch) {
    std::cerr << "ipc_bench: " << fetch.error().ToString() << "\n";
    return 1;
  }
  Arena arena;
  for (int run = 0; run < options.runs; ++run) {
    arena.Clear();
    const double cpu_before = CpuMs();
    const auto start = std::chrono::steady_clock::now();
    const auto fetched = (*fetch)(arena);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!fetched) {
      std::cerr << "ipc_bench: " << options.path << ": " << fetched.error().ToString() << "\n";
      return 1;
    }
    std::cout << fmt::format("{}\t{}\t{:.1f}\t{}\t{}\t{:.1f}\n", options.path, run, ms, arena.rows,
                             arena.bytes.size(), CpuMs() - cpu_before)
              << std::flush;
  }
  return 0;
}
