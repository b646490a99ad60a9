// Migration plans run on real SQLite: each kind of ontology change, with data present.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

#include "store/ontology/loader.h"
#include "store/schema/ddl.h"
#include "store/schema/migration_plan.h"
#include "tests/store/schema/test_ontology.h"

namespace quarry::schema {
namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::shared_ptr<const ontology::Ontology> Load(const std::string& domain_text) {
  auto loaded = ontology::LoadOntologyTexts(
      {{"10-base.ontology", testing::kTestBase}, {"20-ex.ontology", domain_text}});
  INFO((loaded ? std::string() : loaded.error().ToString()));
  REQUIRE(loaded.ok());
  return *loaded;
}

class Fixture {
 public:
  Fixture() : current_(Load(testing::kTestDomain)) {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(":memory:", &raw) == SQLITE_OK);
    db_.reset(raw);
    for (const std::string& sql : CreateSchemaSql(*current_)) Exec(sql);
    Exec("INSERT INTO \"rdfs:Resource\" (ID) VALUES (100), (101)");
    Exec("INSERT INTO \"ex:Element\" (ID, \"ex:title\", \"ex:size\") VALUES (100, 'One', 5), "
         "(101, 'Two', 6)");
    Exec("INSERT INTO \"ex:Media\" (ID) VALUES (100), (101)");
    Exec("INSERT INTO \"ex:Song\" (ID, \"ex:track\") VALUES (100, 1), (101, 2)");
    Exec("INSERT INTO \"ex:Song_ex:genre\" (ID, \"ex:genre\") VALUES (100, 'jazz'), (101, 'rock')");
  }

  void Exec(const std::string& sql) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &message);
    INFO(sql << " -> " << (message ? message : ""));
    sqlite3_free(message);
    REQUIRE(rc == SQLITE_OK);
  }
  bool HasRow(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    const bool has_row = sqlite3_step(statement) == SQLITE_ROW;
    sqlite3_finalize(statement);
    return has_row;
  }
  std::vector<std::string> Column(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    std::vector<std::string> values;
    while (sqlite3_step(statement) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(statement, 0);
      values.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
    }
    sqlite3_finalize(statement);
    return values;
  }

  // Plans old → new; returns the message of the first failing check, or "" after applying it.
  std::string Migrate(const std::string& new_domain_text) {
    const auto next = Load(new_domain_text);
    const MigrationPlan plan = PlanMigration(*current_, *next);
    for (const MigrationCheck& check : plan.checks) {
      if (HasRow(check.sql)) return check.message;
    }
    for (const std::string& sql : plan.statements) Exec(sql);
    current_ = next;
    return "";
  }

 private:
  std::unique_ptr<sqlite3, DbCloser> db_;
  std::shared_ptr<const ontology::Ontology> current_;
};

const std::string& V1() { return testing::kTestDomain; }

TEST_CASE("migration: unchanged ontology plans nothing") {
  const auto a = Load(V1());
  const auto b = Load(V1());
  CHECK(PlanMigration(*a, *b).empty());
}

TEST_CASE("migration: new class and new properties, single- and multi-valued") {
  Fixture fixture;
  const std::string v2 = V1() + R"(
ex:Playlist a rdfs:Class ; rdfs:subClassOf ex:Element .
ex:entries a rdf:Property ; rdfs:domain ex:Playlist ; rdfs:range ex:Song .
ex:duration a rdf:Property ; rdfs:domain ex:Playlist ; rdfs:range xsd:integer ; nrl:maxCardinality 1 .
ex:bpm a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer ; nrl:maxCardinality 1 ; nrl:indexed true .
ex:mood a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string .
)";
  CHECK(fixture.Migrate(v2) == "");
  fixture.Exec("INSERT INTO \"ex:Playlist\" (ID, \"ex:duration\") VALUES (100, 60)");
  fixture.Exec("INSERT INTO \"ex:Playlist_ex:entries\" (ID, \"ex:entries\") VALUES (100, 101)");
  fixture.Exec("UPDATE \"ex:Song\" SET \"ex:bpm\" = 120 WHERE ID = 100");
  fixture.Exec("INSERT INTO \"ex:Song_ex:mood\" (ID, \"ex:mood\") VALUES (100, 'calm')");
  CHECK(fixture.HasRow("SELECT 1 FROM sqlite_master WHERE name = 'ex:Song_ex:bpm'"));
  CHECK(fixture.Column("SELECT \"ex:track\" FROM \"ex:Song\" ORDER BY ID") ==
        std::vector<std::string>{"1", "2"});
}

TEST_CASE("migration: an index added and removed") {
  Fixture fixture;
  const std::string indexed = Replace(V1(), "ex:track a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer ; nrl:maxCardinality 1 .",
                                      "ex:track a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer ; nrl:maxCardinality 1 ; nrl:indexed true .");
  CHECK(fixture.Migrate(indexed) == "");
  CHECK(fixture.HasRow("SELECT 1 FROM sqlite_master WHERE name = 'ex:Song_ex:track'"));
  CHECK(fixture.Migrate(V1()) == "");
  CHECK_FALSE(fixture.HasRow("SELECT 1 FROM sqlite_master WHERE name = 'ex:Song_ex:track'"));
  CHECK(fixture.Column("SELECT \"ex:track\" FROM \"ex:Song\" ORDER BY ID") ==
        std::vector<std::string>{"1", "2"});
}

