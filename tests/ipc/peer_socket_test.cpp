// Issue 7: quarry-store's peer-to-peer D-Bus socket (store/ipc/peer_server.h) — the same rows
// and updates as through dbus-daemon, the client library's use of it and its fallback to the bus,
// the socket's life cycle (0700 folder, stale file replaced, removed at exit), a client of
// another uid refused, and many clients at once.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "quarry/connection.h"
#include "store/client/bus_link.h"
#include "store/client/row_stream_cursor.h"
#include "store/ipc/raw_message.h"
#include "tests/ipc/steroids_reader.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

const std::string kAll = "SELECT ?s ?n { ?s a ex:Song ; ex:title ?n } ORDER BY ?s";

// XDG_RUNTIME_DIR of this test (inherited by the store it starts), restored afterwards.
class RuntimeDir {
 public:
  RuntimeDir() { ::setenv("XDG_RUNTIME_DIR", dir_.path().c_str(), 1); }
  ~RuntimeDir() { ::unsetenv("XDG_RUNTIME_DIR"); }
  const std::filesystem::path& path() const { return dir_.path(); }

 private:
  TempDir dir_;
};

void InsertSongs(StoreClient& client, int count) {
  std::string update = "INSERT DATA {";
  for (int i = 0; i < count; ++i) {
    update += fmt::format(" <urn:song-{:03}> a ex:Song ; ex:title \"title {}\" .", i, i);
  }
  client.Update(update + " }");
}

std::string PeerAddressOnBus(const std::string& bus_address) {
  auto connection = sdbus::createSessionBusConnectionWithAddress(bus_address);
  auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
  std::string address;
  proxy->callMethod("GetPeerAddress").onInterface(kSteroids).storeResultsTo(address);
  return address;
}

std::string PathOf(const std::string& peer_address) {
  const std::string prefix = "unix:path=";
  REQUIRE(peer_address.rfind(prefix, 0) == 0);
  return peer_address.substr(prefix.size());
}

