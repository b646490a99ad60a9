// Issue 7: Resources.UpdateStream and Connection::UpdateStream — a batch whose requests stream
// through a socket while quarry-store runs them in one transaction. Atomic (a broken request,
// a failing producer, a stream cut short: nothing commits, the error names the request), on the
// bus and on the peer socket, embedded too; and neither process holds the whole batch (peak
// RSS growth while 48 MiB stream through is a fraction of that).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "quarry/connection.h"
#include "quarry/store_process.h"
#include "store/common/unique_fd.h"
#include "store/ipc/update_stream.h"
#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

std::string SongInsert(int i) {
  return fmt::format("{}INSERT DATA {{ <urn:song-{}> a ex:Song ; ex:title \"title {}\" }}", kEx, i,
                     i);
}

// Producer of `count` inserts; request `broken_at` (1-based) is not SPARQL.
Connection::UpdateProducer Songs(int count, int broken_at = 0) {
  auto next = std::make_shared<int>(0);
  return [next, count, broken_at](std::string& request) -> Result<bool> {
    if (*next == count) return false;
    ++*next;
    request = *next == broken_at ? std::string("INSERT DATA { <urn:x> a ex:Song ; ") : SongInsert(*next);
    return true;
  };
}

int64_t SongCount(Connection& connection) {
  const auto rows = QueryRows(connection, kEx + "SELECT (COUNT(?s) AS ?n) { ?s a ex:Song }", false);
  REQUIRE(rows.size() == 1);
  return std::stoll(rows[0][0]);
}

// XDG_RUNTIME_DIR for the store the fixture starts: set, the client goes through the store's
// peer socket; unset, through dbus-daemon.
class Transport {
 public:
  explicit Transport(bool peer) {
    const char* old = std::getenv("XDG_RUNTIME_DIR");
    if (old != nullptr) saved_ = old;
    if (peer) {
      ::setenv("XDG_RUNTIME_DIR", runtime_.path().c_str(), 1);
    } else {
      ::unsetenv("XDG_RUNTIME_DIR");
    }
  }
  ~Transport() {
    if (saved_) {
      ::setenv("XDG_RUNTIME_DIR", saved_->c_str(), 1);
    } else {
      ::unsetenv("XDG_RUNTIME_DIR");
    }
  }

 private:
  TempDir runtime_;
  std::optional<std::string> saved_;
};

void CheckAtomic(Connection& connection) {
  // Thousands of requests commit together.
  auto done = connection.UpdateStream(Songs(3000));
  REQUIRE_MESSAGE(done.ok(), (done ? std::string() : done.error().ToString()));
  CHECK(SongCount(connection) == 3000);
  // A broken request in the middle rolls back all of them and is named.
  done = connection.UpdateStream(Songs(3000, 1500));
  REQUIRE_FALSE(done.ok());
  CHECK(done.error().ToString().find("update 1500") != std::string::npos);
  CHECK(SongCount(connection) == 3000);
  // A producer that fails part way: nothing of the batch commits, the error is its own.
  int produced = 0;
  done = connection.UpdateStream([&](std::string& request) -> Result<bool> {
    if (++produced == 700) return Error(Errc::kInvalidArgument, "the producer gave up");
    request = fmt::format("{}INSERT DATA {{ <urn:late-{}> a ex:Song }}", kEx, produced);
    return true;
  });
  REQUIRE_FALSE(done.ok());
  CHECK(done.error().ToString().find("update 700") != std::string::npos);
  CHECK(done.error().ToString().find("the producer gave up") != std::string::npos);
  CHECK(SongCount(connection) == 3000);
  // An empty stream commits nothing and succeeds.
  done = connection.UpdateStream([](std::string&) -> Result<bool> { return false; });
  CHECK(done.ok());
}

TEST_CASE("UpdateStream commits thousands of requests atomically through dbus-daemon") {
  Transport transport(false);
  StoreFixture store;
  auto connection = store.Bus();
  CheckAtomic(*connection);
}

TEST_CASE("UpdateStream commits thousands of requests atomically through the peer socket") {
  Transport transport(true);
  StoreFixture store;
  auto connection = store.Bus();
  CheckAtomic(*connection);
}

TEST_CASE("UpdateStream on an embedded connection runs each request in one transaction") {
  TempDir dir;
  dir.Write("ontology/10-base.ontology", kTestBase);
  dir.Write("ontology/20-ex.ontology", kTestDomain);
  auto connection = Connection::Open({dir / "db", dir / "ontology"});
  REQUIRE(connection.ok());
  CheckAtomic(**connection);
}

