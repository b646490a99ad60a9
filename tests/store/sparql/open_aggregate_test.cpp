// Open mode: SUM and AVG of quad-table terms follow XPath's numeric promotion with exact
// decimals (integer -> decimal -> double), count errors as errors and give 0 for no values;
// GROUP BY (expression AS ?name) binds ?name (SPARQL 1.1 §18.2.4.1, §18.5.1.3).
#include <doctest/doctest.h>

#include "tests/store/engine/open_store_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

const std::string kData = R"(PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
  INSERT DATA {
    <urn:ints> <urn:v> 1, 2, 4 .
    <urn:decimals> <urn:v> 1.1, 2.2, 7.8 .
    <urn:mixed> <urn:v> 1, 0.5 .
    <urn:doubles> <urn:v> 1, 1.5e0 .
    <urn:bad> <urn:v> 1, "two" .
  })";

std::string Aggregate(OpenStore& store, const std::string& function, const std::string& subject) {
  const Rows rows = store.Rows("SELECT (" + function + "(?v) AS ?x) { <" + subject + "> <urn:v> ?v }");
  REQUIRE(rows.size() == 1);
  return rows[0];
}

TEST_CASE("open mode: SUM keeps integers integers and adds decimals exactly") {
  OpenStore store;
  store.Update(kData);
  CHECK(Aggregate(store, "SUM", "urn:ints") == Typed("7", "integer"));
  // 1.1 + 2.2 + 7.8 is 11.1 exactly, not the double 11.100000000000001.
  CHECK(Aggregate(store, "SUM", "urn:decimals") == Typed("11.1", "decimal"));
  CHECK(Aggregate(store, "SUM", "urn:mixed") == Typed("1.5", "decimal"));
  CHECK(Aggregate(store, "SUM", "urn:doubles") == Typed("2.5E0", "double"));
  CHECK(Aggregate(store, "SUM", "urn:none") == Typed("0", "integer"));
  CHECK(Aggregate(store, "SUM", "urn:bad") == "-");  // a string in the group: an error
}

TEST_CASE("open mode: AVG of integers and decimals is a decimal, of nothing 0") {
  OpenStore store;
  store.Update(kData);
  CHECK(Aggregate(store, "AVG", "urn:ints") == Typed("2.33333333333333333333", "decimal"));
  CHECK(Aggregate(store, "AVG", "urn:decimals") == Typed("3.7", "decimal"));
  CHECK(Aggregate(store, "AVG", "urn:mixed") == Typed("0.75", "decimal"));
  CHECK(Aggregate(store, "AVG", "urn:doubles") == Typed("1.25E0", "double"));
  CHECK(Aggregate(store, "AVG", "urn:none") == Typed("0", "integer"));
  CHECK(Aggregate(store, "AVG", "urn:bad") == "-");
  CHECK(store.Rows("SELECT (AVG(DISTINCT ?v) AS ?x) { VALUES ?s { <urn:ints> <urn:mixed> } ?s <urn:v> ?v }") ==
        Rows{Typed("1.875", "decimal")});  // 1, 2, 4, 0.5 (1 once)
  // Grouped, and HAVING still compares the numeric value.
  CHECK(store.Rows("SELECT ?s (SUM(?v) AS ?x) { ?s <urn:v> ?v } GROUP BY ?s HAVING (SUM(?v) > 3) "
                   "ORDER BY ?s") ==
        Rows{"<urn:decimals>|" + Typed("11.1", "decimal"), "<urn:ints>|" + Typed("7", "integer")});
}

TEST_CASE("open mode: GROUP BY (expression AS ?name) binds the name") {
  OpenStore store;
  store.Update(kData);
  CHECK(store.Rows("SELECT ?d (COUNT(*) AS ?c) { ?s <urn:v> ?v } GROUP BY (DATATYPE(?v) AS ?d) "
                   "ORDER BY ?d") ==
        Rows{"<" + kXsd + "decimal>|" + Typed("4", "integer"),
             "<" + kXsd + "double>|" + Typed("1", "integer"),
             "<" + kXsd + "integer>|" + Typed("6", "integer"),
             "<" + kXsd + "string>|" + Typed("1", "integer")});
  CHECK(store.Rows("SELECT ?n { <urn:ints> <urn:v> ?v } GROUP BY (?v * 10 AS ?n) ORDER BY ?n") ==
        Rows{Typed("10", "integer"), Typed("20", "integer"), Typed("40", "integer")});
}

}  // namespace
}  // namespace quarry::testing
