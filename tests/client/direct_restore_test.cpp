// Issue 4: Connection::Direct readers follow quarry-store's Restore (the database file swapped
// under them) instead of reading the old file on.
#include <doctest/doctest.h>

#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

const std::string kSongs = kEx + "SELECT ?s { ?s a ex:Song } ORDER BY ?s";

using Table = std::vector<std::vector<std::string>>;

TEST_CASE("Direct: a reader sees the restored data after Restore, without reconnecting") {
  StoreFixture store;
  std::unique_ptr<Connection> bus = store.Bus();
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:saved> a ex:Song }").ok());
  const std::filesystem::path backup = store.dir / "backup.db";
  REQUIRE(bus->Backup(backup).ok());
  REQUIRE(bus->Update(kEx + "DELETE DATA { <urn:saved> a ex:Song } ; "
                            "INSERT DATA { <urn:later> a ex:Song }")
              .ok());

  std::unique_ptr<Connection> direct = store.Direct();
  auto prepared = direct->Prepare(kSongs);
  REQUIRE(prepared.ok());
  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:later"}});

  const auto restored = bus->Restore(backup);
  REQUIRE_MESSAGE(restored.ok(), (restored ? std::string() : restored.error().ToString()));

  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:saved"}});
  auto cursor = prepared->Execute();  // prepared before the restore: compiled again
  REQUIRE(cursor.ok());
  CHECK(ReadRows(*cursor, false) == Table{{"urn:saved"}});

  // Writes after the restore go to the new file, and the reader keeps up with them.
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:after> a ex:Song }").ok());
  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:after"}, {"urn:saved"}});
}

}  // namespace
}  // namespace quarry::testing
