// Opening an existing database with changed ontology files migrates it in place, or refuses
// and leaves it untouched.
#include <doctest/doctest.h>

#include "store/engine/sqlite/database.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

void Fill(TestStore& store) {
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:s1> a ex:Song ; ex:title "Beta" ; ex:size 10 ; ex:track 1 ; ex:genre "jazz" .
    <urn:s2> a ex:Song ; ex:title "Alpha" ; ex:size 20 ; ex:track 2 ; ex:genre "rock", "pop" .
  })");
}

// The SQL sqlite_schema holds for index `name` ("" when there is none), read beside the store.
std::string IndexSql(const TestStore& store, const std::string& name) {
  auto db = engine::Database::Open(store.dir().path() / "db" / "meta.db", engine::OpenMode::kReadOnly);
  REQUIRE(db.ok());
  auto statement = db->Prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1");
  REQUIRE(statement.ok());
  REQUIRE(statement->Bind(1, std::string_view(name)).ok());
  auto has_row = statement->Step();
  REQUIRE(has_row.ok());
  return *has_row ? std::string(statement->ColumnText(0)) : std::string();
}

TEST_CASE("engine migration: indexes on single-valued columns are partial, older full ones rebuilt") {
  TestStore store;
  Fill(store);
  store.Update(kPrefixes + "INSERT DATA { <urn:e> a ex:Element . <urn:t> a ex:Song }");  // no size, no title
  // nrl:indexed ex:size (a class-table column) and the domain-index mirror of ex:title.
  const std::string size_index = "ex:Element_ex:size", title_index = "ex:Song_ex:title";
  const auto check_partial_and_used = [&] {
    CHECK(IndexSql(store, size_index).find("WHERE \"ex:size\" IS NOT NULL") != std::string::npos);
    CHECK(IndexSql(store, title_index).find("WHERE \"ex:title\" IS NOT NULL") != std::string::npos);
    // Every triple pattern says its value IS NOT NULL, so SQLite may still use them.
    const std::string by_size = "SELECT ?s { ?s ex:size ?n FILTER (?n >= 15) }";
    CHECK(store.Rows(kPrefixes + by_size) == Rows{"urn:s2"});
    CHECK(Explain(store, by_size).find(size_index) != std::string::npos);
    const std::string by_title = "SELECT ?t { ?s a ex:Song ; ex:title ?t } ORDER BY ?t";
    CHECK(store.Rows(kPrefixes + by_title) == Rows{"Alpha", "Beta"});
    CHECK(Explain(store, "SELECT ?s { ?s a ex:Song ; ex:title \"Beta\" }").find(title_index) != std::string::npos);
  };
  check_partial_and_used();
  // A database from before (schema version 1): full indexes, an entry for every row. Opened by
  // a writer, it gets partial ones, once.
  const auto make_full = [&] {
    store.Close();
    auto db = engine::Database::Open(store.dir().path() / "db" / "meta.db", engine::OpenMode::kReadWrite);
    REQUIRE(db.ok());
    REQUIRE(db->Exec("DROP INDEX \"ex:Element_ex:size\"; CREATE INDEX \"ex:Element_ex:size\" ON "
                     "\"ex:Element\" (\"ex:size\"); DROP INDEX \"ex:Song_ex:title\"; CREATE INDEX "
                     "\"ex:Song_ex:title\" ON \"ex:Song\" (\"ex:title\"); UPDATE quarry_meta SET value = '1' "
                     "WHERE key = 'schema_version'").ok());
  };
  make_full();
  CHECK(IndexSql(store, size_index).find("WHERE") == std::string::npos);
  store.Reopen();  // same ontology
  CHECK(store->migration_summary().empty());
  check_partial_and_used();
  make_full();
  store.SetDomainOntology(kTestDomain + "ex:Extra a rdfs:Class ; rdfs:subClassOf ex:Element .\n");
  store.Reopen();  // an ontology migration, which leaves those indexes alone
  CHECK(store->migration_summary() == std::vector<std::string>{"class ex:Extra added"});
  check_partial_and_used();
  store.Update(kPrefixes + "INSERT DATA { <urn:e> ex:size 15 }");
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s ex:size ?n FILTER (?n >= 15) } ORDER BY ?s") == Rows{"urn:e", "urn:s2"});
}

// The SQL sqlite_schema holds for table `name`, read beside the store.
std::string TableSql(const TestStore& store, const std::string& name) {
  auto db = engine::Database::Open(store.dir().path() / "db" / "meta.db", engine::OpenMode::kReadOnly);
  REQUIRE(db.ok());
  auto statement = db->Prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1");
  REQUIRE(statement.ok());
  REQUIRE(statement->Bind(1, std::string_view(name)).ok());
  auto has_row = statement->Step();
  REQUIRE(has_row.ok());
  return *has_row ? std::string(statement->ColumnText(0)) : std::string();
}

