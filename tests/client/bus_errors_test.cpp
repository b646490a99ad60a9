// Errors on the bus path: store error replies, a store that is not running, one that vanishes
// and comes back.
#include <doctest/doctest.h>

#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

TEST_CASE("Bus errors: an error reply becomes the query's error, with the store's code") {
  StoreFixture store;
  for (const QueryTransport transport : {QueryTransport::kFdStream, QueryTransport::kPlainDBus}) {
    auto bus = store.Bus(transport);
    auto cursor = bus->Query("SELECT ?s WHERE { ?s ?p }");
    REQUIRE_FALSE(cursor.ok());
    CHECK(cursor.error().code() == Errc::kParse);
    CHECK_FALSE(cursor.error().message().empty());
    auto unknown = bus->Query(kEx + "SELECT ?s { ?s ex:nosuch ?o }");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().ToString().find("nosuch") != std::string::npos);
    // The connection stays usable after an error.
    CHECK(QueryRows(*bus, kEx + "SELECT ?s { ?s a ex:Song }", false).empty());
  }
  auto bus = store.Bus();
  const auto refused = bus->Update(kEx + "INSERT DATA { <urn:a> ex:track \"not a number\" }");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() != Errc::kIo);
  CHECK(bus->Explain("SELECT * {}").error().code() == Errc::kUnsupported);
}

TEST_CASE("Bus errors: no store on the bus is said so") {
  BusFixture bus;
  const auto connection = Connection::Bus(bus.options());
  REQUIRE_FALSE(connection.ok());
  INFO(connection.error().ToString());
  CHECK(connection.error().ToString().starts_with("quarry-store is not running on " +
                                                  bus.address() + " as org.quarry.Store1: "));
  BusOptions nowhere{std::string(kStoreBusName), "unix:path=/nonexistent/quarry-test-bus"};
  const auto unreachable = Connection::Bus(nowhere);
  REQUIRE_FALSE(unreachable.ok());
  CHECK(unreachable.error().ToString().starts_with("quarry-store is not running on unix:path="));
}

TEST_CASE("Bus errors: a store that goes away fails the call, the next call finds it again") {
  StoreFixture store;
  auto bus = store.Bus();
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"A\" }").ok());
  store.bus.KillStore();
  for (const QueryTransport transport : {QueryTransport::kFdStream, QueryTransport::kPlainDBus}) {
    bus->SetQueryTransport(transport);
    auto cursor = bus->Query(kEx + "SELECT ?t { ?s ex:title ?t }");
    REQUIRE_FALSE(cursor.ok());
    CHECK(cursor.error().ToString().find("quarry-store") != std::string::npos);
  }
  store.bus.StartStore(store.database(), store.ontology());
  bus->SetQueryTransport(QueryTransport::kFdStream);
  CHECK(QueryRows(*bus, kEx + "SELECT ?t { ?s ex:title ?t }", false) ==
        std::vector<std::vector<std::string>>{{"A"}});
}

TEST_CASE("Bus status and backup: the Status and Backup interfaces answer") {
  StoreFixture store;
  auto bus = store.Bus();
  // The store takes its name before the database is open: Busy until then, then Idle.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    const auto status = bus->Status();
    REQUIRE_MESSAGE(status.ok(), (status ? std::string() : status.error().ToString()));
    CHECK((status->state == "Idle" || status->state == "Busy"));
    CHECK(status->progress >= 0);
    CHECK(status->progress <= 1);
    if (status->state == "Idle") break;
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"kept\" }").ok());
  const std::filesystem::path backup = store.dir / "backup.db";
  const auto saved = bus->Backup(backup);
  REQUIRE_MESSAGE(saved.ok(), (saved ? std::string() : saved.error().ToString()));
  CHECK(std::filesystem::exists(backup));
  REQUIRE(bus->Update(kEx + "DELETE DATA { <urn:a> ex:title \"kept\" }").ok());
  const auto restored = bus->Restore(backup);
  REQUIRE_MESSAGE(restored.ok(), (restored ? std::string() : restored.error().ToString()));
  CHECK(QueryRows(*bus, kEx + "SELECT ?t { <urn:a> ex:title ?t }", false) ==
        std::vector<std::vector<std::string>>{{"kept"}});
  auto direct = store.Direct();
  CHECK(direct->Status().error().code() == Errc::kUnsupported);
}

}  // namespace
}  // namespace quarry::testing
