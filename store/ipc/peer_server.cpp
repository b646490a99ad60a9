#include "store/ipc/peer_server.h"

#include <fcntl.h>
#include <link.h>
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
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sdbus-c++/Error.h>

#include "store/ipc/dbus_names.h"
#include "store/ipc/log.h"
#include "store/ipc/poll_timeout.h"

// sdbus-c++ 1.2 sends every message call through its internal interface sdbus::internal::ISdBus
// (each Message holds a pointer to one), whose header it does not install. A message of a peer
// connection gets an ISdBus of its own (PeerBus below) that takes the connection's lock around
// each sd-bus call, as sdbus-c++'s own SdBus does for a bus connection. The declaration must
// match libsdbus-c++ 1.2.0's vtable slot for slot: the order below is that of
// `readelf -rW libsdbus-c++.so.1.2.0` on `vtable for sdbus::internal::SdBus` (destructor, then
// these 46 functions). Only the message functions are used for peer messages; the others fail.
namespace sdbus::internal {
class ISdBus {
 public:
  struct PollData;
  virtual ~ISdBus() = default;
  virtual sd_bus_message* sd_bus_message_ref(sd_bus_message* m) = 0;
  virtual sd_bus_message* sd_bus_message_unref(sd_bus_message* m) = 0;
  virtual int sd_bus_send(sd_bus* bus, sd_bus_message* m, uint64_t* cookie) = 0;
  virtual int sd_bus_call(sd_bus*, sd_bus_message*, uint64_t, sd_bus_error*, sd_bus_message**) = 0;
  virtual int sd_bus_call_async(sd_bus*, sd_bus_slot**, sd_bus_message*, sd_bus_message_handler_t,
                                void*, uint64_t) = 0;
  virtual int sd_bus_message_new(sd_bus*, sd_bus_message**, uint8_t) = 0;
  virtual int sd_bus_message_new_method_call(sd_bus*, sd_bus_message**, const char*, const char*,
                                             const char*, const char*) = 0;
  virtual int sd_bus_message_new_signal(sd_bus*, sd_bus_message**, const char*, const char*,
                                        const char*) = 0;
  virtual int sd_bus_message_new_method_return(sd_bus_message* call, sd_bus_message** m) = 0;
  virtual int sd_bus_message_new_method_error(sd_bus_message* call, sd_bus_message** m,
                                              const sd_bus_error* e) = 0;
  virtual int sd_bus_set_method_call_timeout(sd_bus*, uint64_t) = 0;
  virtual int sd_bus_get_method_call_timeout(sd_bus*, uint64_t*) = 0;
  virtual int sd_bus_emit_properties_changed_strv(sd_bus*, const char*, const char*, char**) = 0;
  virtual int sd_bus_emit_object_added(sd_bus*, const char*) = 0;
  virtual int sd_bus_emit_object_removed(sd_bus*, const char*) = 0;
  virtual int sd_bus_emit_interfaces_added_strv(sd_bus*, const char*, char**) = 0;
  virtual int sd_bus_emit_interfaces_removed_strv(sd_bus*, const char*, char**) = 0;
  virtual int sd_bus_open(sd_bus**) = 0;
  virtual int sd_bus_open_system(sd_bus**) = 0;
  virtual int sd_bus_open_user(sd_bus**) = 0;
  virtual int sd_bus_open_user_with_address(sd_bus**, const char*) = 0;
  virtual int sd_bus_open_system_remote(sd_bus**, const char*) = 0;
  virtual int sd_bus_request_name(sd_bus*, const char*, uint64_t) = 0;
  virtual int sd_bus_release_name(sd_bus*, const char*) = 0;
  virtual int sd_bus_get_unique_name(sd_bus*, const char**) = 0;
  virtual int sd_bus_add_object_vtable(sd_bus*, sd_bus_slot**, const char*, const char*,
                                       const sd_bus_vtable*, void*) = 0;
  virtual int sd_bus_add_object_manager(sd_bus*, sd_bus_slot**, const char*) = 0;
  virtual int sd_bus_add_match(sd_bus*, sd_bus_slot**, const char*, sd_bus_message_handler_t,
                               void*) = 0;
  virtual sd_bus_slot* sd_bus_slot_unref(sd_bus_slot*) = 0;
  virtual int sd_bus_new(sd_bus**) = 0;
  virtual int sd_bus_start(sd_bus*) = 0;
  virtual int sd_bus_process(sd_bus*, sd_bus_message**) = 0;
  virtual int sd_bus_get_poll_data(sd_bus*, PollData*) = 0;
  virtual int sd_bus_flush(sd_bus*) = 0;
  virtual sd_bus* sd_bus_flush_close_unref(sd_bus*) = 0;
  virtual sd_bus* sd_bus_close_unref(sd_bus*) = 0;
  virtual int sd_bus_message_set_destination(sd_bus_message*, const char*) = 0;
  virtual int sd_bus_query_sender_creds(sd_bus_message*, uint64_t, sd_bus_creds**) = 0;
  virtual sd_bus_creds* sd_bus_creds_unref(sd_bus_creds*) = 0;
  virtual int sd_bus_creds_get_pid(sd_bus_creds*, pid_t*) = 0;
  virtual int sd_bus_creds_get_uid(sd_bus_creds*, uid_t*) = 0;
  virtual int sd_bus_creds_get_euid(sd_bus_creds*, uid_t*) = 0;
  virtual int sd_bus_creds_get_gid(sd_bus_creds*, gid_t*) = 0;
  virtual int sd_bus_creds_get_egid(sd_bus_creds*, gid_t*) = 0;
  virtual int sd_bus_creds_get_supplementary_gids(sd_bus_creds*, const gid_t**) = 0;
  virtual int sd_bus_creds_get_selinux_context(sd_bus_creds*, const char**) = 0;
};
}  // namespace sdbus::internal

