// SPARQL Update through the embedded Store: every form, every ontology check, rollback.
#include <doctest/doctest.h>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

TEST_CASE("INSERT DATA then SELECT with ORDER BY and LIMIT") {
  TestStore store;
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:s1> a ex:Song ; ex:title "Zebra" ; ex:track 3 ; ex:rating 4.5 ; ex:favourite true ;
             ex:created "2024-05-01T10:00:00+02:00"^^xsd:dateTime ; ex:released "2024-05-01"^^xsd:date .
    <urn:s2> a ex:Song ; ex:title "Aardvark" ; ex:track 1 .
    <urn:s3> ex:title "Mango" ; a ex:Song .
  })");
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?t WHERE { ?s a ex:Song ; ex:title ?t } ORDER BY ?t") ==
        Rows{"urn:s2|Aardvark", "urn:s3|Mango", "urn:s1|Zebra"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t WHERE { ?s ex:title ?t } ORDER BY DESC(?t) LIMIT 1") ==
        Rows{"Zebra"});
  CHECK(store.Rows(kPrefixes + "SELECT ?n ?r ?f ?c ?d WHERE { <urn:s1> ex:track ?n ; ex:rating ?r ; "
                               "ex:favourite ?f ; ex:created ?c ; ex:released ?d }") ==
        Rows{"3|4.5|true|2024-05-01T10:00:00+02:00|2024-05-01"});
  // Superclass types are implied.
  CHECK(store.Rows(kPrefixes + "SELECT ?s WHERE { ?s a ex:Element } ORDER BY ?s") ==
        Rows{"urn:s1", "urn:s2", "urn:s3"});
}

TEST_CASE("FILTER on numbers, dates, strings and resources") {
  TestStore store;
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:a> a ex:Artist ; ex:name "Nina" .
    <urn:s1> a ex:Song ; ex:title "One" ; ex:track 1 ; ex:performer <urn:a> ;
             ex:created "2020-01-01T00:00:00Z" .
    <urn:s2> a ex:Song ; ex:title "Two" ; ex:track 2 ; ex:created "2023-06-01T12:00:00-05:00" .
  })");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t ; ex:track ?n FILTER (?n > 1) }") == Rows{"Two"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t ; ex:created ?c "
                               "FILTER (?c >= \"2021-01-01T00:00:00Z\"^^xsd:dateTime) }") == Rows{"Two"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t FILTER (CONTAINS(?t, \"n\")) }") == Rows{"One"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t FILTER REGEX(?t, \"^t\", \"i\") }") == Rows{"Two"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t ; ex:performer ?p FILTER (?p = <urn:a>) }") ==
        Rows{"One"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t OPTIONAL { ?s ex:performer ?p } "
                               "FILTER (!BOUND(?p)) }") == Rows{"Two"});
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?s) AS ?n) { ?s a ex:Song }") == Rows{"2"});
}

TEST_CASE("tracker:id and tracker:uri round trip") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:x> a ex:Song ; ex:title \"X\" }");
  const Rows ids = store.Rows(kPrefixes + "SELECT (tracker:id(?s) AS ?id) { ?s ex:title \"X\" }");
  REQUIRE(ids.size() == 1);
  CHECK(store.Rows("SELECT (tracker:uri(" + ids[0] + ") AS ?u) {}") == Rows{"urn:x"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t FILTER (tracker:id(?s) IN (" + ids[0] +
                   ", 99999)) }") == Rows{"X"});
}

TEST_CASE("DELETE DATA, DELETE WHERE and DELETE/INSERT WHERE") {
  TestStore store;
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:s1> a ex:Song ; ex:title "One" ; ex:genre "jazz", "rock" .
    <urn:s2> a ex:Song ; ex:title "Two" .
  })");
  store.Update(kPrefixes + "DELETE DATA { <urn:s1> ex:genre \"rock\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?g { <urn:s1> ex:genre ?g }") == Rows{"jazz"});
  store.Update(kPrefixes + "DELETE { ?s ex:title ?t } INSERT { ?s ex:title \"Uno\" } "
                           "WHERE { ?s ex:title ?t FILTER (?t = \"One\") }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t } ORDER BY ?t") == Rows{"Two", "Uno"});
  store.Update(kPrefixes + "DELETE WHERE { <urn:s2> ex:title ?t }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t }") == Rows{"Uno"});
  // Tracker's idiom: deleting the rdfs:Resource type deletes the resource.
  store.Update(kPrefixes + "DELETE { ?s a rdfs:Resource } WHERE { ?s ex:title \"Uno\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Element }") == Rows{"urn:s2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?g { ?s ex:genre ?g }").empty());
}

