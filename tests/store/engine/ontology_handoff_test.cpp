// The ontology hand-off (store.h StoreOptions::ontology): quarry-store builds its ontology once,
// with the writer, and every read connection it opens takes that object; no ontology file is
// read again for them.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

TEST_CASE("engine ontology hand-off: a read connection takes the writer's ontology, reads no file") {
  TestStore writer;
  writer.Update(kPrefixes + R"(INSERT DATA { <urn:s1> a ex:Song ; ex:title "Beta" })");
  // The files go away after the writer opened: a connection that read them would fail.
  std::filesystem::remove_all(writer.dir().path() / "ontology");
  engine::StoreOptions options;
  options.directory = writer.dir().path() / "db";
  options.ontology_dir = writer.dir().path() / "ontology";
  options.read_only = true;
  CHECK_FALSE(engine::Store::Open(options).ok());

  options.ontology = writer->shared_ontology();
  auto first = engine::Store::Open(options);
  INFO((first ? std::string() : first.error().ToString()));
  REQUIRE(first.ok());
  auto second = engine::Store::Open(options);
  REQUIRE(second.ok());
  CHECK_FALSE((*first)->writable());
  CHECK(&(*first)->ontology() == &writer->ontology());
  CHECK(&(*second)->ontology() == &writer->ontology());
  CHECK((*first)->migration_summary().empty());
  const std::string query = kPrefixes + "SELECT ?t { ?s a ex:Song ; ex:title ?t }";
  const auto title = [](engine::Cursor& cursor, int i) { return std::string(cursor.GetString(i)); };
  CHECK(RequireRows((*first)->Query(query), query, title) == std::vector<std::string>{"Beta"});
  // What the writer commits later is seen through the handed-over schema too.
  writer.Update(kPrefixes + R"(INSERT DATA { <urn:s2> a ex:Song ; ex:title "Alpha" })");
  CHECK(RequireRows((*second)->Query(query + " ORDER BY ?t"), query, title) ==
        std::vector<std::string>{"Alpha", "Beta"});
}

TEST_CASE("engine ontology hand-off: a connection that holds the lock still reads its files") {
  TestStore writer;
  const auto handed = writer->shared_ontology();
  writer.Close();
  std::filesystem::remove_all(writer.dir().path() / "ontology");
  engine::StoreOptions options;
  options.directory = writer.dir().path() / "db";
  options.ontology_dir = writer.dir().path() / "ontology";
  options.ontology = handed;
  // A writer must compare the database with the files (and migrate): the hand-off is ignored.
  auto reopened = engine::Store::Open(options);
  REQUIRE_FALSE(reopened.ok());
  CHECK(reopened.error().code() == Errc::kNotFound);
}

}  // namespace
}  // namespace quarry::testing
