// Connections of one process to one database share one Ontology (ontology/loader.h: while an
// Ontology built from the same texts is alive, loading them again returns it): quarry-store's
// writer and its read connections, and embedded users who open several connections.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

Result<std::unique_ptr<engine::Store>> OpenReader(const TestStore& writer) {
  return engine::Store::Open(
      {writer.dir().path() / "db", writer.dir().path() / "ontology", /*read_only=*/true});
}

TEST_CASE("engine ontology sharing: read connections take the writer's Ontology object") {
  TestStore writer;
  writer.Update(kPrefixes + R"(INSERT DATA { <urn:s1> a ex:Song ; ex:title "Beta" })");
  auto first = OpenReader(writer);
  INFO((first ? std::string() : first.error().ToString()));
  REQUIRE(first.ok());
  auto second = OpenReader(writer);
  REQUIRE(second.ok());
  CHECK_FALSE((*first)->writable());
  CHECK(&(*first)->ontology() == &writer->ontology());
  CHECK(&(*second)->ontology() == &writer->ontology());
  const std::string query = kPrefixes + "SELECT ?t { ?s a ex:Song ; ex:title ?t } ORDER BY ?t";
  const auto title = [](engine::Cursor& cursor, int i) { return std::string(cursor.GetString(i)); };
  CHECK(RequireRows((*first)->Query(query), query, title) == std::vector<std::string>{"Beta"});
  writer.Update(kPrefixes + R"(INSERT DATA { <urn:s2> a ex:Song ; ex:title "Alpha" })");
  CHECK(RequireRows((*second)->Query(query), query, title) ==
        std::vector<std::string>{"Alpha", "Beta"});
}

TEST_CASE("engine ontology sharing: after a migration, new readers share the migrated Ontology") {
  TestStore writer;
  auto before = OpenReader(writer);
  REQUIRE(before.ok());
  writer.SetDomainOntology(kTestDomain + "ex:Extra a rdfs:Class ; rdfs:subClassOf ex:Element .\n");
  writer.Reopen();
  REQUIRE(writer->migration_summary() == std::vector<std::string>{"class ex:Extra added"});
  // The reader opened before keeps the ontology it opened with; one opened now takes the new.
  CHECK(&(*before)->ontology() != &writer->ontology());
  CHECK((*before)->ontology().FindClassByName("ex:Extra") == nullptr);
  auto after = OpenReader(writer);
  REQUIRE(after.ok());
  CHECK(&(*after)->ontology() == &writer->ontology());
  CHECK((*after)->ontology().FindClassByName("ex:Extra") != nullptr);
}

}  // namespace
}  // namespace quarry::testing
