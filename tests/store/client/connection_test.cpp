// The public API: Connection, Cursor, Statement with ~parameters, Batch.
#include <doctest/doctest.h>

#include "quarry/connection.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/temp_dir.h"

namespace quarry {
namespace {

std::unique_ptr<Connection> OpenTestConnection(const testing::TempDir& dir) {
  dir.Write("ontology/10-base.ontology", testing::kTestBase);
  dir.Write("ontology/20-ex.ontology", testing::kTestDomain);
  auto connection = Connection::Open({dir.path() / "db", dir.path() / "ontology", false});
  INFO((connection ? std::string() : connection.error().ToString()));
  REQUIRE(connection.ok());
  return std::move(*connection);
}

const std::string kEx = "PREFIX ex: <http://example.org/ex#>\n";

TEST_CASE("Connection: a batch is applied whole, cursors read typed values in place") {
  testing::TempDir dir;
  auto connection = OpenTestConnection(dir);
  Batch batch = connection->CreateBatch();
  for (int i = 1; i <= 3; ++i) {
    batch.Add(kEx + "INSERT DATA { <urn:s" + std::to_string(i) + "> a ex:Song ; ex:title \"T" +
              std::to_string(i) + "\"@en ; ex:track " + std::to_string(i) + " ; ex:rating 0.5 ; "
              "ex:favourite true ; ex:created \"2024-01-0" + std::to_string(i) + "T08:00:00Z\" }");
  }
  REQUIRE(batch.Execute().ok());
  auto cursor = connection->Query(kEx + "SELECT ?s ?t ?n ?r ?f ?c ?x { ?s ex:title ?t ; ex:track ?n ; "
                                        "ex:rating ?r ; ex:favourite ?f ; ex:created ?c "
                                        "OPTIONAL { ?s ex:performer ?x } } ORDER BY ?n");
  REQUIRE(cursor.ok());
  REQUIRE(*cursor->Next());
  CHECK(cursor->ColumnCount() == 7);
  CHECK(cursor->VariableName(1) == "t");
  CHECK(cursor->Kind(0) == ValueKind::kIri);
  CHECK(cursor->GetString(0) == "urn:s1");
  CHECK(cursor->Kind(1) == ValueKind::kLangString);
  CHECK(cursor->GetString(1) == "T1");
  CHECK(cursor->GetLanguage(1) == "en");
  CHECK(cursor->Kind(2) == ValueKind::kInteger);
  CHECK(cursor->GetInteger(2) == 1);
  CHECK(cursor->Kind(3) == ValueKind::kDouble);
  CHECK(cursor->GetDouble(3) == 0.5);
  CHECK(cursor->Kind(4) == ValueKind::kBoolean);
  CHECK(cursor->GetBoolean(4));
  CHECK(cursor->Kind(5) == ValueKind::kDateTime);
  CHECK(cursor->GetString(5) == "2024-01-01T08:00:00Z");
  CHECK(cursor->Kind(6) == ValueKind::kUnbound);
  int rows = 1;
  while (*cursor->Next()) ++rows;
  CHECK(rows == 3);
}

TEST_CASE("Statement: compiled once, run with different ~parameters") {
  testing::TempDir dir;
  auto connection = OpenTestConnection(dir);
  REQUIRE(connection->Update(kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"A\" ; ex:track 1 . "
                                   "<urn:b> a ex:Song ; ex:title \"B\" ; ex:track 2 }").ok());
  auto by_iri = connection->Prepare(kEx + "SELECT ?t { ~song ex:title ?t }");
  REQUIRE(by_iri.ok());
  for (const auto& [iri, title] : {std::pair{"urn:a", "A"}, std::pair{"urn:b", "B"}}) {
    by_iri->BindIri("song", iri);
    auto cursor = by_iri->Execute();
    REQUIRE(cursor.ok());
    REQUIRE(*cursor->Next());
    CHECK(cursor->GetString(0) == title);
    CHECK_FALSE(*cursor->Next());
  }
  auto by_number = connection->Prepare(kEx + "SELECT ?t { ?s ex:track ~n ; ex:title ?t }");
  REQUIRE(by_number.ok());
  by_number->BindInteger("n", 2);
  auto cursor = by_number->Execute();
  REQUIRE(cursor.ok());
  REQUIRE(*cursor->Next());
  CHECK(cursor->GetString(0) == "B");
  by_number->ClearBindings();
  auto missing = by_number->Execute();
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().ToString() == "parameter ~n has no value");
}

TEST_CASE("Connection: a second writer on the same folder opens read-only and says why") {
  testing::TempDir dir;
  auto writer = OpenTestConnection(dir);
  auto reader = Connection::Open({dir.path() / "db", dir.path() / "ontology", false});
  REQUIRE(reader.ok());
  CHECK_FALSE((*reader)->writable());
  REQUIRE(writer->Update(kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"A\" }").ok());
  auto cursor = (*reader)->Query(kEx + "SELECT ?t { ?s ex:title ?t }");
  REQUIRE(cursor.ok());
  REQUIRE(*cursor->Next());  // WAL: the reader sees the committed write
  CHECK(cursor->GetString(0) == "A");
  auto refused = (*reader)->Update(kEx + "INSERT DATA { <urn:b> a ex:Song }");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().ToString().find("read-only: another process holds its lock") != std::string::npos);
}

}  // namespace
}  // namespace quarry
