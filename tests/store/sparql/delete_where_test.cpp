// DELETE WHERE with a variable predicate (`DELETE WHERE { <a> ?p ?o }`): on a store with an
// ontology it covers every property of the subject — class-table columns, multi-valued tables
// and rdf:type — and behaves exactly like the DELETE DATA of the triples it matched; in open
// mode the quad table too.
#include <doctest/doctest.h>

#include "tests/store/engine/open_store_util.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

const std::string kData = kPrefixes + R"(PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
  INSERT DATA {
    <urn:a> a ex:Artist ; ex:name "Nina" .
    <urn:s1> a ex:Song ; rdfs:label "first" ; ex:title "One" ; ex:genre "jazz", "rock" ; ex:size 5 ;
      ex:created "2020-01-02T03:04:05Z"^^xsd:dateTime ; ex:rating 4.5 ; ex:performer <urn:a> .
    <urn:s2> a ex:Song ; ex:title "Two" ; ex:genre "jazz" ; ex:performer <urn:a> .
  })";

// Everything the store holds about the three resources, as sorted "s p o" rows.
Rows Dump(TestStore& store) {
  Rows rows;
  for (const char* property : {"rdf:type", "rdfs:label", "ex:title", "ex:genre", "ex:size", "ex:created",
                               "ex:rating", "ex:performer", "ex:name"}) {
    for (const std::string& row : store.Rows(kPrefixes + "SELECT ?s ?o { ?s " + property +
                                             " ?o FILTER (?s IN (<urn:a>, <urn:s1>, <urn:s2>)) }")) {
      rows.push_back(std::string(property) + " " + row);
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Runs `pattern_delete` on one store and `explicit_delete` on another with the same data; both
// must leave the same triples, and `pattern_delete` must have removed something.
Rows SameAsExplicit(const std::string& pattern_delete, const std::string& explicit_delete) {
  TestStore with_pattern, with_data;
  with_pattern.Update(kData);
  with_data.Update(kData);
  const Rows before = Dump(with_pattern);
  with_pattern.Update(kPrefixes + pattern_delete);
  with_data.Update(kPrefixes + explicit_delete);
  const Rows after = Dump(with_pattern);
  CHECK(after != before);
  CHECK(after == Dump(with_data));
  return after;
}

TEST_CASE("DELETE WHERE { <s> ?p ?o } removes every property and type of the subject") {
  const Rows after = SameAsExplicit(
      "DELETE WHERE { <urn:s1> ?p ?o }",
      R"(PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
      DELETE DATA { <urn:s1> rdfs:label "first" ; ex:title "One" ; ex:genre "jazz", "rock" ; ex:size 5 ;
        ex:created "2020-01-02T03:04:05Z"^^xsd:dateTime ; ex:rating 4.5 ; ex:performer <urn:a> .
        <urn:s1> a ex:Song, ex:Media, ex:Element, rdfs:Resource })");
  for (const std::string& row : after) CHECK(row.find("urn:s1") == std::string::npos);
  CHECK(std::count(after.begin(), after.end(), "ex:title urn:s2|Two") == 1);
  CHECK(std::count(after.begin(), after.end(), "ex:name urn:a|Nina") == 1);
}

TEST_CASE("a DELETE WHERE with a variable predicate and a constant object") {
  SUBCASE("a value of a multi-valued property") {
    const Rows after = SameAsExplicit("DELETE WHERE { ?s ?p \"jazz\" }",
                                      "DELETE DATA { <urn:s1> ex:genre \"jazz\" . <urn:s2> ex:genre \"jazz\" }");
    CHECK(std::count(after.begin(), after.end(), "ex:genre urn:s1|rock") == 1);
    CHECK(std::count(after.begin(), after.end(), "ex:title urn:s1|One") == 1);
  }
  SUBCASE("a resource object, from every subject") {
    SameAsExplicit("DELETE WHERE { ?s ?p <urn:a> }",
                   "DELETE DATA { <urn:s1> ex:performer <urn:a> . <urn:s2> ex:performer <urn:a> }");
  }
  SUBCASE("a typed value") {
    SameAsExplicit("DELETE WHERE { <urn:s1> ?p 5 }", "DELETE DATA { <urn:s1> ex:size 5 }");
  }
  SUBCASE("a class: the store's own rdf:type removal") {
    SameAsExplicit("DELETE WHERE { <urn:s1> ?p ex:Song }", "DELETE DATA { <urn:s1> a ex:Song }");
  }
  SUBCASE("with a second pattern joined on the subject") {
    SameAsExplicit("DELETE WHERE { ?s ?p \"jazz\" ; ex:title \"Two\" }",
                   "DELETE DATA { <urn:s2> ex:genre \"jazz\" ; ex:title \"Two\" }");
  }
}

TEST_CASE("DELETE WHERE with a variable predicate that matches nothing changes nothing") {
  TestStore store;
  store.Update(kData);
  const Rows before = Dump(store);
  store.Update(kPrefixes + "DELETE WHERE { <urn:nobody> ?p ?o }");
  store.Update(kPrefixes + "DELETE WHERE { <urn:s1> ?p \"nothing\" }");
  CHECK(Dump(store) == before);
}

TEST_CASE("two variable predicates in one DELETE WHERE are refused, naming both") {
  TestStore store;
  store.Update(kData);
  const std::string error = store.UpdateError(kPrefixes + "DELETE WHERE { <urn:s1> ?p ?o . ?o ?q ?x }");
  CHECK(error.find("two variable predicates (?p and ?q)") != std::string::npos);
  CHECK(Dump(store).size() > 10);  // nothing was deleted
}

TEST_CASE("open mode: DELETE WHERE { <s> ?p ?o } removes quads and types") {
  OpenStore store;
  store.Update("INSERT DATA { <urn:s> a <urn:C> ; <urn:p> \"x\", 3 ; <urn:q> <urn:o> . "
               "<urn:o> <urn:p> \"kept\" }");
  store.Update("DELETE WHERE { <urn:s> ?p ?o }");
  CHECK(store.Rows("SELECT ?p ?o { <urn:s> ?p ?o }").empty());
  CHECK(store.Rows("SELECT ?s ?o { ?s <urn:p> ?o }") == Rows{"<urn:o>|\"kept\""});
}

}  // namespace
}  // namespace quarry::testing