TEST_CASE("A stream the client closes before its end record commits nothing") {
  Transport transport(false);
  StoreFixture store;
  auto client = store.Bus();
  int ends[2] = {-1, -1};
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0);
  UniqueFd ours(ends[0]);
  UniqueFd theirs(ends[1]);
  std::string records;
  for (int i = 1; i <= 100; ++i) ipc::AppendUpdateRecord(records, SongInsert(i));
  REQUIRE(::write(ours.get(), records.data(), records.size()) ==
          static_cast<ssize_t>(records.size()));
  ours.reset();  // no end record: the client "died" after 100 requests
  auto bus = sdbus::createSessionBusConnectionWithAddress(store.bus.address());
  auto proxy = sdbus::createProxy(*bus, "org.quarry.Store1", "/org/quarry/Store1");
  auto call = proxy->createMethodCall("org.quarry.Store1.Resources", "UpdateStream");
  call << sdbus::UnixFd(theirs.get()) << std::map<std::string, sdbus::Variant>{};
  theirs.reset();
  std::string error;
  try {
    proxy->callMethod(call);
  } catch (const sdbus::Error& failure) {
    error = failure.getMessage();
  }
  INFO(error);
  CHECK(error.find("update 101") != std::string::npos);
  CHECK(error.find("without its end record after 100 requests") != std::string::npos);
  CHECK(SongCount(*client) == 0);
  // The store goes on serving: a complete stream on the same bus commits.
  auto done = client->UpdateStream(Songs(10));
  CHECK(done.ok());
  CHECK(SongCount(*client) == 10);
}

TEST_CASE("UpdateStreamReader reads records split across reads and refuses a cut stream") {
  int ends[2] = {-1, -1};
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0);
  UniqueFd writer(ends[0]);
  std::string bytes;
  const std::string big(300000, 'x');  // longer than one read
  ipc::AppendUpdateRecord(bytes, "first");
  ipc::AppendUpdateRecord(bytes, "");
  ipc::AppendUpdateRecord(bytes, big);
  ipc::AppendUpdateEnd(bytes);
  std::thread feed([&] {  // a byte at a time, then the rest
    for (size_t i = 0; i < 7; ++i) REQUIRE(::write(writer.get(), &bytes[i], 1) == 1);
    size_t sent = 7;
    while (sent < bytes.size()) {
      const ssize_t n = ::write(writer.get(), bytes.data() + sent, bytes.size() - sent);
      REQUIRE(n > 0);
      sent += static_cast<size_t>(n);
    }
  });
  ipc::UpdateStreamReader reader(UniqueFd(ends[1]), std::chrono::seconds(30));
  auto first = reader.Next();
  REQUIRE(first.ok());
  CHECK(**first == "first");
  auto empty = reader.Next();
  REQUIRE(empty.ok());
  REQUIRE(empty->has_value());
  CHECK((*empty)->empty());
  auto third = reader.Next();
  REQUIRE(third.ok());
  CHECK(**third == big);
  auto end = reader.Next();
  REQUIRE(end.ok());
  CHECK_FALSE(end->has_value());
  CHECK(reader.count() == 3);
  feed.join();

  // A record longer than the limit is refused before it is buffered.
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0);
  UniqueFd long_writer(ends[0]);
  std::string header;
  ipc::AppendUpdateHeader(header, ipc::kMaxStreamedRequestBytes + 1);
  REQUIRE(::write(long_writer.get(), header.data(), header.size()) == 4);
  ipc::UpdateStreamReader long_reader(UniqueFd(ends[1]), std::chrono::seconds(30));
  auto refused = long_reader.Next();
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().ToString().find("over the stream's limit") != std::string::npos);

  // A writer that stops sending without closing: the reader gives up after its timeout.
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0);
  UniqueFd silent(ends[0]);
  ipc::UpdateStreamReader stalled(UniqueFd(ends[1]), std::chrono::milliseconds(50));
  auto stall = stalled.Next();
  REQUIRE_FALSE(stall.ok());
  CHECK(stall.error().ToString().find("stalled") != std::string::npos);
}

