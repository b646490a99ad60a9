// ExtractServiceFixture: a private dbus-daemon, quarry-store on a fresh database and
// quarry-extract (QUARRY_EXTRACT_BIN) on them, plus the calls the tests make: Queue, GetStatus,
// GetMetadata through sdbus-c++, and queries through a Bus() connection to the store.
// Thread-safety: the test's thread.
#pragma once

#include <doctest/doctest.h>
#include <sdbus-c++/sdbus-c++.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "quarry/connection.h"
#include "tests/support/bus_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {

inline constexpr const char* kExtractName = "org.quarry.Extract1";
inline constexpr const char* kExtractPath = "/org/quarry/Extract1";

using ExtractStatus = std::map<std::string, sdbus::Variant>;

class ExtractServiceFixture {
 public:
  ExtractServiceFixture() { bus_.StartStore(data_ / "db"); }

  TempDir& files() { return files_; }

  // Starts quarry-extract with `extra` options and waits until it answers GetStatus. Its
  // config file is config_file() (absent unless WriteConfig ran), never the user's. With
  // `capture_stderr`, its log goes to a file (ExtractLog()) instead of the test's stderr.
  void StartExtract(const std::vector<std::string>& extra = {}, bool capture_stderr = false) {
    std::vector<std::string> argv{QUARRY_EXTRACT_BIN, "--bus", bus_.address(), "--config",
                                  config_file().string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    if (capture_stderr) {
      argv.insert(argv.begin(), {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>>" + log_file().string()});
    }
    extract_ = std::make_unique<ChildProcess>(argv, /*capture_stdout=*/false);
    WaitFor([this] { return TryStatus().has_value(); }, "quarry-extract did not come up");
  }
  std::filesystem::path config_file() const { return data_ / "quarry.toml"; }
  std::filesystem::path log_file() const { return data_ / "extract.log"; }
  void WriteConfig(const std::string& toml) { data_.Write("quarry.toml", toml); }
  std::string ExtractLog() const {
    std::ifstream file(log_file());
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }
  // The store vanishes (SIGKILL) and comes back on the same database.
  void KillStore() { bus_.KillStore(); }
  void FreezeStore(bool frozen) { bus_.FreezeStore(frozen); }
  void RestartStore() { bus_.StartStore(data_ / "db"); }
  const std::string& bus_address() const { return bus_.address(); }
  void StopExtract() {
    REQUIRE(extract_);
    const int status = extract_->Stop(SIGTERM, std::chrono::seconds(20));
    CHECK(WIFEXITED(status));
    extract_.reset();
    proxy_.reset();
  }
  bool ExtractRunning() { return extract_ && !extract_->TryReap(); }

  void Queue(const std::vector<std::string>& urls) {
    Proxy().callMethod("Queue").onInterface(kExtractName).withArguments(urls);
  }
  std::string GetMetadata(const std::string& url) {
    std::string sparql;
    Proxy().callMethod("GetMetadata").onInterface(kExtractName).withArguments(url, std::string())
        .storeResultsTo(sparql);
    return sparql;
  }
  ExtractStatus Status() {
    auto status = TryStatus();
    REQUIRE_MESSAGE(status.has_value(), "GetStatus failed: is quarry-extract alive?");
    return *status;
  }
  static uint64_t Count(const ExtractStatus& status, const std::string& key) {
    return status.at(key).get<uint64_t>();
  }
  // Waits until the service is idle with extracted + failed + skipped == `files`.
  ExtractStatus WaitDone(uint64_t files) {
    ExtractStatus status;
    WaitFor([&] {
      status = Status();
      return status.at("state").get<std::string>() == "idle" &&
             Count(status, "extracted") + Count(status, "failed") + Count(status, "skipped") ==
                 files;
    }, "quarry-extract did not finish its files");
    return status;
  }
  std::vector<int32_t> WorkerPids() { return Status().at("worker_pids").get<std::vector<int32_t>>(); }
  // The first worker's pid once it is ready (listed) and, with `other_than`, a replacement.
  int32_t ReadyWorker(int32_t other_than = 0) {
    int32_t pid = 0;
    WaitFor([&] {
      const auto pids = WorkerPids();
      pid = pids.empty() ? 0 : pids.front();
      return pid != 0 && pid != other_than;
    }, "no ready worker");
    return pid;
  }

  Connection& Store() {
    if (!store_) {
      auto connection = Connection::Bus(bus_.options());
      REQUIRE_MESSAGE(connection.ok(), connection.error().ToString());
      store_ = std::move(*connection);
    }
    return *store_;
  }
  // Rows of a query as text ("" for unbound), with the qxo: prefix declared.
  std::vector<std::vector<std::string>> Rows(const std::string& query) {
    auto cursor = Store().Query("PREFIX qxo: <http://quarry.gnome.invalid/ontology/v1/qxo#>\n" + query);
    REQUIRE_MESSAGE(cursor.ok(), cursor.error().ToString());
    std::vector<std::vector<std::string>> rows;
    for (;;) {
      auto more = cursor->Next();
      REQUIRE(more.ok());
      if (!*more) return rows;
      std::vector<std::string> row;
      for (int column = 0; column < cursor->ColumnCount(); ++column) {
        row.emplace_back(cursor->GetString(column));
      }
      rows.push_back(std::move(row));
    }
  }

  static void WaitFor(const std::function<bool()>& done, const char* what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!done()) {
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, what);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

 private:
  sdbus::IProxy& Proxy() {
    if (!connection_) connection_ = sdbus::createSessionBusConnectionWithAddress(bus_.address());
    if (!proxy_) proxy_ = sdbus::createProxy(*connection_, kExtractName, kExtractPath);
    return *proxy_;
  }
  std::optional<ExtractStatus> TryStatus() {
    try {
      ExtractStatus status;
      Proxy().callMethod("GetStatus").onInterface(kExtractName).storeResultsTo(status);
      return status;
    } catch (const sdbus::Error&) {
      return std::nullopt;
    }
  }

  TempDir data_;
  TempDir files_;
  BusFixture bus_;
  std::unique_ptr<ChildProcess> extract_;
  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IProxy> proxy_;
  std::unique_ptr<Connection> store_;
};

// Unix mtime of a file in microseconds, as quarry-extract reads it.
inline int64_t MtimeMicros(const std::string& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1'000'000 + info.st_mtim.tv_nsec / 1000;
}

}  // namespace quarry::testing
