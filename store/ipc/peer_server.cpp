#include "store/ipc/peer_server.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "store/ipc/dbus_names.h"
#include "store/ipc/log.h"
#include "store/ipc/poll_timeout.h"

namespace quarry::ipc {
namespace {

// FNV-1a: a name that stays the same from one run of the store to the next.
uint64_t StableHash(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// A D-Bus address value: bytes outside [-0-9A-Za-z_/.\*] as %xx.
std::string EscapeAddressValue(std::string_view value) {
  std::string escaped;
  for (const unsigned char c : value) {
    if (std::isalnum(c) || std::strchr("-_/.\\*", c) != nullptr) {
      escaped += static_cast<char>(c);
    } else {
      escaped += fmt::format("%{:02x}", c);
    }
  }
  return escaped;
}

void WriteWake(int fd) {
  const uint64_t one = 1;
  (void)!::write(fd, &one, sizeof one);
}

void DrainWake(int fd) {
  uint64_t count = 0;
  (void)!::read(fd, &count, sizeof count);
}

// The folder for the socket: created 0700, or an existing one that is ours, 0700, no symlink.
Result<void> PrepareFolder(const std::filesystem::path& folder) {
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    return Error(Errc::kIo, fmt::format("cannot create {}: {}", folder.string(),
                                        std::strerror(errno)));
  }
  struct stat info {};
  if (::lstat(folder.c_str(), &info) != 0) {
    return Error(Errc::kIo,
                 fmt::format("cannot stat {}: {}", folder.string(), std::strerror(errno)));
  }
  if (!S_ISDIR(info.st_mode) || info.st_uid != ::geteuid() || (info.st_mode & 0777) != 0700) {
    return Error(Errc::kIo,
                 fmt::format("{} is not a folder of this user with mode 0700", folder.string()));
  }
  return Ok();
}

}  // namespace

// One accepted connection: its sd-bus in server mode, the lock every use of it takes, and the
// thread that reads calls and writes out queued replies.
class PeerServer::Peer final {
 public:
  Peer(const PeerMethods& methods, unsigned id, int wake_server)
      : methods_(methods), id_(id), wake_server_(wake_server),
        wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
  ~Peer() {
    if (thread_.joinable()) thread_.join();
    if (bus_ != nullptr) ::sd_bus_flush_close_unref(bus_);
  }

  Result<void> Start(UniqueFd socket) {
    if (!wake_) return Error(Errc::kIo, "cannot create an eventfd");
    sd_id128_t server_id{};
    int r = ::sd_bus_new(&bus_);
    if (r >= 0) r = ::sd_id128_randomize(&server_id);
    if (r >= 0) r = ::sd_bus_set_fd(bus_, socket.get(), socket.get());
    if (r >= 0) socket.release();  // the bus owns it now
    if (r >= 0) r = ::sd_bus_set_server(bus_, 1, server_id);
    if (r >= 0) r = ::sd_bus_negotiate_fds(bus_, 1);
    if (r >= 0) r = ::sd_bus_add_filter(bus_, nullptr, &Peer::OnFilter, this);
    if (r >= 0) r = ::sd_bus_add_object(bus_, nullptr, kObjectPath, &Peer::OnCall, this);
    if (r >= 0) r = ::sd_bus_start(bus_);
    if (r < 0) return Error(Errc::kIo, fmt::format("cannot serve a peer: {}", std::strerror(-r)));
    thread_ = std::thread([this] { Run(); });
    return Ok();
  }
  void RequestStop() {
    stopping_ = true;
    WriteWake(wake_.get());
  }
  // The thread ended and no call of this connection waits for its reply any more.
  bool Reapable() const { return closed_ && held_calls_ == 0; }
  bool closed() const { return closed_; }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  class CallResponder;

  // After a send under the lock: a reply that did not fit in the socket waits in sd-bus's
  // queue, so the connection's thread must now wait for POLLOUT, not only for calls (as
  // WakeEventLoop() for the bus connection).
  void AfterSend() {
    if (t_running == this) return;
    const int events = ::sd_bus_get_events(bus_);
    if (events > 0 && (events & POLLOUT) != 0) WriteWake(wake_.get());
  }

  // The client's sd-bus (an sdbus-c++ connection to an address) says Hello first, as to a bus.
  static int OnFilter(sd_bus_message* m, void* userdata, sd_bus_error*) {
    auto* peer = static_cast<Peer*>(userdata);
    if (!::sd_bus_message_is_method_call(m, "org.freedesktop.DBus", nullptr)) return 0;
    if (std::strcmp(::sd_bus_message_get_member(m), "Hello") == 0) {
      const std::string name = fmt::format(":1.{}", peer->id_);
      return ::sd_bus_reply_method_return(m, "s", name.c_str());
    }
    return ::sd_bus_reply_method_errorf(m, SD_BUS_ERROR_UNKNOWN_METHOD,
                                        "the peer connection of quarry-store is not a bus");
  }

