// A private bus with quarry-store (the project's ontology) and quarry-miner-fs on a corpus
// from ../shared/corpus/gen-corpus, for the functional tests. Every wait has a deadline.
#pragma once

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "miner-fs/file_uri.h"
#include "quarry/connection.h"
#include "tests/ipc/child_process.h"
#include "tests/support/bus_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner::testing {

using namespace std::chrono_literals;

class MinerFixture {
 public:
  MinerFixture() {
    const std::string command = fmt::format("{}/corpus/gen-corpus --out '{}' --files 100 --quiet --jobs 1",
                                            QUARRY_SHARED_DIR, corpus().string());
    REQUIRE_MESSAGE(std::system(command.c_str()) == 0, command);
    dir.Write("config/quarry.toml", "");
    bus.StartStore(dir / "db");
    auto connection = Connection::Bus(bus.options());
    REQUIRE_MESSAGE(connection.ok(), (connection ? std::string() : connection.error().ToString()));
    store = std::move(*connection);
  }
  std::filesystem::path corpus() const { return dir / "corpus"; }

  // `stderr_file` (when set) receives the miner's log.
  void StartMiner(const std::filesystem::path& stderr_file = {}) {
    miner = std::make_unique<quarry::testing::ChildProcess>(
        std::vector<std::string>{QUARRY_MINER_BIN, "--bus", bus.address(), "--config",
                                 (dir / "config/quarry.toml").string(), "--folder", corpus().string()},
        /*capture_stdout=*/false, stderr_file);
  }
  void StopMiner() {
    const int status = miner->Stop(SIGTERM, 20s);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    miner.reset();
  }

  // Calls a method of the miner with no arguments; nullopt while the miner is not on the bus.
  template <typename T>
  std::optional<T> CallMiner(const char* interface, const char* method) {
    try {
      if (!bus_connection) bus_connection = sdbus::createSessionBusConnectionWithAddress(bus.address());
      auto proxy = sdbus::createProxy(*bus_connection, "org.quarry.Miner.Files", "/org/quarry/Miner/Files");
      T value{};
      proxy->callMethod(method).onInterface(interface).storeResultsTo(value);
      return value;
    } catch (const sdbus::Error&) {
      return std::nullopt;
    }
  }

  void WaitUntilIdle() {
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    for (;;) {
      REQUIRE_MESSAGE(!miner->TryReap(), "quarry-miner-fs exited");
      if (CallMiner<std::string>("org.quarry.Miner", "GetStatus") == std::optional<std::string>("Idle")) return;
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "the miner did not become idle");
      std::this_thread::sleep_for(20ms);
    }
  }

  std::map<std::string, uint64_t> Counts() {
    auto counts = CallMiner<std::map<std::string, uint64_t>>("org.quarry.Miner.Files.Index", "GetCounts");
    REQUIRE(counts.has_value());
    return *counts;
  }

  std::string Value(const std::string& sparql) {
    auto cursor = store->Query(sparql);
    REQUIRE_MESSAGE(cursor.ok(), (cursor ? std::string() : cursor.error().ToString()));
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    return *has_row ? std::string(cursor->GetString(0)) : std::string();
  }

  // Waits until `sparql`'s single value is `expected` (the monitor works behind the test).
  void WaitForValue(const std::string& sparql, const std::string& expected) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    for (;;) {
      const std::string value = Value(sparql);
      if (value == expected) return;
      if (std::chrono::steady_clock::now() >= deadline) {
        FAIL_CHECK(fmt::format("waited for {} to be '{}', got '{}'", sparql, expected, value));
        return;
      }
      std::this_thread::sleep_for(20ms);
    }
  }

  std::string CountUrl(const std::filesystem::path& path) {
    return fmt::format("SELECT (COUNT(?f) AS ?c) {{ ?f nie:url {} }}", SparqlString(FileUri(path.string())));
  }

  quarry::testing::TempDir dir;
  quarry::testing::BusFixture bus;
  std::unique_ptr<Connection> store;
  std::unique_ptr<sdbus::IConnection> bus_connection;
  std::unique_ptr<quarry::testing::ChildProcess> miner;
};

}  // namespace quarry::miner::testing
