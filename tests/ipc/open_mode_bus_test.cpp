// Issue 4: `quarry-store --ontology none` serves an open-mode database (SCHEMA.md "Open mode"):
// any predicate is stored (in the generic quad table) and read back, over plain D-Bus and the
// FD stream, and the database stays in open mode across a restart.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "quarry/connection.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

const std::string kLikes = "<http://example.org/anything#likes>";
const std::string kInsert =
    "INSERT DATA { <urn:ann> " + kLikes + " \"tea\" , <urn:bob> . <urn:bob> " + kLikes + " 3 }";
const std::string kSelect = "SELECT ?s ?o { ?s " + kLikes + " ?o }";
// (subject, object, object kind) sorted, as row order is not part of the test.
using Typed = std::vector<std::tuple<std::string, std::string, int>>;

Rows Sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST_CASE("Open mode: --ontology none stores and returns any predicate over the bus") {
  StoreFixture store;
  store.Start({}, "none");
  StoreClient client = store.Client();
  CHECK(ErrorOf([&] { client.Update(kInsert); }) == "");
  const Rows expected{{"urn:ann", "tea"}, {"urn:ann", "urn:bob"}, {"urn:bob", "3"}};
  CHECK(Sorted(client.Query(kSelect)) == expected);

  BusOptions options;
  options.address = store.address();
  auto connection = Connection::Bus(options);
  REQUIRE(connection.ok());
  auto cursor = (*connection)->Query(kSelect);  // the FD stream, typed
  REQUIRE_MESSAGE(cursor.ok(), (cursor ? std::string() : cursor.error().ToString()));
  Typed streamed;
  while (*cursor->Next()) {
    streamed.emplace_back(cursor->GetString(0), cursor->GetString(1),
                          static_cast<int>(cursor->Kind(1)));
  }
  std::sort(streamed.begin(), streamed.end());
  CHECK(streamed == Typed{{"urn:ann", "tea", static_cast<int>(ValueKind::kString)},
                          {"urn:ann", "urn:bob", static_cast<int>(ValueKind::kIri)},
                          {"urn:bob", "3", static_cast<int>(ValueKind::kInteger)}});

  // Reopened without "none", the database is still in open mode (the mode is stored in it).
  CHECK(store.Stop() == 0);
  store.Start();
  StoreClient again = store.Client();
  CHECK(Sorted(again.Query(kSelect)) == expected);
  CHECK(ErrorOf([&] { again.Update("INSERT DATA { <urn:cy> <urn:p> 1 }"); }) == "");
}

TEST_CASE("Open mode: without it, an unknown predicate is still refused") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  CHECK(ErrorOf([&] { client.Update(kInsert); }).starts_with("org.quarry.Store1.Error.Constraint"));
}

}  // namespace
}  // namespace quarry::testing