namespace quarry::ipc {
namespace {

// A method call of a peer connection as sdbus-c++'s MethodCall (its constructor is protected).
// The connection pointer is only used to send the message itself as a call, which never
// happens to a received call; sdbus-c++ asserts that it is set, so it points at a placeholder.
class PeerCall final : public sdbus::MethodCall {
 public:
  PeerCall(sd_bus_message* message, sdbus::internal::ISdBus* bus)
      : sdbus::MethodCall(message, bus, Placeholder(), sdbus::adopt_message_t{}) {}

 private:
  static const sdbus::internal::IConnection* Placeholder() {
    static const char placeholder = 0;
    return reinterpret_cast<const sdbus::internal::IConnection*>(&placeholder);
  }
};

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

// Whether the libsdbus-c++ this process runs is the one whose ISdBus vtable is declared above:
// the build checked the headers' version (store/ipc/CMakeLists.txt), this the loaded file
// (a later 1.x keeps the soname libsdbus-c++.so.1 but may reorder the interface).
Result<void> CheckSdbusRuntime() {
#if !defined(QUARRY_SDBUS_ISDBUS_CHECKED)
  return Error(Errc::kUnsupported,
               "built against an sdbus-c++ other than 1.2.0, whose internal message interface "
               "the peer socket was not checked against");
#else
  std::string loaded;
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        const std::string_view name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        if (name.find("/libsdbus-c++.so") == std::string_view::npos) return 0;
        std::error_code error;
        *static_cast<std::string*>(out) =
            std::filesystem::canonical(std::filesystem::path(name), error).filename().string();
        return 1;
      },
      &loaded);
  if (loaded == "libsdbus-c++.so.1.2.0") return Ok();
  return Error(Errc::kUnsupported,
               fmt::format("the loaded sdbus-c++ library is '{}', not libsdbus-c++.so.1.2.0 whose "
                           "internal message interface the peer socket was checked against",
                           loaded.empty() ? "unknown" : loaded));
#endif
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
class PeerServer::Peer final : public sdbus::internal::ISdBus {
 public:
  Peer(const PeerMethods& methods, unsigned id, int wake_server)
      : methods_(methods), id_(id), wake_server_(wake_server),
        wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
  ~Peer() override {
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
  // The thread ended and no sdbus-c++ message refers to this connection any more.
  bool Reapable() const { return closed_ && held_messages_ == 0; }
  bool closed() const { return closed_; }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  // sdbus::internal::ISdBus: the message functions under the lock.
  sd_bus_message* sd_bus_message_ref(sd_bus_message* m) override {
    std::lock_guard lock(mutex_);
    ++held_messages_;
    return ::sd_bus_message_ref(m);
  }
  sd_bus_message* sd_bus_message_unref(sd_bus_message* m) override {
    std::lock_guard lock(mutex_);
    --held_messages_;
    return ::sd_bus_message_unref(m);
  }
  int sd_bus_send(sd_bus* bus, sd_bus_message* m, uint64_t* cookie) override {
    std::lock_guard lock(mutex_);
    const int r = ::sd_bus_send(bus, m, cookie);
    // A reply that did not fit in the socket waits in sd-bus's queue: the thread must now wait
    // for POLLOUT, not only for calls (as WakeEventLoop() for the bus connection).
    if (r >= 0 && t_running != this) {
      const int events = ::sd_bus_get_events(bus_);
      if (events > 0 && (events & POLLOUT) != 0) WriteWake(wake_.get());
    }
    return r;
  }
  int sd_bus_message_new_method_return(sd_bus_message* call, sd_bus_message** m) override {
    std::lock_guard lock(mutex_);
    const int r = ::sd_bus_message_new_method_return(call, m);
    if (r >= 0) ++held_messages_;
    return r;
  }
  int sd_bus_message_new_method_error(sd_bus_message* call, sd_bus_message** m,
                                      const sd_bus_error* e) override {
    std::lock_guard lock(mutex_);
    const int r = ::sd_bus_message_new_method_error(call, m, e);
    if (r >= 0) ++held_messages_;
    return r;
  }
  int sd_bus_message_set_destination(sd_bus_message* m, const char* destination) override {
    std::lock_guard lock(mutex_);
    return ::sd_bus_message_set_destination(m, destination);
  }
  // Not used for the messages of a peer connection.
  int sd_bus_call(sd_bus*, sd_bus_message*, uint64_t, sd_bus_error*, sd_bus_message**) override {
    return -ENOTSUP;
  }
  int sd_bus_call_async(sd_bus*, sd_bus_slot**, sd_bus_message*, sd_bus_message_handler_t, void*,
                        uint64_t) override {
    return -ENOTSUP;
  }
  int sd_bus_message_new(sd_bus*, sd_bus_message**, uint8_t) override { return -ENOTSUP; }
  int sd_bus_message_new_method_call(sd_bus*, sd_bus_message**, const char*, const char*,
                                     const char*, const char*) override {
    return -ENOTSUP;
  }
  int sd_bus_message_new_signal(sd_bus*, sd_bus_message**, const char*, const char*,
                                const char*) override {
    return -ENOTSUP;
  }
  int sd_bus_set_method_call_timeout(sd_bus*, uint64_t) override { return -ENOTSUP; }
  int sd_bus_get_method_call_timeout(sd_bus*, uint64_t*) override { return -ENOTSUP; }
  int sd_bus_emit_properties_changed_strv(sd_bus*, const char*, const char*, char**) override {
    return -ENOTSUP;
  }
  int sd_bus_emit_object_added(sd_bus*, const char*) override { return -ENOTSUP; }
  int sd_bus_emit_object_removed(sd_bus*, const char*) override { return -ENOTSUP; }
  int sd_bus_emit_interfaces_added_strv(sd_bus*, const char*, char**) override { return -ENOTSUP; }
  int sd_bus_emit_interfaces_removed_strv(sd_bus*, const char*, char**) override {
    return -ENOTSUP;
  }
  int sd_bus_open(sd_bus**) override { return -ENOTSUP; }
  int sd_bus_open_system(sd_bus**) override { return -ENOTSUP; }
  int sd_bus_open_user(sd_bus**) override { return -ENOTSUP; }
  int sd_bus_open_user_with_address(sd_bus**, const char*) override { return -ENOTSUP; }
  int sd_bus_open_system_remote(sd_bus**, const char*) override { return -ENOTSUP; }
  int sd_bus_request_name(sd_bus*, const char*, uint64_t) override { return -ENOTSUP; }
  int sd_bus_release_name(sd_bus*, const char*) override { return -ENOTSUP; }
  int sd_bus_get_unique_name(sd_bus*, const char**) override { return -ENOTSUP; }
  int sd_bus_add_object_vtable(sd_bus*, sd_bus_slot**, const char*, const char*,
                               const sd_bus_vtable*, void*) override {
    return -ENOTSUP;
  }
  int sd_bus_add_object_manager(sd_bus*, sd_bus_slot**, const char*) override { return -ENOTSUP; }
  int sd_bus_add_match(sd_bus*, sd_bus_slot**, const char*, sd_bus_message_handler_t,
                       void*) override {
    return -ENOTSUP;
  }
  sd_bus_slot* sd_bus_slot_unref(sd_bus_slot*) override { return nullptr; }
  int sd_bus_new(sd_bus**) override { return -ENOTSUP; }
  int sd_bus_start(sd_bus*) override { return -ENOTSUP; }
  int sd_bus_process(sd_bus*, sd_bus_message**) override { return -ENOTSUP; }
  int sd_bus_get_poll_data(sd_bus*, PollData*) override { return -ENOTSUP; }
  int sd_bus_flush(sd_bus*) override { return -ENOTSUP; }
  sd_bus* sd_bus_flush_close_unref(sd_bus*) override { return nullptr; }
  sd_bus* sd_bus_close_unref(sd_bus*) override { return nullptr; }
  int sd_bus_query_sender_creds(sd_bus_message*, uint64_t, sd_bus_creds**) override {
    return -ENOTSUP;
  }
  sd_bus_creds* sd_bus_creds_unref(sd_bus_creds*) override { return nullptr; }
  int sd_bus_creds_get_pid(sd_bus_creds*, pid_t*) override { return -ENOTSUP; }
  int sd_bus_creds_get_uid(sd_bus_creds*, uid_t*) override { return -ENOTSUP; }
  int sd_bus_creds_get_euid(sd_bus_creds*, uid_t*) override { return -ENOTSUP; }
  int sd_bus_creds_get_gid(sd_bus_creds*, gid_t*) override { return -ENOTSUP; }
  int sd_bus_creds_get_egid(sd_bus_creds*, gid_t*) override { return -ENOTSUP; }
  int sd_bus_creds_get_supplementary_gids(sd_bus_creds*, const gid_t**) override {
    return -ENOTSUP;
  }
  int sd_bus_creds_get_selinux_context(sd_bus_creds*, const char**) override { return -ENOTSUP; }

 private:
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
  static int OnCall(sd_bus_message* m, void* userdata, sd_bus_error*) {
    auto* peer = static_cast<Peer*>(userdata);
    if (!::sd_bus_message_is_method_call(m, nullptr, nullptr)) return 0;
    const char* interface = ::sd_bus_message_get_interface(m);
    const char* member = ::sd_bus_message_get_member(m);
    const auto handler =
        peer->methods_.find(PeerMethodKey(interface ? interface : "", member ? member : ""));
    if (handler == peer->methods_.end()) {
      return ::sd_bus_reply_method_errorf(
          m, SD_BUS_ERROR_UNKNOWN_METHOD,
          "%s.%s is not served on quarry-store's peer connection (only on the bus)",
          interface ? interface : "", member ? member : "");
    }
    ++peer->held_messages_;  // the MethodCall below adopts this reference
    sdbus::MethodCall call = PeerCall(::sd_bus_message_ref(m), peer);
    try {
      handler->second(std::move(call));
    } catch (const sdbus::Error& error) {  // e.g. arguments of the wrong type
      return ::sd_bus_reply_method_errorf(m, error.getName().c_str(), "%s",
                                          error.getMessage().c_str());
    }
    return 1;
  }

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
  std::atomic<long> held_messages_{0};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> closed_{false};
  std::thread thread_;
};

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
  QUARRY_TRY(CheckSdbusRuntime());
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
      // A message of it is still held (cannot happen once the backend stopped): keep the memory
      // rather than free what a reply may still use.
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
