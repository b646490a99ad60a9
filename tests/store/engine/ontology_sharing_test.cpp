// Connections of one process to one database share one Ontology (ontology/loader.h: while an
// Ontology built from the same texts is alive, loading them again returns it): quarry-store's
// writer and its read connections, and embedded users who open several connections.
#include <doctest/doctest.h>

#include <filesystem>
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

// A read connection follows the ontology stored in the database, never the folder: files
// changed on disk that the writer has not migrated to are not its ontology, and a folder that
// does not exist does not stop it opening (it reads no file).
TEST_CASE("engine ontology sharing: a read connection takes the writer's ontology, not the folder's files") {
  TestStore writer;
  writer.Update(kPrefixes + R"(INSERT DATA { <urn:s1> a ex:Song ; ex:title "Beta" })");
  const std::filesystem::path missing = writer.dir().path() / "no-such-ontology";
  const auto open_without_folder = [&] {
    auto reader = engine::Store::Open({writer.dir().path() / "db", missing, /*read_only=*/true});
    INFO((reader ? std::string() : reader.error().ToString()));
    REQUIRE(reader.ok());
    return std::move(*reader);
  };
  writer.SetDomainOntology(kTestDomain + "ex:Extra a rdfs:Class ; rdfs:subClassOf ex:Element .\n");
  auto on_disk_changed = OpenReader(writer);
  REQUIRE(on_disk_changed.ok());
  CHECK(&(*on_disk_changed)->ontology() == &writer->ontology());
  CHECK((*on_disk_changed)->ontology().FindClassByName("ex:Extra") == nullptr);
  auto before = open_without_folder();
  CHECK(&before->ontology() == &writer->ontology());
  const std::string query = kPrefixes + "SELECT ?t { ?s a ex:Song ; ex:title ?t }";
  const auto title = [](engine::Cursor& cursor, int i) { return std::string(cursor.GetString(i)); };
  CHECK(RequireRows(before->Query(query), query, title) == std::vector<std::string>{"Beta"});
  // The writer reopened migrates to the files: a reader opened now has the migrated ontology,
  // the writer's own object, though it was given no folder.
  writer.Reopen();
  REQUIRE(writer->migration_summary() == std::vector<std::string>{"class ex:Extra added"});
  auto after = open_without_folder();
  CHECK(&after->ontology() == &writer->ontology());
  CHECK(after->ontology().FindClassByName("ex:Extra") != nullptr);
  CHECK(before->ontology().FindClassByName("ex:Extra") == nullptr);
}

}  // namespace
}  // namespace quarry::testing