TEST_CASE("INSERT OR REPLACE replaces single values, plain INSERT refuses a second one") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:title \"Old\" }");
  const std::string error = store.UpdateError(kPrefixes + "INSERT DATA { <urn:s> ex:title \"New\" }");
  CHECK(error.find("ex:title is single-valued and already holds \"Old\"") != std::string::npos);
  CHECK(error.find("subject <urn:s>: ex:title is single-valued and already holds \"Old\"; cannot add \"New\"") !=
        std::string::npos);
  store.Update(kPrefixes + "INSERT OR REPLACE { <urn:s> ex:title \"New\" } WHERE {}");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:s> ex:title ?t }") == Rows{"New"});
  store.Update(kPrefixes + "INSERT DATA { <urn:s> ex:title \"New\" }");  // same value: no-op
}

TEST_CASE("ontology checks name the triple and the reason, and roll back the update") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:a> a ex:Artist ; ex:name \"A\" }");
  SUBCASE("unknown property") {
    CHECK(store.UpdateError(kPrefixes + "INSERT DATA { <urn:a> ex:nope 1 }")
              .find("unknown property <http://example.org/ex#nope>") != std::string::npos);
  }
  SUBCASE("unknown class") {
    CHECK(store.UpdateError(kPrefixes + "INSERT DATA { <urn:b> a ex:Nope }")
              .find("unknown class <http://example.org/ex#Nope>") != std::string::npos);
  }
  SUBCASE("domain violation") {
    CHECK(store.UpdateError(kPrefixes + "INSERT DATA { <urn:a> ex:track 4 }")
              .find("not in the domain of ex:track") != std::string::npos);
  }
  SUBCASE("range violation: literal for a resource") {
    CHECK(store.UpdateError(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:performer \"Nina\" }")
              .find("the range of ex:performer is the class ex:Artist") != std::string::npos);
  }
  SUBCASE("datatype mismatch") {
    CHECK(store.UpdateError(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:track \"three\" }")
              .find("is not a valid integer") != std::string::npos);
    CHECK(store.UpdateError(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:created \"yesterday\" }")
              .find("is not a valid dateTime") != std::string::npos);
  }
  // Nothing of a failed update remains: <urn:s> was typed in the same request.
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }").empty());
  CHECK(store.Rows(kPrefixes + "SELECT ?n { ?a ex:name ?n }") == Rows{"A"});
}

TEST_CASE("a type stated after the properties in the same update is accepted") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s> ex:title \"T\" ; ex:track 2 . <urn:s> a ex:Song }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?n { ?s a ex:Song ; ex:title ?t ; ex:track ?n }") == Rows{"T|2"});
}

TEST_CASE("blank nodes: labels and [] get fresh resources per update") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { _:a a ex:Artist ; ex:name \"A\" . <urn:s> a ex:Song ; ex:performer _:a }");
  store.Update(kPrefixes + "INSERT DATA { <urn:t> a ex:Song ; ex:performer [ a ex:Artist ; ex:name \"B\" ] }");
  store.Update(kPrefixes + "INSERT DATA { _:a a ex:Artist ; ex:name \"C\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?n { ?a a ex:Artist ; ex:name ?n } ORDER BY ?n") == Rows{"A", "B", "C"});
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:t> ex:performer ?a . ?a ex:name ?n }") == Rows{"B"});
  const Rows blank = store.Rows(kPrefixes + "SELECT ?a { <urn:s> ex:performer ?a }");
  REQUIRE(blank.size() == 1);
  CHECK(blank[0].rfind("_:b", 0) == 0);
}

