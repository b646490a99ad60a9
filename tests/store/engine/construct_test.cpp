// CONSTRUCT and DESCRIBE through the embedded Store: templates, blank nodes, skipped triples,
// duplicates, solution modifiers, and descriptions of named and bound resources.
#include <doctest/doctest.h>

#include <set>

#include "store/engine/results/term_syntax.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Lines = std::vector<std::string>;

const std::string kSongs = kPrefixes + R"(INSERT DATA {
  <urn:a> a ex:Artist ; ex:name "Nina" .
  <urn:s1> a ex:Song ; ex:title "One" ; ex:track 1 ; ex:performer <urn:a> ;
           ex:genre "jazz", "soul" .
  <urn:s2> a ex:Song ; ex:title "Two" .
})";

// The triples of a graph query as N-Triples lines, in result order.
Lines Triples(TestStore& store, const std::string& sparql) {
  auto graph = store->QueryGraph(kPrefixes + sparql);
  INFO(sparql);
  INFO((graph ? std::string() : graph.error().ToString()));
  REQUIRE(graph.ok());
  Lines lines;
  for (const engine::Triple& triple : graph->triples()) {
    lines.push_back(engine::results::NTriplesTerm(triple.subject) + " <" + triple.predicate + "> " +
                    engine::results::NTriplesTerm(triple.object));
  }
  return lines;
}

std::string Ex(const std::string& local) { return "<http://example.org/ex#" + local + ">"; }
const std::string kType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
const std::string kInteger = "^^<http://www.w3.org/2001/XMLSchema#integer>";

TEST_CASE("CONSTRUCT: template constants and variables, in ORDER BY order") {
  TestStore store;
  store.Update(kSongs);
  CHECK(Triples(store,
                "CONSTRUCT { ?s ex:name ?t . ?s ex:keyword \"song\" } "
                "WHERE { ?s a ex:Song ; ex:title ?t } ORDER BY DESC(?t)") ==
        Lines{"<urn:s2> " + Ex("name") + " \"Two\"", "<urn:s2> " + Ex("keyword") + " \"song\"",
              "<urn:s1> " + Ex("name") + " \"One\"", "<urn:s1> " + Ex("keyword") + " \"song\""});
  SUBCASE("LIMIT and OFFSET count solutions, not triples") {
    CHECK(Triples(store,
                  "CONSTRUCT { ?s ex:name ?t . ?s ex:keyword \"x\" } "
                  "WHERE { ?s ex:title ?t } ORDER BY ?t LIMIT 1 OFFSET 1") ==
          Lines{"<urn:s2> " + Ex("name") + " \"Two\"", "<urn:s2> " + Ex("keyword") + " \"x\""});
  }
  SUBCASE("typed and language-tagged values keep their datatype") {
    CHECK(Triples(store,
                  "CONSTRUCT { ?s ex:size ?n . ?s ex:title \"Eins\"@de } "
                  "WHERE { ?s ex:track ?n }") ==
          Lines{"<urn:s1> " + Ex("size") + " \"1\"" + kInteger,
                "<urn:s1> " + Ex("title") + " \"Eins\"@de"});
  }
}

TEST_CASE("CONSTRUCT: blank nodes are fresh for every solution") {
  TestStore store;
  store.Update(kSongs);
  const Lines lines = Triples(store,
                              "CONSTRUCT { _:entry ex:title ?t ; ex:member ?s } "
                              "WHERE { ?s a ex:Song ; ex:title ?t } ORDER BY ?t");
  REQUIRE(lines.size() == 4);
  const auto subject = [](const std::string& line) { return line.substr(0, line.find(' ')); };
  CHECK(subject(lines[0]).rfind("_:", 0) == 0);
  CHECK(subject(lines[0]) == subject(lines[1]));  // one node within a solution
  CHECK(subject(lines[2]) == subject(lines[3]));
  CHECK(subject(lines[0]) != subject(lines[2]));  // another for the next solution
  CHECK(lines[1].ends_with(" <urn:s1>"));
  CHECK(lines[3].ends_with(" <urn:s2>"));
}

TEST_CASE("CONSTRUCT: unbound and invalid triples are skipped, duplicates removed") {
  TestStore store;
  store.Update(kSongs);
  SUBCASE("an unbound variable skips only the triples that use it") {
    CHECK(Triples(store,
                  "CONSTRUCT { ?s ex:title ?t . ?s ex:performer ?p } WHERE { "
                  "?s ex:title ?t OPTIONAL { ?s ex:performer ?p } } ORDER BY ?t") ==
          Lines{"<urn:s1> " + Ex("title") + " \"One\"", "<urn:s1> " + Ex("performer") + " <urn:a>",
                "<urn:s2> " + Ex("title") + " \"Two\""});
  }
  SUBCASE("a literal subject or a non-IRI predicate makes no triple") {
    CHECK(Triples(store, "CONSTRUCT { ?t ex:title ?s . ?s ?t \"x\" } WHERE { ?s ex:title ?t }")
              .empty());
  }
  SUBCASE("the same triple from many solutions comes once") {
    CHECK(Triples(store,
                  "CONSTRUCT { <urn:all> ex:keyword \"song\" . ?s a ex:Song } "
                  "WHERE { ?s a ex:Song ; ex:title ?t } ORDER BY ?s") ==
          Lines{"<urn:all> " + Ex("keyword") + " \"song\"", "<urn:s1> " + kType + " " + Ex("Song"),
                "<urn:s2> " + kType + " " + Ex("Song")});
    CHECK(Triples(store,
                  "CONSTRUCT { <urn:all> ex:keyword ?g } WHERE { ?s ex:genre ?g } "
                  "ORDER BY ?g")
              .size() == 2);
  }
  SUBCASE("no solution, no triple") {
    CHECK(Triples(store, "CONSTRUCT { ?s ex:title ?t } WHERE { ?s ex:title ?t ; ex:track 99 }")
              .empty());
  }
}

