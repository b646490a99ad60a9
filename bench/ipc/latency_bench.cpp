// bench/ipc latency driver (issues 4 and 7): the fixed cost of one small call to quarry-store.
// Measures, on one connection each, many repetitions of
//   ping   org.freedesktop.DBus.Peer.Ping on the store through dbus-daemon (raw sdbus-c++): the
//          floor of any method call (two hops through the daemon, no store work); path "peer":
//          the same on the store's peer socket (Steroids.GetPeerAddress, issue 7), when it has one;
//   auto / fd / dbus   Connection::Bus() with QueryTransport kAuto / kFdStream / kPlainDBus,
//          the whole result read (every value copied), for each --query.
// Prints one TSV line per (what, path): what path n median_us p10_us p90_us rows.
//
// Usage: latency_bench [--runs N] [--warmup N] [--paths auto,fd,dbus] --query TEXT...
// The store is found on the session bus (DBUS_SESSION_BUS_ADDRESS).
#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "quarry/connection.h"

namespace {

struct Options {
  int runs = 200;
  int warmup = 10;
  std::vector<std::string> paths{"auto", "fd", "dbus"};
  std::vector<std::string> queries;
};

using Clock = std::chrono::steady_clock;

// Runs `call` warmup + runs times; prints the median and the 10th/90th percentiles in µs.
bool Measure(const std::string& what, const std::string& path, const Options& options,
             const std::function<bool(uint64_t&)>& call) {
  std::vector<double> micros;
  uint64_t rows = 0;
  for (int i = 0; i < options.warmup + options.runs; ++i) {
    const auto start = Clock::now();
    if (!call(rows)) return false;
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (i >= options.warmup) micros.push_back(us);
  }
  std::sort(micros.begin(), micros.end());
  const auto at = [&micros](double q) {
    return micros[std::min(micros.size() - 1, static_cast<size_t>(q * micros.size()))];
  };
  std::cout << fmt::format("{}\t{}\t{}\t{:.0f}\t{:.0f}\t{:.0f}\t{}\n", what, path, micros.size(),
                           at(0.5), at(0.1), at(0.9), rows)
            << std::flush;
  return true;
}

bool Ping(const Options& options) {
  try {
    auto connection = sdbus::createSessionBusConnection();
    auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
    const auto ping = [](sdbus::IProxy& target) {
      return [&target](uint64_t& rows) {
        target.callMethod("Ping").onInterface("org.freedesktop.DBus.Peer");
        rows = 0;
        return true;
      };
    };
    if (!Measure("ping", "raw", options, ping(*proxy))) return false;
    std::string address;
    try {
      proxy->callMethod("GetPeerAddress")
          .onInterface("org.quarry.Store1.Steroids")
          .storeResultsTo(address);
    } catch (const sdbus::Error&) {
      return true;  // an older store: no peer socket
    }
    if (address.empty()) return true;
    auto peer = sdbus::createSessionBusConnectionWithAddress(address);
    auto peer_proxy = sdbus::createProxy(*peer, "org.quarry.Store1", "/org/quarry/Store1");
    return Measure("ping", "peer", options, ping(*peer_proxy));
  } catch (const sdbus::Error& error) {
    std::cerr << "latency_bench: ping: " << error.what() << "\n";
    return false;
  }
}

bool Query(const Options& options, const std::string& path, const std::string& query) {
  auto connection = quarry::Connection::Bus();
  if (!connection) {
    std::cerr << "latency_bench: " << connection.error().ToString() << "\n";
    return false;
  }
  (*connection)
      ->SetQueryTransport(path == "fd"     ? quarry::QueryTransport::kFdStream
                          : path == "dbus" ? quarry::QueryTransport::kPlainDBus
                                           : quarry::QueryTransport::kAuto);
  std::string arena;
  return Measure(query.substr(0, 40), path, options, [&](uint64_t& rows) {
    auto cursor = (*connection)->Query(query);
    if (!cursor) {
      std::cerr << "latency_bench: " << path << ": " << cursor.error().ToString() << "\n";
      return false;
    }
    rows = 0;
    arena.clear();
    const int columns = cursor->ColumnCount();
    for (;;) {
      auto has_row = cursor->Next();
      if (!has_row) {
        std::cerr << "latency_bench: " << path << ": " << has_row.error().ToString() << "\n";
        return false;
      }
      if (!*has_row) return true;
      for (int i = 0; i < columns; ++i) arena.append(cursor->GetString(i));
      ++rows;
    }
  });
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--runs") {
      options.runs = std::stoi(value);
    } else if (flag == "--warmup") {
      options.warmup = std::stoi(value);
    } else if (flag == "--paths") {
      options.paths = SplitCommas(value);
    } else if (flag == "--query") {
      options.queries.push_back(value);
    } else {
      std::cerr << "usage: latency_bench [--runs N] [--warmup N] [--paths auto,fd,dbus] "
                   "--query TEXT...\n";
      return 2;
    }
  }
  if (options.runs <= 0) return 2;
  std::cout << "what\tpath\tn\tmedian_us\tp10_us\tp90_us\trows\n";
  if (!Ping(options)) return 1;
  for (const std::string& query : options.queries) {
    for (const std::string& path : options.paths) {
      if (!Query(options, path, query)) return 1;
    }
  }
  return 0;
}