  // Runs on the peer's thread inside sd_bus_process(), the lock held.
  static int OnCall(sd_bus_message* m, void* userdata, sd_bus_error*);

  void Run() {
    t_running = this;
    for (;;) {
      pollfd watched[2] = {{-1, 0, 0}, {wake_.get(), POLLIN, 0}};
      uint64_t deadline = UINT64_MAX;
      {
        std::lock_guard lock(mutex_);
        int r = 0;
        while ((r = ::sd_bus_process(bus_, nullptr)) > 0) {
        }
        if (r >= 0) r = watched[0].fd = ::sd_bus_get_fd(bus_);
        if (r >= 0) r = watched[0].events = static_cast<short>(::sd_bus_get_events(bus_));
        if (r >= 0) r = ::sd_bus_get_timeout(bus_, &deadline);
        if (r < 0 || stopping_) {
          if (r >= 0) (void)::sd_bus_flush(bus_);  // the last replies
          ::sd_bus_close(bus_);
          break;
        }
      }
      if (::poll(watched, 2, PollTimeoutMs(deadline)) > 0 && (watched[1].revents & POLLIN) != 0) {
        DrainWake(wake_.get());
      }
    }
    closed_ = true;
    WriteWake(wake_server_);  // the acceptor frees this connection once nothing holds it
  }

  static thread_local const Peer* t_running;  // the connection this thread runs, if any

  const PeerMethods& methods_;
  const unsigned id_;
  const int wake_server_;
  UniqueFd wake_;
  std::recursive_mutex mutex_;  // every sd-bus call on bus_ or its messages
  sd_bus* bus_ = nullptr;
  std::atomic<long> held_calls_{0};  // CallResponders alive
  std::atomic<bool> stopping_{false};
  std::atomic<bool> closed_{false};
  std::thread thread_;
};

// The reply to one call of a peer connection: sd-bus's own reply functions under the
// connection's lock. It keeps the call (and so the connection) until it is destroyed.
class PeerServer::Peer::CallResponder final : public Responder {
 public:
  CallResponder(Peer& peer, sd_bus_message* call) : peer_(peer) {
    ++peer_.held_calls_;
    std::lock_guard lock(peer_.mutex_);
    call_ = ::sd_bus_message_ref(call);
  }
  ~CallResponder() override {
    {
      std::lock_guard lock(peer_.mutex_);
      ::sd_bus_message_unref(call_);
    }
    --peer_.held_calls_;  // last: the acceptor may free the connection from here on
  }
  CallResponder(const CallResponder&) = delete;
  CallResponder& operator=(const CallResponder&) = delete;

  Result<void> Reply(const Fill& fill) override {
    sd_bus_message* reply = nullptr;
    int r = 0;
    {
      std::lock_guard lock(peer_.mutex_);
      r = ::sd_bus_message_new_method_return(call_, &reply);
    }
    if (r < 0) {
      LogWarning(fmt::format("peer socket: cannot create a reply: {}", std::strerror(-r)));
      return Ok();
    }
    // The values go into the message alone (no connection state): no lock while the rows are
    // stepped and appended.
    Result<void> filled = fill(reply);
    std::lock_guard lock(peer_.mutex_);
    if (filled) {
      r = ::sd_bus_send(nullptr, reply, nullptr);
      if (r >= 0) peer_.AfterSend();
    }
    ::sd_bus_message_unref(reply);
    if (!filled) return filled;
    if (r < 0) LogWarning(fmt::format("peer socket: cannot send a reply: {}", std::strerror(-r)));
    return Ok();
  }

  void ReplyError(const std::string& name, const std::string& message) override {
    const sd_bus_error error{name.c_str(), message.c_str(), 0};
    std::lock_guard lock(peer_.mutex_);
    const int r = ::sd_bus_reply_method_error(call_, &error);
    if (r >= 0) {
      peer_.AfterSend();
    } else {
      LogWarning(fmt::format("peer socket: cannot send an error reply: {}", std::strerror(-r)));
    }
  }