TEST_CASE("UpdateStreamReader keeps records whole across its buffer's ends and gives back a long one's room") {
  int ends[2] = {-1, -1};
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0);
  UniqueFd writer(ends[0]);
  // Records of 777 bytes (each its own content) straddle every 64 KiB read; then one of 3 MiB
  // and a short one after it.
  constexpr int kCount = 2000;
  const auto record = [](int i) { return fmt::format("{:0>777}", i); };
  const std::string long_request(size_t{3} << 20, 'L');
  std::thread feed([&] {
    std::string bytes;
    for (int i = 0; i < kCount; ++i) ipc::AppendUpdateRecord(bytes, record(i));
    ipc::AppendUpdateRecord(bytes, long_request);
    ipc::AppendUpdateRecord(bytes, "short");
    ipc::AppendUpdateEnd(bytes);
    size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::write(writer.get(), bytes.data() + sent, bytes.size() - sent);
      REQUIRE(n > 0);
      sent += static_cast<size_t>(n);
    }
  });
  ipc::UpdateStreamReader reader(UniqueFd(ends[1]), std::chrono::seconds(30));
  int mismatches = 0;
  for (int i = 0; i < kCount; ++i) {
    auto next = reader.Next();
    REQUIRE(next.ok());
    REQUIRE(next->has_value());
    if (**next != record(i)) ++mismatches;
  }
  CHECK(mismatches == 0);
  auto long_one = reader.Next();
  REQUIRE(long_one.ok());
  CHECK(**long_one == long_request);
  CHECK(reader.buffered_capacity() >= long_request.size());
  auto short_one = reader.Next();
  REQUIRE(short_one.ok());
  CHECK(**short_one == "short");
  CHECK(reader.buffered_capacity() <= (size_t{1} << 20));
  auto end = reader.Next();
  REQUIRE(end.ok());
  CHECK_FALSE(end->has_value());
  CHECK(reader.count() == kCount + 2);
  feed.join();
}

// A store from before Resources.UpdateStream: BatchSparqlUpdate and SparqlUpdate only, each
// batch recorded as it came.
class StoreWithoutUpdateStream {
 public:
  static constexpr const char* kName = "org.quarry.Store1.Old";
  explicit StoreWithoutUpdateStream(const std::string& address)
      : connection_(sdbus::createSessionBusConnectionWithAddress(address)),
        object_(sdbus::createObject(*connection_, "/org/quarry/Store1")) {
    object_->registerMethod("BatchSparqlUpdate").onInterface("org.quarry.Store1.Resources")
        .implementedAs([this](const std::vector<std::string>& requests,
                              const std::map<std::string, sdbus::Variant>&) { Record(requests); });
    object_->registerMethod("SparqlUpdate").onInterface("org.quarry.Store1.Resources")
        .implementedAs([this](const std::string& request) { Record({request}); });
    object_->finishRegistration();
    connection_->requestName(kName);
    connection_->enterEventLoopAsync();
  }
  ~StoreWithoutUpdateStream() { connection_->leaveEventLoop(); }
  std::vector<std::vector<std::string>> batches() {
    const std::lock_guard lock(mutex_);
    return batches_;
  }

 private:
  void Record(std::vector<std::string> requests) {
    const std::lock_guard lock(mutex_);
    batches_.push_back(std::move(requests));
  }
  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IObject> object_;
  std::mutex mutex_;
  std::vector<std::vector<std::string>> batches_;
};

TEST_CASE("UpdateStream to a store without the method falls back to BatchSparqlUpdate") {
  Transport transport(false);
  BusFixture bus;
  StoreWithoutUpdateStream old_store(bus.address());
  auto connection = Connection::Bus(BusOptions{StoreWithoutUpdateStream::kName, bus.address()});
  REQUIRE_MESSAGE(connection.ok(), (connection ? std::string() : connection.error().ToString()));
  // More than a socket pair holds (~400 KiB): the requests written before the UnknownMethod
  // reply are read back, the rest too, and all go in one batch, in order.
  constexpr int kCount = 5000;
  auto done = (*connection)->UpdateStream(Songs(kCount));
  REQUIRE_MESSAGE(done.ok(), (done ? std::string() : done.error().ToString()));
  auto batches = old_store.batches();
  REQUIRE(batches.size() == 1);
  REQUIRE(batches[0].size() == kCount);
  CHECK(batches[0].front() == SongInsert(1));
  CHECK(batches[0][2999] == SongInsert(3000));
  CHECK(batches[0].back() == SongInsert(kCount));
  // The connection remembers: the next batches are collected and sent the same way.
  done = (*connection)->UpdateStream(Songs(2));
  REQUIRE(done.ok());
  batches = old_store.batches();
  REQUIRE(batches.size() == 2);
  CHECK(batches[1] == std::vector<std::string>{SongInsert(1), SongInsert(2)});
  // A producer that fails sends nothing, and its error is the one returned.
  int produced = 0;
  done = (*connection)->UpdateStream([&](std::string& request) -> Result<bool> {
    if (++produced == 3) return Error(Errc::kInvalidArgument, "the producer gave up");
    request = SongInsert(produced);
    return true;
  });
  REQUIRE_FALSE(done.ok());
  CHECK(done.error().ToString().find("update 3") != std::string::npos);
  CHECK(done.error().ToString().find("the producer gave up") != std::string::npos);
  CHECK(old_store.batches().size() == 2);
}

