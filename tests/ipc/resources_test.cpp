// org.quarry.Store1.Resources and Status through a real bus and a real quarry-store.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

TEST_CASE("Resources: updates are visible to queries, unbound values are empty strings") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  client.Update(R"(INSERT DATA { <urn:a> a ex:Song ; ex:title "A" ; ex:size 3 .
                                 <urn:b> a ex:Song ; ex:title "B" })");
  const Rows rows =
      client.Query("SELECT ?s ?t ?n { ?s ex:title ?t OPTIONAL { ?s ex:size ?n } } ORDER BY ?t");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] == std::vector<std::string>{"urn:a", "A", "3"});
  CHECK(rows[1] == std::vector<std::string>{"urn:b", "B", ""});
  CHECK(client.Status() == "Idle");
  CHECK(client.Progress() == 1.0);
}

TEST_CASE("Resources: errors come back as org.quarry.Store1.Error.<Kind> with the message") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  const std::string parse = ErrorOf([&] { client.Query("SELEC ?s {"); });
  CHECK(parse.starts_with("org.quarry.Store1.Error.Parse: "));
  const std::string constraint =
      ErrorOf([&] { client.Update("INSERT DATA { <urn:a> ex:nosuch 1 }"); });
  CHECK(constraint.starts_with("org.quarry.Store1.Error.Constraint: "));
  CHECK(constraint.find("nosuch") != std::string::npos);
  const std::string option = ErrorOf([&] {
    client.Batch({"INSERT DATA { <urn:a> a ex:Song }"},
                 {{"sorce", sdbus::Variant(std::string("miner"))}});
  });
  CHECK(option.starts_with("org.quarry.Store1.Error.InvalidArgument: "));
  CHECK(option.find("sorce") != std::string::npos);
  const std::string load = ErrorOf([&] { client.Load("file:///no such file"); });
  CHECK(load.starts_with("org.quarry.Store1.Error.InvalidArgument: "));
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").empty());
}

TEST_CASE("Resources: a batch is one transaction — one bad update applies nothing") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  const std::string error = ErrorOf([&] {
    client.Batch({"INSERT DATA { <urn:one> a ex:Song }", "INSERT DATA { <urn:two> ex:nosuch 2 }",
                  "INSERT DATA { <urn:three> a ex:Song }"},
                 {{"source", sdbus::Variant(std::string("miner"))}});
  });
  CHECK(error.starts_with("org.quarry.Store1.Error.Constraint: update 2: "));
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").empty());
  client.Batch({"INSERT DATA { <urn:one> a ex:Song }", "INSERT DATA { <urn:three> a ex:Song }"},
               {{"source", sdbus::Variant(std::string("miner"))}});
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").size() == 2);
}

TEST_CASE("Resources: Load reads a Turtle file into the store") {
  StoreFixture store;
  const auto file = store.dir().Write("data.ttl", R"(@prefix ex: <http://example.org/ex#> .
<urn:loaded> a ex:Song ; ex:title "from a file" .
)");
  store.Start();
  StoreClient client = store.Client();
  client.Load("file://" + file.string());
  const Rows rows = client.Query("SELECT ?t { <urn:loaded> ex:title ?t }");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0] == "from a file");
  CHECK(ErrorOf([&] { client.Load("file://" + (store.dir() / "missing.ttl").string()); }) != "");
}

TEST_CASE("Resources: 50 concurrent clients each update and query") {
  StoreFixture store;
  store.Start();
  constexpr int kClients = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&store, &failures, i] {
      try {
        StoreClient client = store.Client();
        client.Update(fmt::format(R"(INSERT DATA {{ <urn:c{}> a ex:Song ; ex:size {} }})", i, i));
        const Rows mine = client.Query(fmt::format("SELECT ?n {{ <urn:c{}> ex:size ?n }}", i));
        if (mine.size() != 1 || mine[0][0] != std::to_string(i)) ++failures;
      } catch (const sdbus::Error&) {
        ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(failures == 0);
  CHECK(store.Client().Query("SELECT ?s { ?s a ex:Song }").size() == kClients);
}

TEST_CASE("Status: the Progress signal exists and GetStatus says Idle once open") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  // Queries sent right after the name appears are queued until the database is open, then
  // answered: never refused for being busy.
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").empty());
  CHECK(client.Status() == "Idle");
  CHECK(client.StatusMessage().empty());
  const std::string xml = client.Introspect();
  CHECK(xml.find(R"(<signal name="Progress">)") != std::string::npos);
  CHECK(xml.find(R"(<signal name="GraphUpdated">)") != std::string::npos);
  CHECK(xml.find(R"(<signal name="Writeback">)") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
