#include "store/ipc/store_service.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sdbus-c++/sdbus-c++.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <memory>

#include "store/ipc/dbus_names.h"
#include "store/ipc/event_loop.h"
#include "store/ipc/interfaces.h"
#include "store/ipc/log.h"
#include "store/ipc/outgoing_blocks.h"
#include "store/ipc/peer_server.h"
#include "store/ipc/signal_emitter.h"
#include "store/ipc/status_board.h"
#include "store/ipc/stream_drainer.h"

namespace quarry::ipc {
namespace {

// How long streams to slow clients may go on after a stop signal before they are cut.
constexpr std::chrono::seconds kStreamGrace{5};

// The parts of the running service; members are destroyed bottom-up, so the object leaves
// the bus before the threads that answer for it are gone.
class StoreService {
 public:
  StoreService(sdbus::IConnection& connection, BackendOptions options,
               SignalEmitter::Limits signal_limits, size_t max_reply_bytes)
      : max_reply_bytes_(max_reply_bytes),
        signals_(signal_limits),
        backend_(WithChangeSink(std::move(options)), status_),
        object_(sdbus::createObject(connection, kObjectPath)) {}

  // Registers every interface; the Progress signal follows the status board from now on.
  void Publish() {
    RegisterResources(*object_, backend_, max_reply_bytes_, &peer_methods_);
    RegisterSteroids(*object_, backend_, drainer_, max_reply_bytes_, &peer_address_,
                     &peer_methods_);
    RegisterStatus(*object_, status_);
    RegisterBackup(*object_, backend_, status_);
    object_->finishRegistration();
    signals_.Start(*object_);
    status_.SetListener([this](const std::string& status, double progress) {
      try {
        object_->emitSignal("Progress")
            .onInterface(kStatusInterface)
            .withArguments(status, progress);
      } catch (const sdbus::Error& error) {
        LogWarning(fmt::format("cannot emit Progress: {}", error.what()));
      }
      WakeEventLoop();
    });
  }
  Backend& backend() { return backend_; }
  const PeerMethods& peer_methods() const { return peer_methods_; }
  // Before the event loop starts: what Steroids.GetPeerAddress answers from then on.
  void SetPeerAddress(std::string address) { peer_address_ = std::move(address); }

  void Shutdown() {
    backend_.Shutdown();
    signals_.Stop();  // every write has committed: announce what is still pending
    drainer_.Stop(kStreamGrace);
    status_.SetListener(nullptr);
  }

 private:
  // The writer hands each commit's changes to the signal emitter (signal_emitter.h).
  BackendOptions WithChangeSink(BackendOptions options) {
    options.change_sink = [this](engine::CommittedChanges&& changes) {
      signals_.Submit(std::move(changes), backend_.running_source());
    };
    return options;
  }

  const size_t max_reply_bytes_;
  StatusBoard status_;
  SignalEmitter signals_;
  Backend backend_;
  StreamDrainer drainer_;
  PeerMethods peer_methods_;  // filled by Publish(), read by the peer socket's threads
  std::string peer_address_;
  std::unique_ptr<sdbus::IObject> object_;
};

// The peer socket (peer_server.h); null when it is off or cannot be set up (clients then use the
// bus: the reason is logged).
std::unique_ptr<PeerServer> StartPeerServer(const DaemonOptions& options, StoreService& service) {
  if (!options.peer_socket) return nullptr;
  std::string bus_address = options.bus_address;
  if (bus_address.empty()) {
    const char* session = std::getenv("DBUS_SESSION_BUS_ADDRESS");
    bus_address = session != nullptr ? session : "";
  }
  auto path = PeerSocketPath(kBusName, bus_address, options.backend.directory.string());
  if (!path) {
    LogInfo(fmt::format("no peer socket ({}): clients use the bus", path.error().message()));
    return nullptr;
  }
  auto server = std::make_unique<PeerServer>(service.peer_methods());
  if (auto started = server->Start(*path); !started) {
    LogWarning(fmt::format("no peer socket: {}", started.error().ToString()));
    return nullptr;
  }
  service.SetPeerAddress(server->address());
  LogInfo(fmt::format("peer socket {}", *path));
  return server;
}

std::unique_ptr<sdbus::IConnection> Connect(const std::string& address) {
  if (address.empty()) return sdbus::createSessionBusConnection();
  return sdbus::createSessionBusConnectionWithAddress(address);
}

// Serves until SIGTERM or SIGINT; false when the database could not be opened.
bool Serve(StoreService& service, const sigset_t& stop_signals) {
  service.backend().Start();
  auto opened = service.backend().WaitUntilOpen();
  if (!opened) return false;
  LogInfo(fmt::format("serving {} as {}", service.backend().database_file().string(), kBusName));
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  LogInfo(fmt::format("signal {}: finishing queued work, then stopping", signal_number));
  return true;
}

}  // namespace

std::string DefaultDatabaseDir() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  if (cache && *cache) return std::string(cache) + "/quarry";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/quarry";
}

int RunStoreService(const DaemonOptions& options) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // inherited by every thread started below
  signal(SIGPIPE, SIG_IGN);  // a client closing its stream early is EPIPE, not death

  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<StoreService> service;
  std::unique_ptr<EventLoop> event_loop;
  std::unique_ptr<PeerServer> peer_server;
  // Unread stream bytes past this limit wait in a spill file beside the database (issue 4).
  ProcessStreamBudget().Configure(options.stream_memory_bytes, options.backend.directory);
  try {
    connection = Connect(options.bus_address);
    service = std::make_unique<StoreService>(*connection, options.backend, options.signal_limits,
                                             options.max_reply_bytes);
    service->Publish();
    connection->requestName(kBusName);
    peer_server = StartPeerServer(options, *service);  // after the name: its socket is ours
    event_loop = std::make_unique<EventLoop>(*connection);
    event_loop->Start();
  } catch (const std::exception& error) {  // sdbus::Error, or the loop's eventfd
    LogError(fmt::format("cannot serve {} on the bus: {}", kBusName, error.what()));
    return 1;
  }
  const bool served = Serve(*service, stop_signals);
  if (peer_server) peer_server->StopListening();  // no new peers; connected ones get replies
  // Shut down (last writes commit, pending signals flush) while the name is still ours: clients
  // match GraphUpdated by sender='org.quarry.Store1', which stops matching once it is released.
  service->Shutdown();
  try {
    if (!event_loop->lost()) connection->releaseName(kBusName);
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("cannot release {}: {}", kBusName, error.what()));
  }
  event_loop->Stop();
  peer_server.reset();  // every job has run: the peer connections end (their handlers go next)
  service.reset();
  LogInfo("stopped");
  return served && !event_loop->lost() ? 0 : 1;
}

}  // namespace quarry::ipc