TEST_CASE("UpdateStream's first batch to a store without the method keeps a producer's error") {
  Transport transport(false);
  BusFixture bus;
  StoreWithoutUpdateStream old_store(bus.address());
  auto connection = Connection::Bus(BusOptions{StoreWithoutUpdateStream::kName, bus.address()});
  REQUIRE(connection.ok());
  int produced = 0;
  auto done = (*connection)->UpdateStream([&](std::string& request) -> Result<bool> {
    if (++produced == 4000) return Error(Errc::kInvalidArgument, "the producer gave up");
    request = SongInsert(produced);
    return true;
  });
  REQUIRE_FALSE(done.ok());
  CHECK(done.error().ToString().find("update 4000") != std::string::npos);
  CHECK(done.error().ToString().find("the producer gave up") != std::string::npos);
  CHECK(old_store.batches().empty());
}

#if defined(__SANITIZE_ADDRESS__)
#define QUARRY_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QUARRY_UNDER_ASAN 1
#endif
#endif

// VmHWM of `pid` in KiB.
int64_t PeakKib(const std::string& pid) {
  std::ifstream status("/proc/" + pid + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6));
  }
  FAIL("no VmHWM in /proc/" << pid << "/status");
  return 0;
}

// Resets VmHWM to the current RSS (Linux: clear_refs 5); false where it is not allowed.
bool ResetPeak(const std::string& pid) {
  std::ofstream clear("/proc/" + pid + "/clear_refs");
  clear << "5";
  clear.flush();
  return clear.good();
}

TEST_CASE("Neither the client nor quarry-store holds a streamed batch whole") {
#ifdef QUARRY_UNDER_ASAN
  // ASan's quarantine keeps freed requests mapped: RSS says nothing about what is held.
  return;
#else
  Transport transport(true);
  StoreFixture store;
  auto connection = store.Bus();
  REQUIRE(connection->UpdateStream(Songs(200)).ok());  // caches and connections warm
  const auto owner = StoreProcessId(store.bus.options());
  REQUIRE(owner.ok());
  REQUIRE(owner->has_value());
  const std::string store_pid = std::to_string(**owner);
  const bool reset = ResetPeak(store_pid) && ResetPeak("self");
  const int64_t store_before = PeakKib(store_pid);
  const int64_t client_before = PeakKib("self");
  // 48 requests of 1 MiB each (mostly a comment the parser skips): 48 MiB through the stream.
  constexpr int kRequests = 48;
  const std::string padding = "# " + std::string(size_t{1} << 20, 'p') + "\n";
  int sent = 0;
  auto done = connection->UpdateStream([&](std::string& request) -> Result<bool> {
    if (sent == kRequests) return false;
    ++sent;
    request = padding + SongInsert(10000 + sent);
    return true;
  });
  REQUIRE_MESSAGE(done.ok(), (done ? std::string() : done.error().ToString()));
  CHECK(SongCount(*connection) == 200 + kRequests);
  const int64_t store_growth = PeakKib(store_pid) - store_before;
  const int64_t client_growth = PeakKib("self") - client_before;
  INFO("peak growth (KiB): store " << store_growth << ", client " << client_growth
                                   << (reset ? "" : " (peaks not reset)"));
  // BatchSparqlUpdate would hold the 48 MiB twice in the store and twice in the client.
  CHECK(store_growth < 12 * 1024);
  CHECK(client_growth < 12 * 1024);
#endif
}

}  // namespace
}  // namespace quarry::testing
