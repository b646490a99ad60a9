// BusFixture: a private dbus-daemon for the tests, and quarry-store processes on it.
//
// The daemon listens on a socket in a temp dir; the fixture exports its address as
// DBUS_SESSION_BUS_ADDRESS, so Connection::Bus() and `quarry` children find it as "the session
// bus". StartStore() runs QUARRY_STORE_BIN (a compile definition of the test target) on a
// database folder and waits until it owns org.quarry.Store1. Processes are always reaped
// (ChildProcess). Shared by tests/client and tests/ipc.
// Thread-safety: the test's thread.
#pragma once

#include <doctest/doctest.h>
#include <poll.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "quarry/store_process.h"
#include "tests/ipc/child_process.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {

class BusFixture {
 public:
  BusFixture() {
    const std::filesystem::path config = dir_.Write("bus.conf", Config());
    bus_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{"dbus-daemon", "--nofork", "--print-address=1",
                                 "--config-file=" + config.string()},
        /*capture_stdout=*/true);
    address_ = ReadLine(bus_->stdout_fd());
    REQUIRE_MESSAGE(!address_.empty(), "dbus-daemon did not print its address");
    ::setenv("DBUS_SESSION_BUS_ADDRESS", address_.c_str(), 1);
  }
  ~BusFixture() {
    store_.reset();
    ::unsetenv("DBUS_SESSION_BUS_ADDRESS");
  }
  BusFixture(const BusFixture&) = delete;
  BusFixture& operator=(const BusFixture&) = delete;

  const std::string& address() const { return address_; }
  BusOptions options() const { return BusOptions{std::string(kStoreBusName), address_}; }

  // Runs quarry-store on `database` (with `ontology`, empty = the project's) and waits for it.
  void StartStore(const std::filesystem::path& database, const std::filesystem::path& ontology = {}) {
    std::vector<std::string> argv{QUARRY_STORE_BIN, "--bus", address_, "--database",
                                  database.string()};
    if (!ontology.empty()) argv.insert(argv.end(), {"--ontology", ontology.string()});
    store_ = std::make_unique<ChildProcess>(argv, /*capture_stdout=*/false);
    WaitForOwner(true);
  }
  // SIGTERM, and wait until the process and its name are gone.
  void StopStore() {
    REQUIRE(store_);
    const int status = store_->Stop(SIGTERM, std::chrono::seconds(20));
    CHECK(WIFEXITED(status));
    store_.reset();
    WaitForOwner(false);
  }
  // SIGSTOP / SIGCONT: a store that stops answering for a while (its calls wait) and goes on.
  void FreezeStore(bool frozen) {
    REQUIRE(store_);
    REQUIRE(::kill(store_->pid(), frozen ? SIGSTOP : SIGCONT) == 0);
  }
  // SIGKILL: a store that vanishes without finishing anything.
  void KillStore() {
    REQUIRE(store_);
    store_->Stop(SIGKILL, std::chrono::seconds(5));
    store_.reset();
    WaitForOwner(false);
  }

  // SIGKILL to dbus-daemon: the session bus vanishes under every process on it.
  void KillBus() { bus_->Stop(SIGKILL, std::chrono::seconds(5)); }

  void WaitForOwner(bool wanted) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      const auto owner = StoreProcessId(options());
      REQUIRE_MESSAGE(owner.ok(), (owner ? std::string() : owner.error().ToString()));
      if (owner->has_value() == wanted) return;
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                      (wanted ? "quarry-store did not take its name" : "the name stayed owned"));
      if (wanted && store_) REQUIRE_MESSAGE(!store_->TryReap(), "quarry-store exited at start");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

 private:
  std::string Config() const {
    return "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
           "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
           "<busconfig><type>session</type><listen>unix:path=" +
           (dir_ / "bus").string() +
           "</listen><auth>EXTERNAL</auth><policy context=\"default\">"
           "<allow send_destination=\"*\" eavesdrop=\"true\"/><allow eavesdrop=\"true\"/>"
           "<allow own=\"*\"/></policy></busconfig>\n";
  }

  static std::string ReadLine(int fd) {
    std::string line;
    pollfd watched{fd, POLLIN, 0};
    while (line.empty() || line.back() != '\n') {
      if (::poll(&watched, 1, 10000) <= 0) return {};
      char c = 0;
      if (::read(fd, &c, 1) != 1) return {};
      line += c;
    }
    line.pop_back();
    return line;
  }

  TempDir dir_;
  std::string address_;
  std::unique_ptr<ChildProcess> bus_;
  std::unique_ptr<ChildProcess> store_;
};

}  // namespace quarry::testing
