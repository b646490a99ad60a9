// `quarry status --follow` on a private bus: one bus connection for every refresh, and a store
// that goes away and comes back is shown as such. A stand-in miner (org.quarry.Miner.Files
// served by the test) stays "Indexing" so that --follow keeps refreshing until the test says
// Idle.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <poll.h>
#include <sdbus-c++/sdbus-c++.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "miner-fs/miner_adaptor.h"
#include "miner-fs/status_client.h"
#include "tests/ipc/child_process.h"
#include "tests/support/bus_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner {
namespace {

using namespace std::chrono_literals;

// org.quarry.Miner and org.quarry.Miner.Files.Index with what StatusClient::Miner() reads.
class StandInMiner {
 public:
  explicit StandInMiner(const std::string& address)
      : connection_(sdbus::createSessionBusConnectionWithAddress(address)),
        object_(sdbus::createObject(*connection_, kMinerObjectPath)) {
    object_->registerMethod("GetStatus").onInterface(kMinerInterface).implementedAs([this] {
      return std::string(is_idle_ ? "Idle" : "Indexing");
    });
    object_->registerMethod("GetProgress").onInterface(kMinerInterface).implementedAs([] { return 0.5; });
    object_->registerMethod("GetRemainingTime").onInterface(kMinerInterface).implementedAs([] {
      return int32_t{0};
    });
    object_->registerMethod("GetPauseDetails").onInterface(kMinerInterface).implementedAs([] {
      return std::tuple<std::vector<std::string>, std::vector<std::string>>{};
    });
    object_->registerMethod("GetCounts").onInterface(kMinerIndexInterface).implementedAs([] {
      return std::map<std::string, uint64_t>{};
    });
    object_->registerMethod("GetCurrent").onInterface(kMinerIndexInterface).implementedAs([] {
      return std::string();
    });
    object_->registerMethod("GetErrors").onInterface(kMinerIndexInterface).implementedAs([] {
      return std::vector<std::string>{};
    });
    object_->finishRegistration();
    connection_->requestName(kMinerBusName);
    connection_->enterEventLoopAsync();
  }
  ~StandInMiner() { connection_->leaveEventLoop(); }
  void SetIdle() { is_idle_ = true; }

 private:
  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IObject> object_;
  std::atomic<bool> is_idle_ = false;
};

// The bus numbers unique names :1.N in the order connections arrive: the number of a new
// connection tells how many came since the last one asked.
int NextConnectionNumber(const std::string& address) {
  const auto probe = sdbus::createSessionBusConnectionWithAddress(address);
  const std::string name = probe->getUniqueName();
  return std::stoi(name.substr(name.find('.') + 1));
}

// Reads `fd` into `text` until it holds `wanted` after `from`; false at the deadline.
bool ReadUntil(int fd, std::string& text, const std::string& wanted, size_t from = 0) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (text.find(wanted, from) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    pollfd watched{fd, POLLIN, 0};
    if (::poll(&watched, 1, 100) <= 0) continue;
    char buffer[512];
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) return text.find(wanted, from) != std::string::npos;
    text.append(buffer, static_cast<size_t>(got));
  }
  return true;
}

TEST_CASE("StatusClient: the store going away and coming back, on one connection") {
  testing::TempDir dir;
  testing::BusFixture bus;
  bus.StartStore(dir / "db");
  auto client = StatusClient::Connect(bus.address());
  REQUIRE(client.ok());
  auto store = (*client)->Store();
  REQUIRE(store.ok());
  CHECK((store->state == "Idle" || store->state == "Busy"));  // Busy while it starts up
  CHECK((*client)->Miner().error().code() == Errc::kNotFound);
  bus.StopStore();
  CHECK((*client)->Store().error().code() == Errc::kNotFound);
  bus.StartStore(dir / "db");
  store = (*client)->Store();
  REQUIRE(store.ok());
  CHECK((store->state == "Idle" || store->state == "Busy"));
}

TEST_CASE("quarry status --follow: one bus connection, the store shown gone and back") {
  testing::TempDir dir;
  testing::BusFixture bus;
  bus.StartStore(dir / "db");
  StandInMiner miner(bus.address());
  const int before = NextConnectionNumber(bus.address());
  testing::ChildProcess follow({QUARRY_CLI_BIN, "status", "--follow", "--database", (dir / "db").string()},
                               /*capture_stdout=*/true);
  std::string output;
  REQUIRE_MESSAGE(ReadUntil(follow.stdout_fd(), output, "Store         Idle"), output);
  std::this_thread::sleep_for(2s);  // about four refreshes
  CHECK(NextConnectionNumber(bus.address()) - before == 2);  // the command's connection only

  bus.StopStore();
  REQUIRE_MESSAGE(ReadUntil(follow.stdout_fd(), output, "Store         not running"), output);
  const size_t gone = output.find("Store         not running");
  bus.StartStore(dir / "db");
  REQUIRE_MESSAGE(ReadUntil(follow.stdout_fd(), output, "Store         Idle", gone), output);
  miner.SetIdle();
  const int status = follow.Stop(0, 30s);  // signal 0: only waits for --follow to end
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace quarry::miner
