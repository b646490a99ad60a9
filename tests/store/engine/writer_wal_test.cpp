// The writer leaves no statement on a row after an update: a cached lookup left there kept the
// connection's read transaction, and its WAL read mark, open past every COMMIT, so no
// checkpoint could pass it. quarry-store's WAL grew to the whole database (101 MB against a
// 4 KiB meta.db at 12,800 contacts) and its readers read every page out of it (issue 7).
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <string>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

TEST_CASE("Updates leave no statement on a row, so another connection checkpoints the whole WAL") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title \"One\" }");
  // Known IRIs and types: the writer looks them up (TripleWriter::FindId, HasClassRow).
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> ex:track 1 }");
  store.Update(kPrefixes + "DELETE DATA { <urn:s1> ex:track 1 }");
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:track 2 }");
  store.Update(kPrefixes + "DELETE { <urn:s1> ex:title ?t } WHERE { <urn:s1> ex:title ?t }");
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }") == std::vector<std::string>{"urn:s1"});

  sqlite3* writer = store->database().handle();
  for (sqlite3_stmt* statement = sqlite3_next_stmt(writer, nullptr); statement != nullptr;
       statement = sqlite3_next_stmt(writer, statement)) {
    INFO(sqlite3_sql(statement));
    CHECK(sqlite3_stmt_busy(statement) == 0);
  }

  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open_v2(store->database_file().c_str(), &other, SQLITE_OPEN_READWRITE, nullptr) ==
          SQLITE_OK);
  sqlite3_stmt* checkpoint = nullptr;
  REQUIRE(sqlite3_prepare_v2(other, "PRAGMA wal_checkpoint(PASSIVE)", -1, &checkpoint, nullptr) ==
          SQLITE_OK);
  REQUIRE(sqlite3_step(checkpoint) == SQLITE_ROW);
  const int64_t blocked = sqlite3_column_int64(checkpoint, 0);
  const int64_t frames = sqlite3_column_int64(checkpoint, 1);
  const int64_t copied = sqlite3_column_int64(checkpoint, 2);
  sqlite3_finalize(checkpoint);
  sqlite3_close(other);
  CHECK(blocked == 0);
  CHECK(frames > 0);
  CHECK(copied == frames);  // no reader mark held any frame back
}

}  // namespace
}  // namespace quarry::testing