TEST_CASE("migration: a domain index added then removed keeps every value") {
  Fixture fixture;
  const std::string with_size = Replace(V1(), "nrl:domainIndex ex:title .",
                                        "nrl:domainIndex ex:title, ex:size .");
  CHECK(fixture.Migrate(with_size) == "");
  CHECK(fixture.Column("SELECT \"ex:size\" FROM \"ex:Song\" ORDER BY ID") ==
        std::vector<std::string>{"5", "6"});
  fixture.Exec("UPDATE \"ex:Element\" SET \"ex:size\" = 7 WHERE ID = 101");
  CHECK(fixture.Column("SELECT \"ex:size\" FROM \"ex:Song\" ORDER BY ID") ==
        std::vector<std::string>{"5", "7"});
  const std::string without_title = Replace(V1(), " ; nrl:domainIndex ex:title .", " .");
  CHECK(fixture.Migrate(without_title) == "");
  CHECK(fixture.Column("SELECT name FROM pragma_table_info('ex:Song') WHERE name IN "
                       "('ex:title', 'ex:size')").empty());
  CHECK(fixture.Column("SELECT \"ex:title\" || '/' || \"ex:size\" FROM \"ex:Element\" ORDER BY ID") ==
        std::vector<std::string>{"One/5", "Two/7"});
  // Writes after the removal no longer touch the dropped mirror.
  fixture.Exec("UPDATE \"ex:Element\" SET \"ex:title\" = 'Uno' WHERE ID = 100");
}

TEST_CASE("migration: full-text flag added rebuilds the index") {
  Fixture fixture;
  fixture.Exec("INSERT INTO \"ex:Artist\" (ID, \"ex:name\") VALUES (200, 'Nina')");
  fixture.Exec("INSERT INTO \"rdfs:Resource\" (ID) VALUES (200)");
  const std::string v2 = Replace(V1(), "ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string .",
                                 "ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string ; nrl:fulltextIndexed true .");
  CHECK(fixture.Migrate(v2) == "");
  CHECK(fixture.Column("SELECT rowid FROM fts5 WHERE fts5 MATCH 'jazz'") ==
        std::vector<std::string>{"100"});
  CHECK(fixture.Column("SELECT rowid FROM fts5 WHERE fts5 MATCH 'nina'") ==
        std::vector<std::string>{"200"});
}

TEST_CASE("migration: a range change is refused while values are stored") {
  Fixture fixture;
  const std::string v2 = Replace(V1(), "ex:track a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer",
                                 "ex:track a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string");
  CHECK(fixture.Migrate(v2) ==
        "the range of ex:track changed from xsd:integer to xsd:string but values of it are stored");
  fixture.Exec("UPDATE \"ex:Song\" SET \"ex:track\" = NULL");
  CHECK(fixture.Migrate(v2) == "");
}

TEST_CASE("migration: cardinality lowered below the data is refused, otherwise values move") {
  Fixture fixture;
  const std::string single = Replace(V1(), "ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string .",
                                     "ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string ; nrl:maxCardinality 1 .");
  fixture.Exec("INSERT INTO \"ex:Song_ex:genre\" (ID, \"ex:genre\") VALUES (100, 'blues')");
  CHECK(fixture.Migrate(single) ==
        "nrl:maxCardinality of ex:genre lowered to 1 but a resource holds more values");
  fixture.Exec("DELETE FROM \"ex:Song_ex:genre\" WHERE \"ex:genre\" = 'blues'");
  CHECK(fixture.Migrate(single) == "");
  CHECK(fixture.Column("SELECT \"ex:genre\" FROM \"ex:Song\" ORDER BY ID") ==
        std::vector<std::string>{"jazz", "rock"});
  CHECK(fixture.Migrate(V1()) == "");  // raised again: back into a table
  CHECK(fixture.Column("SELECT \"ex:genre\" FROM \"ex:Song_ex:genre\" ORDER BY ID") ==
        std::vector<std::string>{"jazz", "rock"});
}

TEST_CASE("migration: removing a property or class that holds data is refused") {
  Fixture fixture;
  const std::string no_track = Replace(V1(), "ex:track a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer ; nrl:maxCardinality 1 .", "");
  CHECK(fixture.Migrate(no_track) ==
        "property ex:track is removed from the ontology but values of it are stored");
  const std::string no_artist = Replace(
      Replace(Replace(V1(), "ex:Artist a rdfs:Class ; rdfs:subClassOf rdfs:Resource .", ""),
              "ex:name a rdf:Property ; rdfs:domain ex:Artist ; rdfs:range xsd:string ; nrl:maxCardinality 1 ; nrl:fulltextIndexed true .", ""),
      "ex:member a rdf:Property ; rdfs:domain ex:Artist ; rdfs:range ex:Artist .", "");
  const std::string no_artist_ranges = Replace(no_artist, "rdfs:range ex:Artist ; nrl:maxCardinality 1 ; nrl:indexed true .",
                                               "rdfs:range rdfs:Resource ; nrl:maxCardinality 1 ; nrl:indexed true .");
  CHECK(fixture.Migrate(no_artist_ranges) == "");  // no artist stored: allowed
}

}  // namespace
}  // namespace quarry::schema
