// Issue 4: a plain D-Bus reply too large for one message. The store refuses it with
// ReplyTooLarge (naming the size and the FD stream) instead of sending it; the client library
// switches to the FD stream by itself unless plain D-Bus was forced; and a bus that drops the
// store's connection anyway (a reply over dbus-daemon's limit) stops the store cleanly, never
// with an abort.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/wait.h>

#include <string>

#include "quarry/connection.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

constexpr int kSongs = 300;
// kSongs² rows of two IRIs of ~12 characters: about 3.6 MB as an `aas` reply.
const std::string kJoin = "SELECT ?a ?b { ?a a ex:Song . ?b a ex:Song }";

void InsertSongs(StoreClient& client) {
  std::string update = "INSERT DATA {";
  for (int i = 0; i < kSongs; ++i) update += fmt::format(" <urn:song-{}> a ex:Song .", i);
  client.Update(update + " }");
}

std::unique_ptr<Connection> BusConnection(const StoreFixture& store, QueryTransport transport) {
  BusOptions options;
  options.address = store.address();
  auto connection = Connection::Bus(options);
  REQUIRE_MESSAGE(connection.ok(), (connection ? std::string() : connection.error().ToString()));
  (*connection)->SetQueryTransport(transport);
  return std::move(*connection);
}

// Rows of `sparql` through `connection`, or the error's text.
Result<size_t> CountRows(Connection& connection, const std::string& sparql) {
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, connection.Query(sparql));
  size_t rows = 0;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) return rows;
    ++rows;
  }
}

TEST_CASE(
    "Reply size: over --max-reply-mib SparqlQuery fails with ReplyTooLarge, the store goes on") {
  StoreFixture store;
  store.Start({"--max-reply-mib", "1"});
  StoreClient client = store.Client();
  InsertSongs(client);
  const std::string error = ErrorOf([&] { client.Query(kJoin); });
  INFO(error);
  CHECK(error.starts_with("org.quarry.Store1.Error.ReplyTooLarge: "));
  CHECK(error.find("1048576 bytes") != std::string::npos);  // the limit, named
  CHECK(error.find("FD stream") != std::string::npos);
  // A result under the limit still comes back, and the store still serves.
  CHECK(client.Query("SELECT ?a { ?a a ex:Song }").size() == kSongs);
  CHECK(client.Status() == "Idle");
}

TEST_CASE("Reply size: the default transport streams any size, unless plain D-Bus is forced") {
  StoreFixture store;
  store.Start({"--max-reply-mib", "1"});
  StoreClient client = store.Client();
  InsertSongs(client);

  BusOptions options;
  options.address = store.address();
  auto automatic = Connection::Bus(options);  // QueryTransport::kAuto, the default
  REQUIRE(automatic.ok());
  const auto large = CountRows(**automatic, kJoin);
  REQUIRE_MESSAGE(large.ok(), (large ? std::string() : large.error().ToString()));
  CHECK(*large == size_t{kSongs} * kSongs);
  // Small results come typed and named too (plain D-Bus would give text only, no names).
  auto small = (*automatic)->Query("SELECT ?a { ?a a ex:Song } LIMIT 1");
  REQUIRE(small.ok());
  CHECK(small->VariableName(0) == "a");
  REQUIRE(*small->Next());
  CHECK(small->Kind(0) == ValueKind::kIri);

  auto forced = BusConnection(store, QueryTransport::kPlainDBus);
  const auto refused = CountRows(*forced, kJoin);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == Errc::kUnsupported);
  CHECK(refused.error().message().find("too large for one D-Bus reply") != std::string::npos);
}

TEST_CASE("Reply size: a bus that drops the store for a huge reply stops it cleanly, no abort") {
  // dbus-daemon disconnects a peer that sends a message over max_message_size: with a 1 MB
  // limit and the store's default 64 MiB cap, the 3.6 MB reply gets the store dropped.
  StoreFixture store(BusConfigWithMessageLimit(1000000));
  store.Start();
  StoreClient client = store.Client();
  InsertSongs(client);
  CHECK_FALSE(ErrorOf([&] { client.Query(kJoin); }).empty());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!store.process().TryReap()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const int status = store.Stop();
  INFO("wait status " << status);
  REQUIRE(WIFEXITED(status));  // not killed by SIGABRT (std::terminate)
  CHECK(WEXITSTATUS(status) == 1);
}

}  // namespace
}  // namespace quarry::testing
