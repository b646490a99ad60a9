// SPARQL 1.1 property paths (issue 3) against a real store: / | ^ * + ? and negated sets.
#include <doctest/doctest.h>

#include <algorithm>

#include "store/engine/store.h"
#include "tests/store/engine/store_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

// Membership cycle a1 -> a3 -> a2 -> a1; a4 is alone; s3 has no performer.
void AddMusic(TestStore& store) {
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:a1> a ex:Artist ; ex:name "Ann" ; ex:member <urn:a3> .
    <urn:a2> a ex:Artist ; ex:name "Bob" ; ex:member <urn:a1> .
    <urn:a3> a ex:Artist ; ex:member <urn:a2> .
    <urn:a4> a ex:Artist ; ex:name "Dan" .
    <urn:s1> a ex:Song ; ex:title "One" ; ex:performer <urn:a1> .
    <urn:s2> a ex:Song ; ex:title "Two" ; ex:performer <urn:a2> .
    <urn:s3> a ex:Song ; ex:title "Three" .
  })");
}

TEST_CASE("paths: sequence, inverse and alternative") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?n { ?s ex:performer/ex:name ?n } ORDER BY ?s") ==
        Rows{"urn:s1|Ann", "urn:s2|Bob"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s ex:performer/ex:name \"Bob\" }") == Rows{"urn:s2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { <urn:a1> ^ex:performer ?s }") == Rows{"urn:s1"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:a2> ^ex:performer/ex:title ?t }") == Rows{"Two"});
  CHECK(store.Rows(kPrefixes + "SELECT ?x ?v { ?x ex:title|ex:name ?v FILTER (?v < \"O\") } ORDER BY ?v") ==
        Rows{"urn:a1|Ann", "urn:a2|Bob", "urn:a4|Dan"});
  SUBCASE("an alternative of a resource and a literal property") {
    CHECK(store.Rows(kPrefixes + "SELECT ?v { <urn:s1> ex:performer|ex:title ?v } ORDER BY ?v") ==
          Rows{"One", "urn:a1"});
  }
  SUBCASE("a literal in the middle of a sequence matches nothing") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { <urn:s1> ex:title/ex:name ?x }").empty());
  }
}

TEST_CASE("paths: * and + terminate on cycles and never repeat a pair") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?y { <urn:a1> ex:member* ?y } ORDER BY ?y") ==
        Rows{"urn:a1", "urn:a2", "urn:a3"});
  CHECK(store.Rows(kPrefixes + "SELECT ?y { <urn:a2> ex:member+ ?y } ORDER BY ?y") ==
        Rows{"urn:a1", "urn:a2", "urn:a3"});
  CHECK(store.Rows(kPrefixes + "SELECT ?y { <urn:a4> ex:member+ ?y }").empty());
  CHECK(store.Rows(kPrefixes + "SELECT ?y { <urn:a4> ex:member* ?y }") == Rows{"urn:a4"});
  SUBCASE("seeded from the object") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x ex:member+ <urn:a1> } ORDER BY ?x") ==
          Rows{"urn:a1", "urn:a2", "urn:a3"});
  }
  SUBCASE("both ends variables, one bound by another pattern") {
    CHECK(store.Rows(kPrefixes + "SELECT ?y { ?x ex:name \"Bob\" . ?x ex:member+ ?y } ORDER BY ?y") ==
          Rows{"urn:a1", "urn:a2", "urn:a3"});
    // Zero length pairs every resource with itself: s3 reaches only itself.
    CHECK(store.Rows(kPrefixes + "SELECT ?y { ?x ex:title \"Three\" . ?x ex:member* ?y }") == Rows{"urn:s3"});
    CHECK(store.Rows(kPrefixes + "SELECT (COUNT(*) AS ?n) { ?x ex:member+ ?y }") == Rows{"9"});
  }
  SUBCASE("a sequence under +") {
    CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:s1> ex:performer/(ex:member+)/ex:name ?n } ORDER BY ?n") ==
          Rows{"Ann", "Bob"});
  }
  SUBCASE("x p+ x: resources on a cycle") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x ex:member+ ?x } ORDER BY ?x") ==
          Rows{"urn:a1", "urn:a2", "urn:a3"});
  }
}