TEST_CASE("engine migration: schema version 2's rowid multi-valued tables are rebuilt WITHOUT ROWID") {
  TestStore store;
  Fill(store);
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> ex:keyword \"saxophone\" . "
                           "GRAPH <urn:g> { <urn:s2> ex:genre \"rock\" } }");
  // The layout before version 3: rowid tables with UNIQUE (ID, value, graph), made by hand from
  // the new ones with their rows, plus an index on a value column (as nrl:indexed makes).
  const std::vector<std::pair<std::string, std::string>> old_tables = {
      {"ex:Song_ex:genre", "\"ex:genre\" TEXT"},
      {"rdfs:Resource_rdf:type", "\"rdf:type\" INTEGER"},
      {"ex:Element_ex:keyword", "\"ex:keyword\" TEXT"}};
  store.Close();
  {
    auto db = engine::Database::Open(store.dir().path() / "db" / "meta.db", engine::OpenMode::kReadWrite);
    REQUIRE(db.ok());
    for (const auto& [table, value] : old_tables) {
      const std::string column = value.substr(0, value.rfind(' '));
      const std::string graph = column.substr(0, column.size() - 1) + ":graph\"";
      const std::string sql =
          "CREATE TEMP TABLE old_rows AS SELECT * FROM \"" + table + "\"; DROP TABLE \"" + table +
          "\"; CREATE TABLE \"" + table + "\" (ID INTEGER NOT NULL, " + value + " NOT NULL, " +
          graph + " INTEGER NOT NULL DEFAULT 0, UNIQUE (ID, " + column + ", " + graph +
          ")); INSERT INTO \"" + table + "\" SELECT * FROM old_rows; DROP TABLE old_rows";
      INFO(sql);
      REQUIRE(db->Exec(sql).ok());
    }
    REQUIRE(db->Exec("CREATE INDEX \"ex:Song_ex:genre_ex:genre\" ON \"ex:Song_ex:genre\" "
                     "(\"ex:genre\"); UPDATE quarry_meta SET value = '2' "
                     "WHERE key = 'schema_version'").ok());
  }
  for (const auto& [table, value] : old_tables) {
    CHECK(TableSql(store, table).find("UNIQUE") != std::string::npos);
  }
  store.Reopen();
  CHECK(store->migration_summary().empty());
  for (const auto& [table, value] : old_tables) {
    CAPTURE(table);
    CHECK(TableSql(store, table).find("WITHOUT ROWID") != std::string::npos);
  }
  CHECK(IndexSql(store, "ex:Song_ex:genre_ex:genre") ==
        "CREATE INDEX \"ex:Song_ex:genre_ex:genre\" ON \"ex:Song_ex:genre\" (\"ex:genre\")");
  {
    auto db = engine::Database::Open(store.dir().path() / "db" / "meta.db", engine::OpenMode::kReadOnly);
    REQUIRE(db.ok());
    auto version = db->Prepare("SELECT value FROM quarry_meta WHERE key = 'schema_version'");
    REQUIRE(version.ok());
    REQUIRE(*version->Step());
    CHECK(version->ColumnText(0) == "3");
  }
  // Every row kept, in its graph; subject, object, type and full-text lookups answer right.
  const std::string genres = "SELECT ?s ?g { ?s ex:genre ?g } ORDER BY ?s ?g";
  CHECK(store.Rows(kPrefixes + genres) == Rows{"urn:s1|jazz", "urn:s2|pop", "urn:s2|rock", "urn:s2|rock"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { GRAPH <urn:g> { ?s ex:genre ?x } }") == Rows{"urn:s2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song } ORDER BY ?s") == Rows{"urn:s1", "urn:s2"});
  const std::string by_genre = "SELECT ?s { ?s ex:genre \"pop\" }";
  CHECK(store.Rows(kPrefixes + by_genre) == Rows{"urn:s2"});
  CHECK(Explain(store, by_genre).find("INDEX ex:Song_ex:genre_ex:genre") != std::string::npos);
  CHECK(Explain(store, by_genre).find("SCAN") == std::string::npos);
  const auto search = [&](const std::string& words) {
    return store.Rows("PREFIX fts: <http://tracker.api.gnome.org/ontology/v3/fts#>\n"
                      "SELECT ?r { ?r fts:match \"" + words + "\" } ORDER BY ?r");
  };
  CHECK(search("saxophone") == Rows{"urn:s1"});
  // Writes after the step: a repeat adds nothing, deletes and a whole-resource delete work.
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> ex:genre \"jazz\", \"blues\" ; ex:keyword \"oboe\" }");
  CHECK(store.Rows(kPrefixes + genres) ==
        Rows{"urn:s1|blues", "urn:s1|jazz", "urn:s2|pop", "urn:s2|rock", "urn:s2|rock"});
  CHECK(search("oboe") == Rows{"urn:s1"});
  store.Update(kPrefixes + "DELETE DATA { <urn:s2> ex:genre \"pop\" }");
  store.Update(kPrefixes + "DELETE WHERE { <urn:s1> ?p ?o }");
  CHECK(store.Rows(kPrefixes + genres) == Rows{"urn:s2|rock", "urn:s2|rock"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }") == Rows{"urn:s2"});
  CHECK(search("saxophone").empty());
  // Once: the next writable open finds version 3 and rebuilds nothing.
  const std::string before = TableSql(store, "ex:Song_ex:genre");
  store.Reopen();
  CHECK(TableSql(store, "ex:Song_ex:genre") == before);
  CHECK(store.Rows(kPrefixes + genres) == Rows{"urn:s2|rock", "urn:s2|rock"});
}

