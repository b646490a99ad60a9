// Opening an existing database with changed ontology files migrates it in place, or refuses
// and leaves it untouched.
#include <doctest/doctest.h>

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