TEST_CASE("paths: ? adds the zero-length match") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?y { <urn:s1> ex:performer? ?y } ORDER BY ?y") ==
        Rows{"urn:a1", "urn:s1"});
  CHECK(store.Rows(kPrefixes + "SELECT ?y { <urn:s3> ex:performer? ?y }") == Rows{"urn:s3"});
  CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x ex:performer? <urn:a2> } ORDER BY ?x") ==
        Rows{"urn:a2", "urn:s2"});
  CHECK(store.Rows(kPrefixes + "ASK { <urn:s1> ex:performer? <urn:s1> }") == Rows{"true"});
  CHECK(store.Rows(kPrefixes + "ASK { <urn:s1> ex:performer? <urn:s2> }") == Rows{"false"});
}

TEST_CASE("paths: negated property sets") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?o { <urn:a2> !(rdf:type|ex:name) ?o }") == Rows{"urn:a1"});
  CHECK(store.Rows(kPrefixes + "SELECT ?o { <urn:s1> !rdf:type ?o } ORDER BY ?o") == Rows{"One", "urn:a1"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { <urn:a1> !(^ex:member) ?s } ORDER BY ?s") == Rows{"urn:s1"});
}

TEST_CASE("paths inside GRAPH") {
  TestStore store;
  AddMusic(store);
  store.Update(kPrefixes + R"(INSERT DATA { GRAPH <urn:g1> {
    <urn:b1> a ex:Artist ; ex:member <urn:b2> . <urn:b2> a ex:Artist ; ex:member <urn:b3> .
    <urn:b3> a ex:Artist } })");
  CHECK(store.Rows(kPrefixes + "SELECT ?g ?y { GRAPH ?g { <urn:b1> ex:member+ ?y } } ORDER BY ?y") ==
        Rows{"urn:g1|urn:b2", "urn:g1|urn:b3"});
  CHECK(store.Rows(kPrefixes + "SELECT ?y { GRAPH <urn:g1> { ?x ex:member+ ?y } } ORDER BY ?y") ==
        Rows{"urn:b2", "urn:b3", "urn:b3"} );
}

TEST_CASE("paths over the open-mode quad table") {
  TempDir dir;
  engine::StoreOptions options;
  options.directory = dir.path() / "db";
  options.open_mode = true;
  auto store = engine::Store::Open(options);
  REQUIRE(store.ok());
  REQUIRE((*store)->Update("INSERT DATA { <urn:a> <urn:knows> <urn:b> . <urn:b> <urn:knows> <urn:c> . "
                           "<urn:c> <urn:knows> <urn:a> . <urn:c> <urn:name> \"Cy\" }").ok());
  const auto strings = [&](const std::string& query) {
    auto cursor = (*store)->Query(query);
    INFO(query);
    INFO((cursor ? std::string() : cursor.error().ToString()));
    REQUIRE(cursor.ok());
    Rows rows;
    while (*cursor->Next()) rows.emplace_back(cursor->GetString(0));
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  CHECK(strings("SELECT (STR(?y) AS ?s) { <urn:a> <urn:knows>+ ?y }") == Rows{"urn:a", "urn:b", "urn:c"});
  CHECK(strings("SELECT (STR(?x) AS ?s) { ?x <urn:knows>* <urn:c> }") == Rows{"urn:a", "urn:b", "urn:c"});
  CHECK(strings("SELECT ?n { <urn:a> <urn:knows>/<urn:knows>/<urn:name> ?n }") == Rows{"Cy"});
}

TEST_CASE("what the compiler still refuses names the construct") {
  TestStore store;
  const auto error = [&](const std::string& query) {
    auto cursor = store->Query(kPrefixes + query);
    REQUIRE_FALSE(cursor.ok());
    CHECK(cursor.error().code() == Errc::kUnsupported);
    return cursor.error().ToString();
  };
  CHECK(error("SELECT ?x { SERVICE <http://example.org/sparql> { ?x ex:title ?t } }").find("SERVICE") !=
        std::string::npos);
  CHECK(error("SELECT (COUNT(?x) AS ?n) { ?x ex:size ?s } VALUES ?s { 1 }").find("trailing VALUES") !=
        std::string::npos);
  CHECK(error("SELECT ?v { ?x ex:title* ?v }").find("zero-length path") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