TEST_CASE("named graphs: GRAPH, WITH, CLEAR and DROP") {
  TestStore store;
  store.Update(kPrefixes + R"(INSERT DATA {
    GRAPH <urn:g1> { <urn:s1> a ex:Song ; ex:title "In g1" }
    GRAPH <urn:g2> { <urn:s2> a ex:Song ; ex:title "In g2" }
    <urn:s3> a ex:Song ; ex:title "Default" })");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { GRAPH <urn:g1> { ?s ex:title ?t } }") == Rows{"In g1"});
  CHECK(store.Rows(kPrefixes + "SELECT ?g ?t { GRAPH ?g { ?s ex:title ?t } } ORDER BY ?g") ==
        Rows{"urn:g1|In g1", "urn:g2|In g2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t } ORDER BY ?t").size() == 3);
  store.Update(kPrefixes + "WITH <urn:g2> INSERT { ?s ex:track 7 } WHERE { ?s ex:title ?t }");
  CHECK(store.Rows(kPrefixes + "SELECT ?g { GRAPH ?g { ?s ex:track 7 } }") == Rows{"urn:g2"});
  store.Update("CLEAR GRAPH <urn:g1>");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t } ORDER BY ?t") == Rows{"Default", "In g2"});
  store.Update("DROP GRAPH <urn:g2>");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t }") == Rows{"Default"});
  CHECK(store.UpdateError("DROP GRAPH <urn:g2>").find("graph <urn:g2> does not exist") != std::string::npos);
  store.Update("DROP SILENT GRAPH <urn:g2>");
}

TEST_CASE("Unicode and very long literals survive storage and full text") {
  TestStore store;
  const std::string long_text(2 * 1024 * 1024, 'x');
  store.Update(kPrefixes + "INSERT DATA { <urn:u> a ex:Song ; ex:title \"日本語 Übersicht 🎵\"@de ; "
                           "ex:content \"" + long_text + " needle\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t (LANG(?t) AS ?l) { <urn:u> ex:title ?t }") ==
        Rows{"日本語 Übersicht 🎵|de"});
  CHECK(store.Rows(kPrefixes + "SELECT (STRLEN(?c) AS ?n) { <urn:u> ex:content ?c }") ==
        Rows{std::to_string(long_text.size() + 7)});
}

TEST_CASE("a batch is one transaction: a failing request rolls back the batch") {
  TestStore store;
  const std::vector<std::string> batch = {
      kPrefixes + "INSERT DATA { <urn:1> a ex:Song }",
      kPrefixes + "INSERT DATA { <urn:2> a ex:Song ; ex:track \"bad\" }",
  };
  auto done = store->UpdateBatch(batch);
  REQUIRE_FALSE(done.ok());
  CHECK(done.error().ToString().rfind("update 2: ", 0) == 0);
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }").empty());
  REQUIRE(store->UpdateBatch(std::vector<std::string>{batch[0]}).ok());
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }") == Rows{"urn:1"});
}

TEST_CASE("bad SPARQL gives line:column and changes nothing") {
  TestStore store;
  const std::string error = store.UpdateError("INSERT DATA { <urn:a> a }");
  CHECK(error.find("1:") != std::string::npos);
}

TEST_CASE("a 100k-triple import in one update, then counts") {
  TestStore store;
  std::string update = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 20000; ++i) {
    update += "<urn:song:" + std::to_string(i) + "> a ex:Song ; ex:title \"Song " + std::to_string(i) +
              "\" ; ex:track " + std::to_string(i % 20) + " ; ex:genre \"g" + std::to_string(i % 7) +
              "\" ; ex:created \"2024-01-01T00:00:00Z\" .\n";
  }
  update += "}";
  store.Update(update);
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?s) AS ?n) { ?s a ex:Song }") == Rows{"20000"});
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?s) AS ?n) { ?s ex:genre \"g3\" }") == Rows{"2857"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s a ex:Song ; ex:title ?t } ORDER BY ?t LIMIT 2") ==
        Rows{"Song 0", "Song 1"});
}

}  // namespace
}  // namespace quarry::testing