// Steroids.QueryRows on `connection`, decoded.
Rows QueryRows(sdbus::IConnection& connection, const std::string& query) {
  auto proxy = sdbus::createProxy(connection, "org.quarry.Store1", "/org/quarry/Store1");
  auto call = proxy->createMethodCall(kSteroids, "QueryRows");
  call << query << Options{};
  auto reply = proxy->callMethod(call);
  std::vector<std::string> names;
  reply >> names;
  RowStreamCursor cursor(std::string(ipc::ReadByteArray(reply)), names);
  Rows rows;
  for (;;) {
    auto has_row = cursor.Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    std::vector<std::string> row;
    for (int column = 0; column < cursor.ColumnCount(); ++column) {
      row.emplace_back(cursor.GetString(column));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// Every row of kAll through the client library, as strings.
Rows LibraryRows(Connection& connection) {
  auto cursor = connection.Query(kAll);
  REQUIRE_MESSAGE(cursor.ok(), (cursor ? std::string() : cursor.error().ToString()));
  Rows rows;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    rows.push_back({std::string(cursor->GetString(0)), std::string(cursor->GetString(1))});
  }
  return rows;
}

// A BusLink's first RunPeer(): whether it went through the peer connection.
bool LinkUsesPeer(const std::string& bus_address) {
  BusLink link(BusOptions{std::string(kStoreBusName), bus_address});
  auto pinged = link.RunPeer([](sdbus::IProxy& proxy) -> Result<void> {
    proxy.callMethod("Ping").onInterface("org.freedesktop.DBus.Peer");
    return Ok();
  });
  REQUIRE_MESSAGE(pinged.ok(), (pinged ? std::string() : pinged.error().ToString()));
  return link.on_peer();
}

size_t OpenFds(pid_t pid) {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator(fmt::format("/proc/{}/fd", pid))) {
    ++count;
  }
  return count;
}

TEST_CASE("peer socket: the same rows and updates as through the bus, in a 0700 folder") {
  RuntimeDir runtime;
  StoreFixture store;
  store.Start();
  StoreClient bus = store.Client();
  InsertSongs(bus, 40);

  const std::string address = PeerAddressOnBus(store.address());
  REQUIRE_FALSE(address.empty());
  const std::filesystem::path socket = PathOf(address);
  CHECK(socket.parent_path() == runtime.path() / "quarry");
  struct stat folder {};
  REQUIRE(::stat(socket.parent_path().c_str(), &folder) == 0);
  CHECK((folder.st_mode & 0777) == 0700);
  CHECK(std::filesystem::is_socket(socket));

  // Raw calls on a connection straight to the store: QueryRows and SparqlQuery.
  auto peer = sdbus::createSessionBusConnectionWithAddress(address);
  const Rows through_bus = bus.Query(kAll);
  REQUIRE(through_bus.size() == 40);
  CHECK(QueryRows(*peer, kAll) == through_bus);
  auto proxy = sdbus::createProxy(*peer, "org.quarry.Store1", "/org/quarry/Store1");
  Rows plain;
  proxy->callMethod("SparqlQuery")
      .onInterface(kResources)
      .withArguments(kAll)
      .storeResultsTo(plain);
  CHECK(plain == through_bus);
  // An update through the peer is seen on the bus; a bad one fails with the store's error.
  proxy->callMethod("SparqlUpdate")
      .onInterface(kResources)
      .withArguments(std::string("INSERT DATA { <urn:song-900> a ex:Song ; ex:title \"peer\" }"));
  CHECK(bus.Query(kAll).size() == 41);
  CHECK(ErrorOf([&] {
          proxy->callMethod("SparqlUpdate")
              .onInterface(kResources)
              .withArguments(std::string("INSERT DATA { nonsense"));
        }).rfind("org.quarry.Store1.Error.", 0) == 0);
  // What the peer socket does not serve says so (Status stays on the bus).
  CHECK(ErrorOf([&] {
          std::string status;
          proxy->callMethod("GetStatus").onInterface(kStatus).storeResultsTo(status);
        }).rfind("org.freedesktop.DBus.Error.UnknownMethod", 0) == 0);

  // The client library takes the peer socket, with the same rows on every transport.
  CHECK(LinkUsesPeer(store.address()));
  auto connection = Connection::Bus(BusOptions{std::string(kStoreBusName), store.address()});
  REQUIRE(connection.ok());
  const Rows automatic = LibraryRows(**connection);
  CHECK(automatic.size() == 41);
  (*connection)->SetQueryTransport(QueryTransport::kFdStream);
  CHECK(LibraryRows(**connection) == automatic);
  (*connection)->SetQueryTransport(QueryTransport::kPlainDBus);
  CHECK(LibraryRows(**connection) == automatic);
  REQUIRE((*connection)->Update("INSERT DATA { <urn:song-901> a ex:Song ; ex:title \"lib\" }")
              .ok());
  CHECK(bus.Query(kAll).size() == 42);
}

TEST_CASE("peer socket: removed at exit, a stale file replaced at start") {
  RuntimeDir runtime;
  StoreFixture store;
  store.Start();
  const std::string address = PeerAddressOnBus(store.address());
  const std::string path = PathOf(address);
  REQUIRE(std::filesystem::exists(path));
  CHECK(WIFEXITED(store.Stop()));
  CHECK_FALSE(std::filesystem::exists(path));

  // A socket file nobody listens on, as a store killed with SIGKILL leaves it.
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un name{};
    name.sun_family = AF_UNIX;
    std::snprintf(name.sun_path, sizeof name.sun_path, "%s", path.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&name), sizeof name) == 0);
    ::close(fd);
  }
  REQUIRE(std::filesystem::exists(path));
  store.Start();
  CHECK(PeerAddressOnBus(store.address()) == address);
  CHECK(LinkUsesPeer(store.address()));
  auto peer = sdbus::createSessionBusConnectionWithAddress(address);
  CHECK(QueryRows(*peer, kAll).empty());
}

TEST_CASE("peer socket: clients fall back to the bus without it") {
  RuntimeDir runtime;
  StoreFixture store;

  SUBCASE("the store started with --no-peer-socket") {
    store.Start({"--no-peer-socket"});
    CHECK(PeerAddressOnBus(store.address()).empty());
    CHECK_FALSE(std::filesystem::exists(runtime.path() / "quarry"));
  }
  SUBCASE("the socket file deleted") {
    store.Start();
    const std::string address = PeerAddressOnBus(store.address());
    REQUIRE_FALSE(address.empty());
    REQUIRE(std::filesystem::remove(PathOf(address)));
  }
  StoreClient bus = store.Client();
  InsertSongs(bus, 5);
  CHECK_FALSE(LinkUsesPeer(store.address()));
  auto connection = Connection::Bus(BusOptions{std::string(kStoreBusName), store.address()});
  REQUIRE(connection.ok());
  CHECK(LibraryRows(**connection).size() == 5);
  REQUIRE((*connection)->Update("INSERT DATA { <urn:song-901> a ex:Song ; ex:title \"bus\" }")
              .ok());
  CHECK(LibraryRows(**connection).size() == 6);
}