TEST_CASE("engine migration: a domain index added then removed keeps every value") {
  TestStore store;
  Fill(store);
  store.SetDomainOntology(Replace(kTestDomain, "nrl:domainIndex ex:title .", "nrl:domainIndex ex:title, ex:size ."));
  store.Reopen();
  CHECK(store->migration_summary() == std::vector<std::string>{"domain index ex:size added to ex:Song"});
  const std::string query = kPrefixes + "SELECT ?s ?n { ?s a ex:Song ; ex:size ?n } ORDER BY ?n";
  CHECK(store.Rows(query) == Rows{"urn:s1|10", "urn:s2|20"});
  auto plan = store->Explain(query);
  REQUIRE(plan.ok());
  CHECK(plan->find("\"ex:Element\"") == std::string::npos);  // read from the mirror
  store.Update(kPrefixes + "INSERT OR REPLACE { <urn:s1> ex:size 30 } WHERE {}");
  CHECK(store.Rows(query) == Rows{"urn:s2|20", "urn:s1|30"});
  store.SetDomainOntology(Replace(kTestDomain, " ; nrl:domainIndex ex:title .", " ."));
  store.Reopen();
  CHECK(store.Rows(query) == Rows{"urn:s2|20", "urn:s1|30"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s a ex:Song ; ex:title ?t } ORDER BY ?t") == Rows{"Alpha", "Beta"});
}

TEST_CASE("engine migration: new class and property become usable, unchanged files change nothing") {
  TestStore store;
  Fill(store);
  store.Reopen();
  CHECK(store->migration_summary().empty());
  store.SetDomainOntology(kTestDomain + R"(
ex:Playlist a rdfs:Class ; rdfs:subClassOf ex:Element .
ex:entry a rdf:Property ; rdfs:domain ex:Playlist ; rdfs:range ex:Song .
ex:bpm a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer ; nrl:maxCardinality 1 ; nrl:indexed true .
)");
  store.Reopen();
  CHECK(store->migration_summary() == std::vector<std::string>{
            "class ex:Playlist added", "property ex:entry added", "property ex:bpm added"});
  store.Update(kPrefixes + "INSERT DATA { <urn:p> a ex:Playlist ; ex:entry <urn:s1>, <urn:s2> . <urn:s1> ex:bpm 120 }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:p> ex:entry ?s . ?s ex:title ?t } ORDER BY ?t") == Rows{"Alpha", "Beta"});
  CHECK(store.Rows(kPrefixes + "SELECT ?b { ?s ex:bpm ?b }") == Rows{"120"});
}

TEST_CASE("engine migration: an incompatible change is refused and the database left untouched") {
  TestStore store;
  Fill(store);
  store.SetDomainOntology(Replace(kTestDomain, "ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string .",
                                  "ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string ; nrl:maxCardinality 1 ."));
  store.Close();
  auto opened = engine::Store::Open({store.dir().path() / "db", store.dir().path() / "ontology", false});
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.error().code() == Errc::kIncompatible);
  CHECK(opened.error().ToString().find(
            "nrl:maxCardinality of ex:genre lowered to 1 but a resource holds more values; the "
            "database was left unchanged") != std::string::npos);
  store.SetDomainOntology(kTestDomain);
  store.Reopen();
  CHECK(store->migration_summary().empty());
  CHECK(store.Rows(kPrefixes + "SELECT ?g { <urn:s2> ex:genre ?g } ORDER BY ?g") == Rows{"pop", "rock"});
}

TEST_CASE("engine migration: a broken ontology file names file:line:column and opens nothing") {
  TestStore store;
  store.SetDomainOntology(kTestDomain + "\nex:broken a rdf:Property ; rdfs:domain ex:Nowhere ; rdfs:range xsd:string .\n");
  store.Close();
  auto opened = engine::Store::Open({store.dir().path() / "db", store.dir().path() / "ontology", false});
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.error().ToString().find("20-ex.ontology:") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