namespace quarry::testing {
namespace {

TEST_CASE("LOAD reads a local Turtle file, into a named graph when asked, and names a broken one") {
  TestStore store;
  const auto file = store.dir().Write("songs dir/songs.ttl",
                                      "@prefix ex: <http://example.org/ex#> .\n"
                                      "<urn:l1> ex:title \"Loaded\" ; a ex:Song .\n");
  store.Update("LOAD <file://" + file.parent_path().parent_path().string() + "/songs%20dir/songs.ttl> INTO GRAPH <urn:g>");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { GRAPH <urn:g> { ?s ex:title ?t } }") ==
        std::vector<std::string>{"Loaded"});
  const auto broken = store.dir().Write("broken.ttl", "<urn:a> <urn:b> .\n");
  const std::string error = store.UpdateError("LOAD <file://" + broken.string() + ">");
  CHECK(error.find("broken.ttl:1:") != std::string::npos);
  const auto half = store.dir().Write("half.ttl",
                                      "@prefix ex: <http://example.org/ex#> .\n"
                                      "<urn:h1> a ex:Song ; ex:title \"Half\" .\n<urn:h2> ex:nope 1 .\n");
  store.Update("LOAD SILENT <file://" + half.string() + ">");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:h1> ex:title ?t }").empty());  // nothing kept
}

}  // namespace
}  // namespace quarry::testing

namespace quarry::testing {
namespace {

TEST_CASE("new resources take the bulk path with the same checks and the same results") {
  TestStore store;
  const std::string error = store.UpdateError(kPrefixes + "INSERT DATA { <urn:n> a ex:Song ; ex:title \"A\", \"B\" }");
  CHECK(error.find("ex:title is single-valued and already holds \"A\"; cannot add \"B\"") != std::string::npos);
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }").empty());
  store.Update(kPrefixes + "INSERT OR REPLACE DATA { <urn:n> a ex:Song ; ex:title \"A\" ; ex:title \"B\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:n> ex:title ?t }") == std::vector<std::string>{"B"});
  // Many new resources in one update: mirrors, types and full text all follow.
  std::string update = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 1000; ++i) {
    update += "<urn:m" + std::to_string(i) + "> ex:title \"t" + std::to_string(999 - i) +
              "\" ; ex:track " + std::to_string(i) + " ; a ex:Song .\n";
  }
  store.Update(update + "}");
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song ; ex:title ?t FILTER (STRSTARTS(?t, \"t\")) } ORDER BY ?t LIMIT 1") ==
        std::vector<std::string>{"urn:m999"});
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?s) AS ?n) { ?s a ex:Element }") == std::vector<std::string>{"1001"});
  auto check = store->database().Prepare("SELECT count(*) FROM fts5 WHERE fts5 MATCH 't500'");
  REQUIRE(check.ok());
  REQUIRE(*check->Step());
  CHECK(check->ColumnInt64(0) == 1);
  // Rows grouped by class signature (songs, artists) leave a consistent index.
  store.Update(kPrefixes + "INSERT DATA { <urn:art> a ex:Artist ; ex:name \"Zoë\" . <urn:m1> ex:keyword \"Polka\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?n { ?a ex:name ?n }") == std::vector<std::string>{"Zoë"});
  REQUIRE(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());
  auto zoe = store->database().Prepare("SELECT rowid FROM fts5 WHERE fts5 MATCH 'zoe OR polka' ORDER BY rowid");
  REQUIRE(zoe.ok());
  int matches = 0;
  while (*zoe->Step()) ++matches;
  CHECK(matches == 2);
}

}  // namespace
}  // namespace quarry::testing
