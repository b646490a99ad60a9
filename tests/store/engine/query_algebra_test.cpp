// SPARQL 1.1 algebra beyond basic patterns (issue 3): UNION, MINUS, VALUES, sub-selects, FROM,
// and joins of unbound variables, run against a real store and checked row by row.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

// Artists a1 -> a3 -> a2 -> a1 form a membership cycle; s3 has no performer.
void AddMusic(TestStore& store) {
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:a1> a ex:Artist ; ex:name "Ann" ; ex:member <urn:a3> .
    <urn:a2> a ex:Artist ; ex:name "Bob" ; ex:member <urn:a1> .
    <urn:a3> a ex:Artist ; ex:member <urn:a2> .
    <urn:s1> a ex:Song ; ex:title "One" ; ex:size 10 ; ex:performer <urn:a1> ; ex:genre "rock", "pop" ;
             ex:created "2020-01-01T10:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
    <urn:s2> a ex:Song ; ex:title "Two" ; ex:size 20 ; ex:performer <urn:a2> .
    <urn:s3> a ex:Song ; ex:title "Three" .
    <urn:s4> a ex:Song ; ex:title "Four" ; ex:performer <urn:a1> .
    <urn:m1> a ex:Media ; ex:title "Film" ; ex:size 30 .
  })");
}

Rows Sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST_CASE("UNION: branches with different variables leave the others unbound") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?x ?t ?n { { ?x a ex:Song ; ex:title ?t } UNION "
                               "{ ?x ex:name ?n } } ORDER BY ?x") ==
        Rows{"urn:a1|-|Ann", "urn:a2|-|Bob", "urn:s1|One|-", "urn:s2|Two|-", "urn:s3|Three|-",
             "urn:s4|Four|-"});
  SUBCASE("three branches, joined with the group on the shared variable") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?t { ?x ex:title ?t { ?x ex:size 10 } UNION "
                                 "{ ?x ex:size 30 } UNION { ?x ex:performer <urn:a2> } } ORDER BY ?t") ==
          Rows{"urn:m1|Film", "urn:s1|One", "urn:s2|Two"});
  }
  SUBCASE("a resource in one branch and a literal in the other read back as themselves") {
    CHECK(Sorted(store.Rows(kPrefixes + "SELECT ?v { { ?x ex:performer ?v } UNION { ?x ex:size ?v } }")) ==
          Rows{"10", "20", "30", "urn:a1", "urn:a1", "urn:a2"});
    // The mixed column still joins a resource column.
    CHECK(store.Rows(kPrefixes + "SELECT ?n { { ?x ex:performer ?v } UNION { ?x ex:size ?v } "
                                 "?v ex:name ?n } ORDER BY ?n") == Rows{"Ann", "Ann", "Bob"});
  }
  SUBCASE("OPTIONAL nested inside a branch") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?p { { ?x a ex:Song OPTIONAL { ?x ex:performer ?p } } "
                                 "UNION { ?x ex:name \"Ann\" } } ORDER BY ?x") ==
          Rows{"urn:a1|-", "urn:s1|urn:a1", "urn:s2|urn:a2", "urn:s3|-", "urn:s4|urn:a1"});
  }
  SUBCASE("bag semantics: a solution of both branches appears twice") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { { ?x ex:size 10 } UNION { ?x ex:title \"One\" } }") ==
          Rows{"urn:s1", "urn:s1"});
  }
  SUBCASE("COUNT over a UNION") {
    CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?x) AS ?n) { { ?x a ex:Song } UNION { ?x a ex:Artist } }") ==
          Rows{"7"});
  }
}