 private:
  Peer& peer_;
  sd_bus_message* call_ = nullptr;
};

int PeerServer::Peer::OnCall(sd_bus_message* m, void* userdata, sd_bus_error*) {
  auto* peer = static_cast<Peer*>(userdata);
  if (!::sd_bus_message_is_method_call(m, nullptr, nullptr)) return 0;
  const char* interface = ::sd_bus_message_get_interface(m);
  const char* member = ::sd_bus_message_get_member(m);
  const auto method =
      peer->methods_.find(PeerMethodKey(interface ? interface : "", member ? member : ""));
  if (method == peer->methods_.end()) {
    return ::sd_bus_reply_method_errorf(
        m, SD_BUS_ERROR_UNKNOWN_METHOD,
        "%s.%s is not served on quarry-store's peer connection (only on the bus)",
        interface ? interface : "", member ? member : "");
  }
  const std::string& signature = method->second.signature;
  if (::sd_bus_message_has_signature(m, signature.c_str()) <= 0) {
    return ::sd_bus_reply_method_errorf(m, SD_BUS_ERROR_INVALID_ARGS,
                                        "%s.%s takes arguments of signature '%s', not '%s'",
                                        interface, member, signature.c_str(),
                                        ::sd_bus_message_get_signature(m, 1));
  }
  method->second.run(m, std::make_shared<CallResponder>(*peer, m));
  return 1;
}

thread_local const PeerServer::Peer* PeerServer::Peer::t_running = nullptr;

Result<std::string> PeerSocketPath(const std::string& bus_name, const std::string& bus_address,
                                   const std::string& database_dir) {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime == nullptr || *runtime == '\0') {
    return Error(Errc::kUnsupported, "XDG_RUNTIME_DIR is not set");
  }
  std::error_code ignored;
  const std::string database = std::filesystem::absolute(database_dir, ignored).lexically_normal();
  const uint64_t hash = StableHash(bus_name + '\n' + bus_address + '\n' + database);
  std::string path = fmt::format("{}/quarry/store-{:016x}.sock", runtime, hash);
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    return Error(Errc::kUnsupported, fmt::format("the socket path {} is too long", path));
  }
  return path;
}

PeerServer::PeerServer(const PeerMethods& methods) : methods_(methods) {}
PeerServer::~PeerServer() { Stop(); }

Result<void> PeerServer::Start(const std::string& path) {
  QUARRY_TRY(PrepareFolder(std::filesystem::path(path).parent_path()));
  wake_ = UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  listener_ = UniqueFd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!wake_ || !listener_) {
    return Error(Errc::kIo, fmt::format("cannot create a socket: {}", std::strerror(errno)));
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  // We own the bus name: a socket left at our path is a dead store's.
  if (::unlink(path.c_str()) == 0) LogInfo(fmt::format("replaced a stale socket {}", path));
  if (::bind(listener_.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::chmod(path.c_str(), 0600) != 0 || ::listen(listener_.get(), 128) != 0) {
    const int error = errno;
    listener_.reset();
    return Error(Errc::kIo, fmt::format("cannot listen on {}: {}", path, std::strerror(error)));
  }
  path_ = path;
  address_ = "unix:path=" + EscapeAddressValue(path);
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return Ok();
}

void PeerServer::AcceptLoop() {
  for (;;) {
    pollfd watched[2] = {{listener_.get(), POLLIN, 0}, {wake_.get(), POLLIN, 0}};
    // A closed connection still held by a running job is looked at again every few seconds.
    const int ready = ::poll(watched, 2, 5000);
    if (ready < 0 && errno != EINTR) {
      LogWarning(fmt::format("peer socket: poll: {}", std::strerror(errno)));
      return;
    }
    if (watched[1].revents & POLLIN) DrainWake(wake_.get());
    if (listening_stopped_) return;
    if (watched[0].revents & POLLIN) Accept();
    ReapClosed(false);
  }
}

void PeerServer::Accept() {
  for (;;) {
    UniqueFd socket(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!socket) return;  // EAGAIN: none left
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (::getsockopt(socket.get(), SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0 ||
        credentials.uid != ::geteuid()) {
      LogWarning(fmt::format("peer socket: refused a client of uid {} (pid {})",
                             static_cast<long>(credentials.uid),
                             static_cast<long>(credentials.pid)));
      continue;
    }
    std::lock_guard lock(mutex_);
    auto peer = std::make_unique<Peer>(methods_, next_id_++, wake_.get());
    if (auto started = peer->Start(std::move(socket)); !started) {
      LogWarning(started.error().ToString());
      continue;
    }
    peers_.push_back(std::move(peer));
  }
}

void PeerServer::ReapClosed(bool all) {
  std::lock_guard lock(mutex_);
  for (auto it = peers_.begin(); it != peers_.end();) {
    if ((*it)->Reapable()) {
      it = peers_.erase(it);
    } else if (all && (*it)->closed()) {
      // A call of it still waits for its reply (cannot happen once the backend stopped): keep
      // the memory rather than free what a reply may still use.
      LogWarning("peer socket: a closed connection is still in use; not freed");
      (void)it->release();
      it = peers_.erase(it);
    } else {
      ++it;
    }
  }
}

void PeerServer::StopListening() {
  if (acceptor_.joinable()) {
    listening_stopped_ = true;
    WriteWake(wake_.get());
    acceptor_.join();
  }
  if (listener_) {
    listener_.reset();
    ::unlink(path_.c_str());
  }
}

void PeerServer::Stop() {
  StopListening();
  {
    std::lock_guard lock(mutex_);
    for (auto& peer : peers_) peer->RequestStop();
  }
  {
    std::lock_guard lock(mutex_);
    for (auto& peer : peers_) peer->Join();
  }
  ReapClosed(true);
}

}  // namespace quarry::ipc
