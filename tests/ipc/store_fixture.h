// StoreFixture: a private dbus-daemon and a quarry-store (built by this tree, path from CMake)
// serving a fresh database over the small test ontology, plus StoreClient, a minimal
// sdbus-c++ client of the org.quarry.Store1 interfaces. Both processes stop with the fixture.
#pragma once

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <poll.h>
#include <sdbus-c++/sdbus-c++.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/ipc/child_process.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {

using Rows = std::vector<std::vector<std::string>>;
using Options = std::map<std::string, sdbus::Variant>;

inline constexpr const char* kResources = "org.quarry.Store1.Resources";
inline constexpr const char* kSteroids = "org.quarry.Store1.Steroids";
inline constexpr const char* kStatus = "org.quarry.Store1.Status";
inline constexpr const char* kBackup = "org.quarry.Store1.Backup";

// A dbus-daemon of our own: its address is read from --print-address. `config` names a bus
// configuration file instead of the session bus's (e.g. one with a smaller message limit).
class PrivateBus {
 public:
  explicit PrivateBus(const std::filesystem::path& config = {})
      : daemon_({"dbus-daemon",
                 config.empty() ? std::string("--session") : "--config-file=" + config.string(),
                 "--print-address", "--nofork"},
                true) {
    pollfd ready{daemon_.stdout_fd(), POLLIN, 0};
    while (address_.empty() || address_.back() != '\n') {
      REQUIRE(::poll(&ready, 1, 10000) == 1);
      char buffer[256];
      const ssize_t got = ::read(daemon_.stdout_fd(), buffer, sizeof buffer);
      REQUIRE(got > 0);
      address_.append(buffer, static_cast<size_t>(got));
    }
    address_.pop_back();
  }
  const std::string& address() const { return address_; }

 private:
  ChildProcess daemon_;
  std::string address_;
};

class StoreClient {
 public:
  explicit StoreClient(const std::string& address)
      : connection_(sdbus::createSessionBusConnectionWithAddress(address)),
        proxy_(sdbus::createProxy(*connection_, "org.quarry.Store1", "/org/quarry/Store1")) {}

  Rows Query(const std::string& query) {
    Rows rows;
    proxy_->callMethod("SparqlQuery")
        .onInterface(kResources)
        .withArguments(query)
        .storeResultsTo(rows);
    return rows;
  }
  void Update(const std::string& update) {
    proxy_->callMethod("SparqlUpdate").onInterface(kResources).withArguments(update);
  }
  void Batch(const std::vector<std::string>& updates, const Options& options = {}) {
    proxy_->callMethod("BatchSparqlUpdate").onInterface(kResources).withArguments(updates, options);
  }
  void Load(const std::string& uri) {
    proxy_->callMethod("Load").onInterface(kResources).withArguments(uri);
  }
  // Steroids.Query with the write end of a pipe the caller made (taken over here).
  std::vector<std::string> Stream(const std::string& query, int write_end,
                                  const Options& options = {}) {
    std::vector<std::string> names;
    const sdbus::UnixFd fd(write_end, sdbus::adopt_fd);
    proxy_->callMethod("Query")
        .onInterface(kSteroids)
        .withArguments(query, fd, options)
        .storeResultsTo(names);
    return names;
  }
  std::string Status() {
    std::string status;
    proxy_->callMethod("GetStatus").onInterface(kStatus).storeResultsTo(status);
    return status;
  }
  double Progress() {
    double progress = 0;
    proxy_->callMethod("GetProgress").onInterface(kStatus).storeResultsTo(progress);
    return progress;
  }
  std::string StatusMessage() {
    std::string message;
    proxy_->callMethod("GetStatusMessage").onInterface(kStatus).storeResultsTo(message);
    return message;
  }
  void Save(const std::string& path) {
    proxy_->callMethod("Save").onInterface(kBackup).withArguments(path);
  }
  void Restore(const std::string& path) {
    proxy_->callMethod("Restore").onInterface(kBackup).withArguments(path);
  }
  std::string Introspect() {
    std::string xml;
    proxy_->callMethod("Introspect")
        .onInterface("org.freedesktop.DBus.Introspectable")
        .storeResultsTo(xml);
    return xml;
  }
  bool NameHasOwner(const std::string& name) {
    auto bus = sdbus::createProxy(*connection_, "org.freedesktop.DBus", "/org/freedesktop/DBus");
    bool owned = false;
    bus->callMethod("NameHasOwner")
        .onInterface("org.freedesktop.DBus")
        .withArguments(name)
        .storeResultsTo(owned);
    return owned;
  }

 private:
  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IProxy> proxy_;
};

// The D-Bus error of `call` as "name: message"; "" when it succeeded.
inline std::string ErrorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const sdbus::Error& error) {
    return error.getName() + ": " + error.getMessage();
  }
  return "";
}

// A session bus configuration whose messages may be at most `max_message_bytes` long.
inline std::string BusConfigWithMessageLimit(size_t max_message_bytes) {
  return fmt::format(
      R"(<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_message_size">{}</limit>
</busconfig>
)",
      max_message_bytes);
}

class StoreFixture {
 public:
  // `bus_config`: the text of the private bus's configuration file; empty = the session bus's.
  explicit StoreFixture(const std::string& bus_config = {})
      : bus_(WriteBusConfig(dir_, bus_config)) {
    dir_.Write("ontology/10-base.ontology", kTestBase);
    dir_.Write("ontology/20-ex.ontology", kTestDomain);
  }

  std::filesystem::path database_dir() const { return dir_.path() / "db"; }
  const TempDir& dir() const { return dir_; }
  const std::string& address() const { return bus_.address(); }
  StoreClient Client() const { return StoreClient(bus_.address()); }

  // Starts quarry-store (with `extra_args`; `ontology` replaces the test ontology, e.g. "none")
  // and waits until it owns its bus name.
  void Start(const std::vector<std::string>& extra_args = {}, const std::string& ontology = {}) {
    REQUIRE_FALSE(store_);
    std::vector<std::string> argv{
        QUARRY_STORE_BINARY,
        "--bus",
        bus_.address(),
        "--database",
        database_dir().string(),
        "--ontology",
        ontology.empty() ? (dir_.path() / "ontology").string() : ontology};
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    store_.emplace(argv, false);
    StoreClient client(bus_.address());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!client.NameHasOwner("org.quarry.Store1")) {
      REQUIRE_FALSE(store_->TryReap());  // it died instead of serving
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // Stops quarry-store with `signal_number`; returns its wait status.
  int Stop(int signal_number = SIGTERM) {
    REQUIRE(store_);
    const int status = store_->Stop(signal_number, std::chrono::seconds(20));
    store_.reset();
    return status;
  }
  ChildProcess& process() { return *store_; }

 private:
  static std::filesystem::path WriteBusConfig(const TempDir& dir, const std::string& config) {
    if (config.empty()) return {};
    dir.Write("bus.conf", config);
    return dir.path() / "bus.conf";
  }

  TempDir dir_;
  PrivateBus bus_;
  std::optional<ChildProcess> store_;
};

}  // namespace quarry::testing
