// A FILTER ANDed into a WHERE is compiled to its bare condition (no coalesce(..., 0) around it),
// so SQLite can answer a range filter on an indexed property from the index; and an error in
// such a filter still drops the solution, as false does (SPARQL 1.1 §17.2).
#include <doctest/doctest.h>

#include "tests/store/engine/store_test_util.h"
#include "tests/store/schema/test_ontology.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

// The test ontology plus an indexed dateTime, like nfo:fileLastModified.
const std::string kModified =
    kTestDomain +
    "ex:modified a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:dateTime ; "
    "nrl:maxCardinality 1 ; nrl:indexed true .\n";

TEST_CASE("a range FILTER on an indexed dateTime searches its index") {
  TestStore store;
  store.SetDomainOntology(kModified);
  store.Reopen();
  const std::string plan = Explain(
      store, "SELECT ?r { ?r ex:modified ?m FILTER (?m > \"2020-01-01T00:00:00Z\"^^xsd:dateTime) }");
  INFO(plan);
  CHECK(plan.find("WHERE t1.\"ex:modified\" IS NOT NULL AND (t1.\"ex:modified\" > ?1)") != std::string::npos);
  CHECK(plan.find("coalesce((t1") == std::string::npos);
  CHECK(plan.find("SEARCH") != std::string::npos);
  CHECK(plan.find("INDEX ex:Element_ex:modified (ex:modified>?)") != std::string::npos);
  // Both bounds of a window, written as one && or as two FILTERs.
  for (const char* window :
       {"FILTER (?m >= \"2020-01-01T00:00:00Z\"^^xsd:dateTime && ?m < \"2021-01-01T00:00:00Z\"^^xsd:dateTime)",
        "FILTER (?m >= \"2020-01-01T00:00:00Z\"^^xsd:dateTime) FILTER (?m < \"2021-01-01T00:00:00Z\"^^xsd:dateTime)"}) {
    const std::string both = Explain(store, std::string("SELECT ?r { ?r ex:modified ?m ") + window + " }");
    CHECK(both.find("INDEX ex:Element_ex:modified (ex:modified>? AND ex:modified<?)") != std::string::npos);
  }
  // An integer range too.
  const std::string size = Explain(store, "SELECT ?r { ?r ex:size ?n FILTER (?n < 10) }");
  INFO(size);
  CHECK(size.find("INDEX ex:Element_ex:size (ex:size>? AND ex:size<?)") != std::string::npos);
}

TEST_CASE("the bare FILTER condition keeps SPARQL's results, errors included") {
  TestStore store;
  store.SetDomainOntology(kModified);
  store.Reopen();
  store.Update(kPrefixes + R"(PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
    INSERT DATA {
      <urn:old> a ex:Element ; ex:title "old" ; ex:size 3 ; ex:modified "2019-06-01T00:00:00Z"^^xsd:dateTime .
      <urn:new> a ex:Element ; ex:title "new" ; ex:size 30 ; ex:modified "2020-06-01T00:00:00Z"^^xsd:dateTime .
      <urn:none> a ex:Element ; ex:title "none" .
    })");
  const std::string x = kPrefixes + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n";
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t ; ex:modified ?m "
                       "FILTER (?m > \"2020-01-01T00:00:00Z\"^^xsd:dateTime) }") == Rows{"new"});
  // !(error) is an error, not true: comparing a string with a number drops every row.
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t FILTER (!(?t > 3)) }").empty());
  // error || true is true; error && false is false, and NOT of that is true.
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t FILTER ((?t > 3) || ?t = \"old\") }") == Rows{"old"});
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t FILTER (!((?t > 3) && false)) } ORDER BY ?t") ==
        Rows{"new", "none", "old"});
  // Unbound in an OPTIONAL: the ON condition's error leaves the optional part out, the filter
  // over the whole group drops the row.
  CHECK(store.Rows(x + "SELECT ?t ?n { ?r ex:title ?t OPTIONAL { ?r ex:size ?n FILTER (?n > 10) } } "
                       "ORDER BY ?t") == Rows{"new|30", "none|-", "old|-"});
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t OPTIONAL { ?r ex:size ?n } FILTER (?n < 10) }") ==
        Rows{"old"});
  // In EXISTS and MINUS the filter stands inside their own WHERE.
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t FILTER NOT EXISTS { ?r ex:size ?n FILTER (?n > 10) } } "
                       "ORDER BY ?t") == Rows{"none", "old"});
  CHECK(store.Rows(x + "SELECT ?t { ?r ex:title ?t MINUS { ?r ex:size ?n FILTER (?n < 10) } } ORDER BY ?t") ==
        Rows{"new", "none"});
}

}  // namespace
}  // namespace quarry::testing
