// QueryTransport::kAuto on a bus connection that cannot pass file descriptors (issue 4): the
// queries fall back to plain D-Bus and return the right rows; kFdStream says why it cannot.
//
// Such a bus is what sd-bus gets from dbus-daemon on a TCP socket, but sd-bus (and so
// sdbus-c++) authenticates with EXTERNAL only, which dbus-daemon refuses over TCP (tried: "Failed
// to flush bus on opening"). NoFdRelay gives the same connection on a unix socket instead: it
// relays bytes between the client and the test's dbus-daemon and answers the client's
// NEGOTIATE_UNIX_FD itself with ERROR, dbus-daemon's answer on TCP, so sd-bus marks the
// connection as unable to pass descriptors, exactly as over TCP.
#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "store/common/unique_fd.h"
#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

UniqueFd UnixSocket() { return UniqueFd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)); }

sockaddr_un SocketAddress(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(path.size() < sizeof address.sun_path);
  path.copy(address.sun_path, path.size());
  return address;
}

bool SendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

// Reads from `fd` into `buffer` until it holds `marker` at or after `from`; false at EOF or
// error.
bool ReadUntil(int fd, std::string& buffer, std::string_view marker, size_t from = 0) {
  char chunk[4096];
  while (buffer.find(marker, from) == std::string::npos) {
    const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
    if (got <= 0) return false;
    buffer.append(chunk, static_cast<size_t>(got));
  }
  return true;
}

void Pump(int from, int to) {
  char chunk[65536];
  for (;;) {
    const ssize_t got = ::recv(from, chunk, sizeof chunk, 0);
    if (got <= 0 || !SendAll(to, std::string_view(chunk, static_cast<size_t>(got)))) break;
  }
  ::shutdown(to, SHUT_WR);
}

class NoFdRelay {
 public:
  // `bus_address`: unix:path=… of the real bus; the relay listens on `socket_path`.
  NoFdRelay(const std::string& bus_address, std::filesystem::path socket_path)
      : path_(std::move(socket_path)) {
    const size_t start = bus_address.find("path=");
    REQUIRE(start != std::string::npos);
    bus_path_ = bus_address.substr(start + 5, bus_address.find(',', start) - start - 5);
    listener_ = UnixSocket();
    const sockaddr_un address = SocketAddress(path_.string());
    REQUIRE(::bind(listener_.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener_.get(), 8) == 0);
    acceptor_ = std::thread([this] { Accept(); });
  }
  ~NoFdRelay() {
    ::shutdown(listener_.get(), SHUT_RDWR);
    acceptor_.join();
    const std::lock_guard lock(mutex_);
    for (const UniqueFd& socket : sockets_) ::shutdown(socket.get(), SHUT_RDWR);
    for (std::thread& thread : threads_) thread.join();
  }
  std::string address() const { return "unix:path=" + path_.string(); }