TEST_CASE("MINUS removes compatible solutions that share a variable") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x a ex:Song MINUS { ?x ex:performer <urn:a1> } } ORDER BY ?x") ==
        Rows{"urn:s2", "urn:s3"});
  SUBCASE("no shared variable: nothing is removed (unlike NOT EXISTS)") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x a ex:Song MINUS { ?y a ex:Artist } } ORDER BY ?x") ==
          Rows{"urn:s1", "urn:s2", "urn:s3", "urn:s4"});
    CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x a ex:Song FILTER NOT EXISTS { ?y a ex:Artist } }").empty());
  }
  SUBCASE("a shared variable unbound on the left shares nothing") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?p { ?x a ex:Song OPTIONAL { ?x ex:performer ?p } "
                                 "MINUS { ?y ex:member ?p } } ORDER BY ?x") == Rows{"urn:s3|-"});
  }
  SUBCASE("MINUS with a FILTER inside") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x ex:size ?n MINUS { ?x ex:size ?m FILTER (?m > 15) } }") ==
          Rows{"urn:s1"});
  }
}

TEST_CASE("VALUES inline and trailing, with UNDEF") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?x ?t { VALUES ?t { \"One\" \"Three\" } ?x ex:title ?t } ORDER BY ?t") ==
        Rows{"urn:s1|One", "urn:s3|Three"});
  SUBCASE("UNDEF joins like an unbound variable") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?t { ?x ex:title ?t VALUES (?x ?t) { (<urn:s1> UNDEF) "
                                 "(UNDEF \"Two\") } } ORDER BY ?t") ==
          Rows{"urn:s1|One", "urn:s2|Two"});
  }
  SUBCASE("trailing VALUES") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?n { ?x ex:size ?n } ORDER BY ?n VALUES ?n { 10 30 }") ==
          Rows{"urn:s1|10", "urn:m1|30"});
  }
  SUBCASE("constants are encoded like stored values") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { VALUES ?c { \"2020-01-01T10:00:00Z\"^^xsd:dateTime } "
                                 "?x ex:created ?c }") == Rows{"urn:s1"});
    CHECK(store.Rows(kPrefixes + "SELECT ?x { VALUES ?x { <urn:s1> <urn:unknown> } ?x a ex:Song }") ==
          Rows{"urn:s1"});
  }
  SUBCASE("VALUES alone, mixed kinds in one column") {
    CHECK(store.Rows(kPrefixes + "SELECT ?a ?b { VALUES (?a ?b) { (1 \"x\") (UNDEF 2) (<urn:a1> UNDEF) } }") ==
          Rows{"1|x", "-|2", "urn:a1|-"});
  }
  SUBCASE("no rows: no solutions") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x { ?x a ex:Song VALUES ?x { } }").empty());
  }
}

TEST_CASE("sub-select: own projection, aggregates and LIMIT, joined on shared variables") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?name ?n { ?p ex:name ?name { SELECT ?p (COUNT(?s) AS ?n) "
                               "{ ?s ex:performer ?p } GROUP BY ?p } } ORDER BY ?name") ==
        Rows{"Ann|2", "Bob|1"});
  SUBCASE("ORDER BY and LIMIT inside; inner variables stay inside") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?t ?t0 { { SELECT ?x { ?x a ex:Song ; ex:title ?t0 } "
                                 "ORDER BY ?t0 LIMIT 2 } ?x ex:title ?t } ORDER BY ?t") ==
          Rows{"urn:s4|Four|-", "urn:s1|One|-"});
  }
  SUBCASE("an expression of the sub-select") {
    CHECK(store.Rows(kPrefixes + "SELECT ?x ?d { ?x a ex:Song { SELECT ?x ((?m * 2) AS ?d) "
                                 "{ ?x ex:size ?m } } } ORDER BY ?d") ==
          Rows{"urn:s1|20", "urn:s2|40"});
  }
}