TEST_CASE("peer socket: a client of another uid is refused") {
  if (::geteuid() != 0) {
    MESSAGE("needs root to connect as another uid; the uid check is not exercised");
    return;
  }
  RuntimeDir runtime;
  StoreFixture store;
  store.Start();
  const std::string path = PathOf(PeerAddressOnBus(store.address()));
  // Let uid 65534 reach the socket file, so that only the store's SO_PEERCRED check stands.
  std::filesystem::permissions(runtime.path(), std::filesystem::perms::all);
  std::filesystem::permissions(std::filesystem::path(path).parent_path(),
                               std::filesystem::perms::all);
  std::filesystem::permissions(path, std::filesystem::perms::all);

  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // As uid 65534: connect, start the EXTERNAL handshake; the store must close without a word.
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un name{};
    name.sun_family = AF_UNIX;
    std::snprintf(name.sun_path, sizeof name.sun_path, "%s", path.c_str());
    if (::connect(fd, reinterpret_cast<sockaddr*>(&name), sizeof name) != 0) ::_exit(4);
    const std::string hello = std::string(1, '\0') + "AUTH EXTERNAL 3635353334\r\n";
    (void)!::send(fd, hello.data(), hello.size(), MSG_NOSIGNAL);  // closed already: no SIGPIPE
    pollfd readable{fd, POLLIN, 0};
    if (::poll(&readable, 1, 10000) != 1) ::_exit(5);
    char reply[64];
    const ssize_t got = ::read(fd, reply, sizeof reply);
    ::_exit(got <= 0 ? 0 : 1);  // EOF or reset: refused; "OK ...": let in
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The store goes on serving its own user.
  CHECK(LinkUsesPeer(store.address()));
}

TEST_CASE("peer socket: many clients at once, and closed ones freed") {
  RuntimeDir runtime;
  StoreFixture store;
  store.Start();
  StoreClient bus = store.Client();
  InsertSongs(bus, 30);
  const Rows expected = bus.Query(kAll);

  constexpr int kClients = 8;
  std::vector<std::string> failures(kClients);
  // Round 0 warms every reader thread's connection (each opens its -wal file on its first
  // read); the store's descriptors are counted after it. Round 1 must give back all it takes.
  size_t fds_before = 0;
  for (int round_of_clients = 0; round_of_clients < 2; ++round_of_clients) {
    if (round_of_clients == 1) fds_before = OpenFds(store.process().pid());
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i) {
      threads.emplace_back([&, i] {
        auto connection = Connection::Bus(BusOptions{std::string(kStoreBusName), store.address()});
        if (!connection) {
          failures[i] = connection.error().ToString();
          return;
        }
        for (int round = 0; round < 50; ++round) {
          auto cursor = (*connection)->Query(kAll);
          if (!cursor) {
            failures[i] = cursor.error().ToString();
            return;
          }
          size_t rows = 0;
          for (auto next = cursor->Next(); next && *next; next = cursor->Next()) ++rows;
          if (rows != expected.size()) failures[i] = fmt::format("{} rows", rows);
        }
      });
    }
    for (auto& thread : threads) thread.join();
  }
  for (const auto& failure : failures) CHECK(failure.empty());
  for (int i = 0; i < kClients; ++i) CHECK(LinkUsesPeer(store.address()));

  // Every peer connection closed: the store frees them (their sockets), whatever the count.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (OpenFds(store.process().pid()) > fds_before &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(OpenFds(store.process().pid()) <= fds_before);
  CHECK(QueryRows(*sdbus::createSessionBusConnectionWithAddress(PeerAddressOnBus(store.address())),
                  kAll) == expected);
}