 private:
  void Accept() {
    for (;;) {
      UniqueFd client(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (!client) return;
      UniqueFd daemon = UnixSocket();
      const sockaddr_un address = SocketAddress(bus_path_);
      if (::connect(daemon.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        return;
      }
      const std::lock_guard lock(mutex_);
      const int client_fd = client.get();
      const int daemon_fd = daemon.get();
      sockets_.push_back(std::move(client));
      sockets_.push_back(std::move(daemon));
      threads_.emplace_back([client_fd, daemon_fd] { Serve(client_fd, daemon_fd); });
    }
  }

  // The authentication lines with NEGOTIATE_UNIX_FD answered here, then bytes both ways.
  static void Serve(int client, int daemon) {
    constexpr std::string_view kNegotiate = "NEGOTIATE_UNIX_FD\r\n";
    std::string from_client;
    if (!ReadUntil(client, from_client, "BEGIN\r\n")) return;
    const size_t negotiate = from_client.find(kNegotiate);
    const bool asked = negotiate != std::string::npos;
    if (asked) from_client.erase(negotiate, kNegotiate.size());
    if (!SendAll(daemon, from_client)) return;
    // sd-bus sends "AUTH EXTERNAL", "DATA" at once; the daemon answers "DATA", then "OK <guid>".
    std::string from_daemon;
    if (!ReadUntil(daemon, from_daemon, "OK ")) return;
    const size_t ok = from_daemon.find("OK ");
    if (!ReadUntil(daemon, from_daemon, "\r\n", ok)) return;
    if (asked) from_daemon.insert(from_daemon.find("\r\n", ok) + 2, "ERROR\r\n");
    if (!SendAll(client, from_daemon)) return;
    std::thread back([client, daemon] { Pump(daemon, client); });
    Pump(client, daemon);
    back.join();
  }

  std::filesystem::path path_;
  std::string bus_path_;
  UniqueFd listener_;
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<UniqueFd> sockets_;
  std::vector<std::thread> threads_;
};

std::string Songs(int count, const std::string& padding) {
  std::string data = kEx + "INSERT DATA {";
  for (int i = 0; i < count; ++i) {
    data += fmt::format(R"( <urn:s{}> a ex:Song ; ex:size {} ; ex:title "t{}{}"@en .)", i, i, i,
                        padding);
  }
  return data + " }";
}

TEST_CASE("Bus queries on a bus that cannot pass descriptors: kAuto falls back to plain D-Bus") {
  StoreFixture store;
  {
    auto writer = store.Bus();
    REQUIRE(writer->Update(Songs(1500, std::string(80, 'p'))).ok());  // ~150 KiB of titles
  }
  NoFdRelay relay(store.bus.address(), store.dir / "relay");
  auto connection = Connection::Bus({std::string(kStoreBusName), relay.address()});
  REQUIRE_MESSAGE(connection.ok(), (connection ? std::string() : connection.error().ToString()));
  Connection& no_fd = **connection;  // no transport set: kAuto
  auto direct = store.Direct();

  // The relay really takes descriptors away: the forced FD stream cannot run, and says why.
  no_fd.SetQueryTransport(QueryTransport::kFdStream);
  const auto refused = no_fd.Query(kEx + "SELECT ?n { <urn:s1> ex:size ?n }");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == Errc::kUnsupported);
  CHECK(refused.error().message().find("cannot pass file descriptors") != std::string::npos);

  no_fd.SetQueryTransport(QueryTransport::kAuto);
  for (const std::string& sparql :
       {kEx + "SELECT ?s ?n { ?s a ex:Song ; ex:size ?n FILTER(?n < 3) } ORDER BY ?n",
        kEx + "SELECT ?t ?n { ?s ex:title ?t ; ex:size ?n } ORDER BY ?n",  // over 64 KiB
        kEx + "SELECT ?t { <urn:none> ex:title ?t }"}) {
    CHECK(QueryRows(no_fd, sparql, /*typed=*/false) == QueryRows(*direct, sparql, false));
  }
  auto statement = no_fd.Prepare(kEx + "SELECT ?t { ?s ex:size ~n ; ex:title ?t }");
  REQUIRE(statement.ok());
  statement->BindInteger("n", 1234);
  auto cursor = statement->Execute();
  REQUIRE(cursor.ok());
  REQUIRE(*cursor->Next());
  CHECK(cursor->GetString(0) == "t1234" + std::string(80, 'p'));
  CHECK_FALSE(*cursor->Next());
  // The connection stayed usable throughout: an update and a query's own error.
  CHECK(no_fd.Update(kEx + "INSERT DATA { <urn:late> a ex:Song ; ex:size 99999 }").ok());
  CHECK(QueryRows(no_fd, kEx + "SELECT ?s { ?s ex:size 99999 }", false) ==
        std::vector<std::vector<std::string>>{{"urn:late"}});
  const auto bad = no_fd.Query(kEx + "SELECT ?t { ?s ex:nope ?t }");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() != Errc::kIo);
}

TEST_CASE("Bus queries: kAuto gives small and large results whole, typed and named") {
  // One pumped call on the caller's thread (pipe_reader.h) for a result within the pipe and
  // for one far over it (the store waits for the client to drain it before it replies).
  StoreFixture store;
  auto connection = store.Bus(QueryTransport::kAuto);
  REQUIRE(connection->Update(Songs(1500, std::string(800, 'p'))).ok());  // ~1.2 MiB of titles
  auto direct = store.Direct();
  for (const std::string& sparql :
       {kEx + "SELECT ?s ?t ?n { ?s ex:title ?t ; ex:size ?n FILTER(?n < 3) } ORDER BY ?n",
        kEx + "SELECT ?s ?t ?n { ?s ex:title ?t ; ex:size ?n } ORDER BY ?n"}) {
    CHECK(QueryRows(*connection, sparql, /*typed=*/true) == QueryRows(*direct, sparql, true));
    auto cursor = connection->Query(sparql);
    REQUIRE(cursor.ok());
    CHECK(cursor->ColumnCount() == 3);
    CHECK(cursor->VariableName(2) == "n");
  }
}

}  // namespace
}  // namespace quarry::testing
