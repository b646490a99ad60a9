// The Steroids row format written by the store, decoded back (no bus needed).
#include "store/ipc/row_encoder.h"

#include <doctest/doctest.h>

#include "tests/ipc/steroids_reader.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

std::string EncodeAll(TestStore& store, const std::string& query) {
  auto cursor = store->Query(query);
  REQUIRE(cursor.ok());
  std::string bytes;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    ipc::AppendRow(*cursor, bytes);
  }
  return bytes;
}

TEST_CASE("Steroids rows: every value type, unbound and language tags round-trip") {
  TestStore store;
  store.Update(R"(INSERT DATA { <urn:s1> a ex:Song ; ex:title "hello"@en ; ex:size 42 ;
                  ex:rating 2.5 ; ex:favourite true ; ex:created "2024-01-02T03:04:05Z" })");
  const std::string bytes = EncodeAll(store, R"(SELECT ?s ?t ?n ?r ?f ?c ?missing {
      ?s ex:title ?t ; ex:size ?n ; ex:rating ?r ; ex:favourite ?f ; ex:created ?c
      OPTIONAL { ?s ex:track ?missing } })");
  const std::vector<StreamRow> rows = ReadRows(bytes);
  REQUIRE(rows.size() == 1);
  const StreamRow& row = rows[0];
  REQUIRE(row.size() == 7);
  CHECK(row[0].type == 1);
  CHECK(row[0].text == "urn:s1");
  CHECK(row[1].type == 8);
  CHECK(row[1].text == "hello");
  CHECK(row[1].lang == "en");
  CHECK(row[2].type == 3);
  CHECK(row[2].text == "42");
  CHECK(row[3].type == 4);
  CHECK(std::stod(row[3].text) == 2.5);
  CHECK(row[4].type == 7);
  CHECK(row[4].text == "true");
  CHECK(row[5].type == 5);
  CHECK(row[5].text.starts_with("2024-01-02T03:04:05"));
  CHECK(row[6].type == 0);
  CHECK(row[6].text.empty());
}

TEST_CASE("Steroids rows: end offsets point at each value's NUL") {
  TestStore store;
  store.Update(R"(INSERT DATA { <urn:a> a ex:Song ; ex:title "abc" ; ex:content "" })");
  const std::string bytes =
      EncodeAll(store, "SELECT ?t ?c { <urn:a> ex:title ?t ; ex:content ?c }");
  // n=2, types 2 2, ends 3 4, "abc\0\0"
  REQUIRE(bytes.size() == 4 + 8 + 8 + 5);
  size_t position = 4 + 8;
  CHECK(ReadInt32(bytes, position) == 3);
  CHECK(ReadInt32(bytes, position) == 4);
  CHECK(bytes.substr(20) == std::string("abc\0\0", 5));
}

}  // namespace
}  // namespace quarry::testing