TEST_CASE("CONSTRUCT WHERE: the pattern is the template") {
  TestStore store;
  store.Update(kSongs);
  CHECK(Triples(store, "CONSTRUCT WHERE { ?s ex:performer ?p . ?p ex:name ?n }") ==
        Lines{"<urn:s1> " + Ex("performer") + " <urn:a>", "<urn:a> " + Ex("name") + " \"Nina\""});
}

TEST_CASE("CONSTRUCT: parameters in the template and in WHERE") {
  TestStore store;
  store.Update(kSongs);
  const engine::QueryParameters parameters{{"song", schema::RdfTerm::Iri("urn:s2")}};
  auto graph = store->QueryGraph(
      kPrefixes + "CONSTRUCT { ~song ex:keyword ?t } WHERE { ?s ex:title ?t FILTER (?s = ~song) }",
      parameters);
  REQUIRE(graph.ok());
  REQUIRE(graph->size() == 1);
  CHECK(graph->triples()[0].subject == schema::RdfTerm::Iri("urn:s2"));
  CHECK(graph->triples()[0].object == schema::RdfTerm::Literal("Two"));
  auto missing = store->QueryGraph(kPrefixes + "CONSTRUCT { ~song ex:keyword \"x\" } WHERE { }");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().ToString().find("parameter ~song has no value") != std::string::npos);
}

TEST_CASE("DESCRIBE <iri>: every property of the resource, most specific types only") {
  TestStore store;
  store.Update(kSongs);
  CHECK(Triples(store, "DESCRIBE <urn:s1>") ==
        Lines{"<urn:s1> " + kType + " " + Ex("Song"), "<urn:s1> " + Ex("title") + " \"One\"",
              "<urn:s1> " + Ex("track") + " \"1\"" + kInteger,
              "<urn:s1> " + Ex("performer") + " <urn:a>", "<urn:s1> " + Ex("genre") + " \"jazz\"",
              "<urn:s1> " + Ex("genre") + " \"soul\""});
  CHECK(Triples(store, "DESCRIBE <urn:nothing-here>").empty());
  CHECK(Triples(store, "DESCRIBE <urn:a> <urn:s2>") ==
        Lines{"<urn:a> " + kType + " " + Ex("Artist"), "<urn:a> " + Ex("name") + " \"Nina\"",
              "<urn:s2> " + kType + " " + Ex("Song"), "<urn:s2> " + Ex("title") + " \"Two\""});
}

TEST_CASE("DESCRIBE ?x WHERE: the resources the pattern binds") {
  TestStore store;
  store.Update(kSongs);
  CHECK(Triples(store, "DESCRIBE ?p WHERE { ?s ex:performer ?p }") ==
        Lines{"<urn:a> " + kType + " " + Ex("Artist"), "<urn:a> " + Ex("name") + " \"Nina\""});
  SUBCASE("literals bound to the variable describe nothing") {
    CHECK(Triples(store, "DESCRIBE ?t WHERE { ?s ex:title ?t }").empty());
  }
  SUBCASE("DESCRIBE * describes every variable; LIMIT applies to solutions") {
    const Lines all = Triples(store, "DESCRIBE * WHERE { ?s ex:performer ?p }");
    CHECK(all.size() == 8);  // urn:a (2 triples) and urn:s1 (6)
    CHECK(Triples(store, "DESCRIBE ?s WHERE { ?s a ex:Song } ORDER BY DESC(?s) LIMIT 1") ==
          Lines{"<urn:s2> " + kType + " " + Ex("Song"), "<urn:s2> " + Ex("title") + " \"Two\""});
  }
  SUBCASE("a blank node is described through its binding") {
    store.Update(kPrefixes +
                 "INSERT DATA { <urn:s2> ex:performer [ a ex:Artist ; ex:name \"Anon\" ] }");
    const Lines lines = Triples(store, "DESCRIBE ?p WHERE { <urn:s2> ex:performer ?p }");
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].rfind("_:", 0) == 0);
    CHECK(lines[1].ends_with(Ex("name") + " \"Anon\""));
  }
}

TEST_CASE("DESCRIBE reads every graph as one") {
  TestStore store;
  store.Update(kPrefixes +
               "INSERT DATA { GRAPH <urn:g1> { <urn:x> a ex:Song ; ex:title \"X\" } "
               "GRAPH <urn:g2> { <urn:x> a ex:Song ; ex:genre \"pop\" } }");
  CHECK(Triples(store, "DESCRIBE <urn:x>") == Lines{"<urn:x> " + kType + " " + Ex("Song"),
                                                    "<urn:x> " + Ex("title") + " \"X\"",
                                                    "<urn:x> " + Ex("genre") + " \"pop\""});
}

TEST_CASE("graph queries and solution queries each have their own call") {
  TestStore store;
  auto rows = store->Query(kPrefixes + "CONSTRUCT { ?s ex:title ?t } WHERE { ?s ex:title ?t }");
  REQUIRE_FALSE(rows.ok());
  CHECK(rows.error().ToString().find("a CONSTRUCT query returns triples") != std::string::npos);
  auto describe_rows = store->Query("DESCRIBE <urn:x>");
  REQUIRE_FALSE(describe_rows.ok());
  CHECK(describe_rows.error().ToString().find("a DESCRIBE query returns triples") !=
        std::string::npos);
  auto triples = store->QueryGraph(kPrefixes + "SELECT ?s { ?s ex:title ?t }");
  REQUIRE_FALSE(triples.ok());
  CHECK(triples.error().ToString().find("only CONSTRUCT and DESCRIBE") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
