// The public API: Connection, Cursor, Statement with ~parameters, Batch.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

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

// Constants of the query and ~parameters used to share SQL parameter numbers: a `~name` written
// before a literal took the literal's slot, so one of them was bound to the other's value.
TEST_CASE("Statement: ~parameters and literals of one query each keep their own value") {
  testing::TempDir dir;
  auto connection = OpenTestConnection(dir);
  REQUIRE(connection->Update(kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"A\" ; ex:track 1 . "
                                   "<urn:b> a ex:Song ; ex:title \"B\" ; ex:track 2 }").ok());
  const auto titles = [](Statement& statement) {
    std::vector<std::string> found;
    auto cursor = statement.Execute();
    INFO((cursor ? std::string() : cursor.error().ToString()));
    REQUIRE(cursor.ok());
    while (*cursor->Next()) found.emplace_back(cursor->GetString(0));
    return found;
  };
  SUBCASE("parameter before a FILTER constant") {
    auto statement = connection->Prepare(kEx + "SELECT ?t { ?s ex:track ~n ; ex:title ?t FILTER (?t = \"B\") }");
    REQUIRE(statement.ok());
    statement->BindInteger("n", 2);
    CHECK(titles(*statement) == std::vector<std::string>{"B"});
    statement->BindInteger("n", 1);
    CHECK(titles(*statement).empty());
  }
  SUBCASE("constant before a parameter, and a parameter between two constants") {
    auto statement = connection->Prepare(
        kEx + "SELECT ?t { ?s ex:title \"B\" ; ex:track ~n ; ex:title ?t FILTER (?t != \"A\") }");
    REQUIRE(statement.ok());
    statement->BindInteger("n", 2);
    CHECK(titles(*statement) == std::vector<std::string>{"B"});
  }
  SUBCASE("UNION branches marked by constants, parameters in each") {
    auto statement = connection->Prepare(
        kEx + "SELECT ?t ?k { { ~s ex:title ?t BIND (\"title\" AS ?k) } UNION "
              "{ ?x ex:track ~n ; ex:title ?t BIND (\"track\" AS ?k) } } ORDER BY ?k");
    REQUIRE(statement.ok());
    statement->BindIri("s", "urn:a");
    statement->BindInteger("n", 2);
    auto cursor = statement->Execute();
    REQUIRE(cursor.ok());
    std::vector<std::string> rows;
    while (*cursor->Next()) rows.push_back(fmt::format("{}|{}", cursor->GetString(0), cursor->GetString(1)));
    CHECK(rows == std::vector<std::string>{"A|title", "B|track"});
  }
}

// A prepared statement binds each ~name once per run into every slot the SQL gives it (the
// engine's BindPlan): a name repeated in UNION branches, next to constants and another name,
// takes its new value in every branch on each run.
TEST_CASE("Statement: a ~parameter repeated in several branches takes its value in each") {
  testing::TempDir dir;
  auto connection = OpenTestConnection(dir);
  REQUIRE(connection->Update(kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"A\" ; ex:track 1 . "
                                   "<urn:b> a ex:Song ; ex:title \"B\" ; ex:track 2 . "
                                   "<urn:c> a ex:Song ; ex:title \"C\" ; ex:track 3 }").ok());
  auto statement = connection->Prepare(
      kEx + "SELECT ?k ?t { { ?s ex:track ~n ; ex:title ?t BIND (\"1\" AS ?k) } UNION "
            "{ ?s ex:title ?t ; ex:track ~n FILTER (?t != \"Z\") BIND (\"2\" AS ?k) } UNION "
            "{ ~s ex:title ?t BIND (\"3\" AS ?k) } UNION "
            "{ ?s ex:track ?n ; ex:title ?t FILTER (?n = ~n || ?s = ~s) BIND (\"4\" AS ?k) } } "
            "ORDER BY ?k ?t");
  REQUIRE(statement.ok());
  const auto rows = [&] {
    std::vector<std::string> found;
    auto cursor = statement->Execute();
    INFO((cursor ? std::string() : cursor.error().ToString()));
    REQUIRE(cursor.ok());
    while (*cursor->Next()) found.push_back(fmt::format("{}|{}", cursor->GetString(0), cursor->GetString(1)));
    return found;
  };
  statement->BindInteger("n", 1);
  statement->BindIri("s", "urn:c");
  CHECK(rows() == std::vector<std::string>{"1|A", "2|A", "3|C", "4|A", "4|C"});
  statement->BindInteger("n", 2);
  statement->BindIri("s", "urn:a");
  CHECK(rows() == std::vector<std::string>{"1|B", "2|B", "3|A", "4|A", "4|B"});
  statement->ClearBindings();
  statement->BindInteger("n", 3);
  auto missing = statement->Execute();
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().ToString() == "parameter ~s has no value");
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