TEST_CASE("FROM and FROM NAMED restrict the dataset") {
  TestStore store;
  AddMusic(store);
  store.Update(kPrefixes + R"(INSERT DATA {
    GRAPH <urn:g1> { <urn:x1> a ex:Element ; ex:title "G1" }
    GRAPH <urn:g2> { <urn:x2> a ex:Element ; ex:title "G2" }
  })");
  CHECK(store.Rows(kPrefixes + "SELECT ?t FROM <urn:g1> { ?x ex:title ?t }") == Rows{"G1"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t FROM <urn:g1> FROM <urn:g2> { ?x ex:title ?t } ORDER BY ?t") ==
        Rows{"G1", "G2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?x FROM <urn:g2> { ?x a ex:Element }") == Rows{"urn:x2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?g ?t FROM NAMED <urn:g2> { GRAPH ?g { ?x ex:title ?t } }") ==
        Rows{"urn:g2|G2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t FROM NAMED <urn:g1> { GRAPH <urn:g2> { ?x ex:title ?t } }").empty());
  // Only FROM NAMED: the default graph is empty.
  CHECK(store.Rows(kPrefixes + "SELECT ?t FROM NAMED <urn:g1> { ?x ex:title ?t }").empty());
  // Only FROM: there are no named graphs (the description replaces the whole dataset).
  CHECK(store.Rows(kPrefixes + "SELECT ?t FROM <urn:g1> { GRAPH ?g { ?x ex:title ?t } }").empty());
}

TEST_CASE("unbound variables from OPTIONAL join as compatible solutions") {
  TestStore store;
  AddMusic(store);
  // s3 has no performer: its unbound ?p is compatible with every artist that has a name.
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?p ?n { ?s a ex:Song OPTIONAL { ?s ex:performer ?p } "
                               "?p ex:name ?n } ORDER BY ?s ?n") ==
        Rows{"urn:s1|urn:a1|Ann", "urn:s2|urn:a2|Bob", "urn:s3|urn:a1|Ann", "urn:s3|urn:a2|Bob",
             "urn:s4|urn:a1|Ann"});
  SUBCASE("across groups") {
    CHECK(store.Rows(kPrefixes + "SELECT ?s ?p { { ?s a ex:Song OPTIONAL { ?s ex:performer ?p } } "
                                 "{ ?p ex:name \"Bob\" } } ORDER BY ?s") ==
          Rows{"urn:s2|urn:a2", "urn:s3|urn:a2"});
  }
  SUBCASE("two OPTIONALs in one group") {
    CHECK(store.Rows(kPrefixes + "SELECT ?s ?p ?n { ?s ex:title ?t OPTIONAL { ?s ex:performer ?p } "
                                 "OPTIONAL { ?s ex:size ?n } FILTER (?t = \"Three\" || ?t = \"One\") } ORDER BY ?s") ==
          Rows{"urn:s1|urn:a1|10", "urn:s3|-|-"});
  }
}

TEST_CASE("the algebra nests: UNION and VALUES inside OPTIONAL, UNION in an update's WHERE") {
  TestStore store;
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + "SELECT ?x ?v { ?x a ex:Song OPTIONAL { { ?x ex:size ?v } UNION "
                               "{ ?x ex:genre ?v } } } ORDER BY ?x ?v") ==
        Rows{"urn:s1|10", "urn:s1|pop", "urn:s1|rock", "urn:s2|20", "urn:s3|-", "urn:s4|-"});
  CHECK(store.Rows(kPrefixes + "SELECT ?x ?k { ?x a ex:Song OPTIONAL { VALUES (?x ?k) { (<urn:s2> \"b\") } } } "
                               "ORDER BY ?x") == Rows{"urn:s1|-", "urn:s2|b", "urn:s3|-", "urn:s4|-"});
  store.Update(kPrefixes + "DELETE { ?x ex:title ?t } WHERE { { ?x ex:size 10 } UNION { ?x ex:size 30 } "
                           "?x ex:title ?t }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?x ex:title ?t } ORDER BY ?t") == Rows{"Four", "Three", "Two"});
}

TEST_CASE("quarry sparql --explain of a UNION shows one compound statement") {
  TestStore store;
  auto plan = store->Explain(kPrefixes + "SELECT ?x { { ?x ex:size 10 } UNION { ?x ex:title \"One\" } }");
  REQUIRE(plan.ok());
  INFO(*plan);
  CHECK(plan->find("UNION ALL") != std::string::npos);
  CHECK(plan->find("COMPOUND") != std::string::npos);
  CHECK(plan->find("INDEX ex:Element_ex:size") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