// The replies the peer connection builds itself (store/ipc/served_method.h): errors under the
// method's own names, a reply larger than the socket takes at once, a descriptor passed in.
TEST_CASE("peer socket: error replies, a reply of many writes, a passed descriptor") {
  RuntimeDir runtime;
  StoreFixture store;
  store.Start();
  StoreClient bus = store.Client();
  const std::string address = PeerAddressOnBus(store.address());
  REQUIRE_FALSE(address.empty());
  StoreClient peer(address);

  SUBCASE("errors name what failed, as on the bus") {
    const auto same_error = [&](const std::function<void(StoreClient&)>& call) {
      const std::string on_bus = ErrorOf([&] { call(bus); });
      const std::string on_peer = ErrorOf([&] { call(peer); });
      CHECK_FALSE(on_peer.empty());
      CHECK(on_peer == on_bus);
      return on_peer;
    };
    CHECK(same_error([](StoreClient& c) { c.Query("SELECT nonsense {"); })
              .rfind("org.quarry.Store1.Error.Parse", 0) == 0);
    CHECK(same_error([](StoreClient& c) { c.Update("INSERT DATA { nonsense"); })
              .rfind("org.quarry.Store1.Error.Parse", 0) == 0);
    CHECK(same_error([](StoreClient& c) {
            c.Batch({"INSERT DATA { <urn:a> a ex:Song }"},
                    Options{{"source", sdbus::Variant(std::string("robot"))}});
          }).rfind("org.quarry.Store1.Error.InvalidArgument", 0) == 0);
    CHECK(same_error([](StoreClient& c) {
            c.Batch({"INSERT DATA { <urn:a> a ex:Song }"}, Options{{"source", sdbus::Variant(7)}});
          }).find("option 'source' must be a string") != std::string::npos);
    // An option of a type no option takes (not convertible on the raw path) is refused by name.
    const std::string odd = ErrorOf([&] {
      peer.Batch({"INSERT DATA { <urn:a> a ex:Song }"},
                 Options{{"source", sdbus::Variant(std::vector<int32_t>{1})}});
    });
    CHECK(odd.rfind("org.quarry.Store1.Error.InvalidArgument", 0) == 0);
    CHECK(odd.find("'source'") != std::string::npos);
    // QueryRows' own errors: a CONSTRUCT, and rows past the caller's max_bytes.
    auto connection = sdbus::createSessionBusConnectionWithAddress(address);
    auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
    CHECK(ErrorOf([&] {
            auto call = proxy->createMethodCall(kSteroids, "QueryRows");
            call << std::string("CONSTRUCT { ?s a ex:Song } WHERE { ?s a ex:Song }") << Options{};
            proxy->callMethod(call);
          }).rfind("org.quarry.Store1.Error.InvalidArgument", 0) == 0);
    InsertSongs(bus, 20);
    CHECK(ErrorOf([&] {
            auto call = proxy->createMethodCall(kSteroids, "QueryRows");
            call << kAll << Options{{"max_bytes", sdbus::Variant(uint32_t{64})}};
            proxy->callMethod(call);
          }).rfind("org.quarry.Store1.Error.ReplyTooLarge", 0) == 0);
    // Arguments of the wrong signature never reach the method.
    CHECK(ErrorOf([&] {
            proxy->callMethod("SparqlQuery").onInterface(kResources).withArguments(int32_t{1});
          }).rfind("org.freedesktop.DBus.Error.InvalidArgs", 0) == 0);
    // The connection is still good after all that.
    CHECK(peer.Query(kAll).size() == 20);
  }

  SUBCASE("a reply larger than the socket buffer, and replies racing it") {
    // 600 rows of 8 KiB titles: a reply of about 5 MB, written in many sends.
    std::vector<std::string> updates;
    for (int i = 0; i < 600; ++i) {
      updates.push_back(fmt::format("INSERT DATA {{ <urn:song-{:03}> a ex:Song ; ex:title \"{}{}\" }}",
                                    i, i, std::string(8192, 'a' + i % 26)));
    }
    bus.Batch(updates);
    const Rows through_bus = bus.Query(kAll);
    REQUIRE(through_bus.size() == 600);
    std::vector<std::thread> readers;
    std::vector<int> same(4, 0);
    for (int i = 0; i < 4; ++i) {
      readers.emplace_back([&, i] {
        StoreClient own(address);
        same[i] = own.Query(kAll) == through_bus && QueryRows(*sdbus::createSessionBusConnectionWithAddress(address), kAll) == through_bus;
      });
    }
    CHECK(peer.Query(kAll) == through_bus);
    for (auto& reader : readers) reader.join();
    for (const int ok : same) CHECK(ok == 1);
  }

  SUBCASE("Steroids.Query writes the rows into a descriptor passed through the socket") {
    InsertSongs(bus, 25);
    int ends[2];
    REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    std::string bytes;
    std::thread drain([&] {
      char buffer[4096];
      for (ssize_t got; (got = ::read(ends[0], buffer, sizeof buffer)) > 0;) bytes.append(buffer, got);
      ::close(ends[0]);
    });
    const std::vector<std::string> names = peer.Stream(kAll, ends[1]);
    drain.join();
    CHECK(names == std::vector<std::string>{"s", "n"});
    const std::vector<StreamRow> rows = ReadRows(bytes);
    const Rows through_bus = bus.Query(kAll);
    REQUIRE(rows.size() == through_bus.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      REQUIRE(rows[i].size() == 2);
      CHECK(rows[i][0].text == through_bus[i][0]);
      CHECK(rows[i][1].text == through_bus[i][1]);
    }
    // A bad option closes the descriptor and names the error.
    REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    CHECK(ErrorOf([&] {
            peer.Stream(kAll, ends[1], Options{{"version", sdbus::Variant(int32_t{99})}});
          }).rfind("org.quarry.Store1.Error.Unsupported", 0) == 0);
    pollfd readable{ends[0], POLLIN, 0};
    REQUIRE(::poll(&readable, 1, 20000) == 1);
    char byte = 0;
    CHECK(::read(ends[0], &byte, 1) == 0);  // EOF: the store holds no copy of the write end
    ::close(ends[0]);
  }
}

}  // namespace
}  // namespace quarry::testing
