// quarry-miner-fs: keeps the store in step with the indexed folders (issue 5) and reports on
// org.quarry.Miner.Files. Runs at idle CPU and I/O priority: indexing must never be what the
// user feels after login.
#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <thread>

#include "miner-fs/config.h"
#include "miner-fs/extract_client.h"
#include "miner-fs/index_store.h"
#include "miner-fs/log.h"
#include "miner-fs/miner.h"
#include "miner-fs/miner_adaptor.h"
#include "store/common/process_memory.h"
#include "store/common/unique_fd.h"

namespace {

using namespace quarry::miner;

// SCHED_IDLE, nice 19 and the idle I/O class (ioprio_set has no glibc wrapper).
void LowerPriority() {
  const sched_param param{};
  if (::sched_setscheduler(0, SCHED_IDLE, &param) != 0) (void)::setpriority(PRIO_PROCESS, 0, 19);
  constexpr int kIoprioClassIdle = 3;
  constexpr int kIoprioClassShift = 13;
  constexpr int kIoprioWhoProcess = 1;
  (void)::syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, kIoprioClassIdle << kIoprioClassShift);
}

// Waits for quarry-store on the bus (it may start after us); nullptr when stopped first.
// `quiet`: the wait is said by another caller.
std::unique_ptr<quarry::Connection> ConnectStore(const std::string& address, int stop_fd, bool quiet = false) {
  for (bool is_first = true;; is_first = false) {
    auto connection = quarry::Connection::Bus({std::string(quarry::kStoreBusName), address});
    if (connection) return std::move(*connection);
    if (is_first && !quiet) LogWarning(fmt::format("waiting for the store: {}", connection.error().ToString()));
    pollfd watched{stop_fd, POLLIN, 0};
    if (::poll(&watched, 1, 1000) > 0) return nullptr;
  }
}

// A query that moves `connection` to the store's peer socket (store/client/bus_link.h): the
// handshake is then done off the crawl's path. A failure is not ours to report: the first real
// query meets it again and the miner's store-outage handling takes over.
void WarmUp(quarry::Connection& connection) {
  auto cursor = connection.Query("ASK {}");
  if (cursor) (void)cursor->Next();
}

// SIGUSR1 is a test hook: the miner behaves as after an inotify queue overflow. The thread ends
// when `stop_fd` (SIGTERM/SIGINT) becomes readable.
std::thread WatchOverflowSignal(int usr1_fd, int stop_fd, Miner& miner) {
  return std::thread([usr1_fd, stop_fd, &miner] {
    for (;;) {
      pollfd fds[2] = {{usr1_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
      if (fds[1].revents & POLLIN) return;
      if (!(fds[0].revents & POLLIN)) continue;
      signalfd_siginfo info{};
      (void)!::read(usr1_fd, &info, sizeof(info));
      LogInfo("SIGUSR1: simulating an inotify queue overflow");
      miner.RequestSimulatedOverflow();
    }
  });
}

// Blocks `signals` in this thread (and the threads it starts) and reads them through an fd.
quarry::UniqueFd SignalFd(std::initializer_list<int> signals) {
  sigset_t set;
  sigemptyset(&set);
  for (const int signal : signals) sigaddset(&set, signal);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return quarry::UniqueFd(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
}

int Run(MinerOptions options, const std::string& bus_address) {
  const quarry::UniqueFd stop_fd = SignalFd({SIGTERM, SIGINT});
  const quarry::UniqueFd usr1_fd = SignalFd({SIGUSR1});
  LowerPriority();
  // The crawler's second connection: it asks for the next folders' known children while the
  // current ones are stat'ed. Opened beside the first (each is a handshake with the bus), and
  // warmed there: its first query would otherwise make the crawl's first answer wait for the
  // peer socket's handshake too.
  std::unique_ptr<quarry::Connection> ahead_connection;
  std::thread ahead_connecting([&] {
    ahead_connection = ConnectStore(bus_address, stop_fd.get(), true);
    if (ahead_connection) WarmUp(*ahead_connection);
  });
  std::unique_ptr<quarry::Connection> connection = ConnectStore(bus_address, stop_fd.get());
  ahead_connecting.join();
  if (!connection || !ahead_connection) return 0;
  ConnectionIndexStore store(*connection);
  ConnectionIndexStore ahead_store(*ahead_connection);
  // The main connection warms while the miner's service connects and takes its name (nothing
  // uses the connection before the join; a jthread, so every early return joins it).
  std::jthread warming([&] { WarmUp(*connection); });
  options.ahead_store = &ahead_store;
  PosixFileSystem file_system;
  PendingExtraction extraction;
  MinerStatus status;
  auto extract_client = ExtractClient::Connect(bus_address);
  if (!extract_client) {
    LogWarning(extract_client.error().ToString());
    return 1;
  }
  options.extract_sink = extract_client->get();
  auto miner = Miner::Create(std::move(options), store, file_system, extraction, status);
  if (!miner) {
    LogWarning(miner.error().ToString());
    return 1;
  }
  auto service = MinerService::Start(bus_address, status, **miner);
  if (!service) {
    LogWarning(service.error().ToString());
    return 1;
  }
  std::thread overflow_hook = WatchOverflowSignal(usr1_fd.get(), stop_fd.get(), **miner);
  warming.join();
  auto ran = (*miner)->Run(stop_fd.get());
  // Run() may end on its own (--once, a failure): a pending SIGTERM (blocked, so only readable
  // through the signalfd) ends the hook thread.
  (void)::kill(::getpid(), SIGTERM);
  overflow_hook.join();
  if (!ran) {
    LogWarning(ran.error().ToString());
    return 1;
  }
  LogInfo("stopped");
  return (*service)->lost() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread; two arenas for the crawl and the thread asking the store ahead, which
  // waited for each other's lock on one (process_memory.h).
  quarry::ConfigureMalloc("quarry-miner-fs", quarry::MallocSettings{.arena_max = 2});
  CLI::App app{"quarry-miner-fs: indexes files into the Quarry store (D-Bus name org.quarry.Miner.Files)"};
  std::string bus_address;
  if (const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS")) bus_address = address;
  std::string config_file = DefaultConfigFile().string();
  std::vector<std::string> folders;
  bool once = false;
  app.add_option("--bus", bus_address, "D-Bus address (default: $DBUS_SESSION_BUS_ADDRESS)");
  app.add_option("--config", config_file, "configuration file (default: $XDG_CONFIG_HOME/quarry/quarry.toml)");
  app.add_option("--folder", folders, "index these folders recursively instead of the configured ones");
  app.add_flag("--once", once, "stop once the first crawl is written, without monitoring");
  CLI11_PARSE(app, argc, argv);

  const UserDirs dirs = UserDirs::FromEnvironment();
  auto loaded = LoadConfig(config_file, dirs);
  if (!loaded) {
    LogWarning(loaded.error().ToString());
    return 1;
  }
  for (const std::string& warning : loaded->warnings) LogWarning(fmt::format("{}: {}", config_file, warning));
  MinerOptions options{std::move(loaded->config), config_file};
  if (!folders.empty()) {
    options.config.roots.clear();
    for (const std::string& folder : folders) {
      options.config.roots.push_back({NormalizeFolder(folder), true});
    }
    options.config_file.clear();  // the command line wins over reloads
  }
  options.exit_when_idle = once;
  return Run(std::move(options), bus_address);
}
