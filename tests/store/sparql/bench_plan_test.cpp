// The SQL behind bench/query's queries (issue 3's optimizations), proven on the generated SQL
// and SQLite's plan, each beside a check that the answers stay right:
//   - a property function of a subject whose row is joined reads that row's column;
//   - the miner's "files of one folder with their mtime" is an index lookup, no scan;
//   - FILTER (tracker:id(?r) IN (...)) searches the ID primary key;
//   - ORDER BY a domain-indexed column with LIMIT walks the index, no sort.
#include <doctest/doctest.h>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void AddMusic(TestStore& store) {
  store.Update(kPrefixes + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + R"(INSERT DATA {
    <urn:a1> a ex:Artist ; ex:name "Ann" .
    <urn:a2> a ex:Artist ; ex:name "Bob" .
    <urn:a3> a ex:Artist .
    <urn:s1> a ex:Song ; ex:title "one" ; ex:performer <urn:a1> ; ex:created "2020-01-01T00:00:00Z"^^xsd:dateTime ;
             ex:genre "pop", "rock" .
    <urn:s2> a ex:Song ; ex:title "two" ; ex:performer <urn:a1> ; ex:created "2021-01-01T00:00:00Z"^^xsd:dateTime .
    <urn:s3> a ex:Song ; ex:title "three" ; ex:performer <urn:a2> .
  })");
}

TEST_CASE("a property function of a joined subject reads its row, not a sub-query per row") {
  TestStore store;
  const std::string query = "SELECT ?a ex:name(?a) { ?a a ex:Artist } ORDER BY ?a";
  const std::string plan = Explain(store, query);
  INFO(plan);
  CHECK_FALSE(Has(plan, "AS P WHERE"));
  const std::string artist_row = "FROM \"ex:Artist\" AS ";
  const size_t artist = plan.find(artist_row);
  REQUIRE(artist != std::string::npos);
  CHECK(plan.find("\"ex:Artist\"", artist + artist_row.size()) == std::string::npos);  // one row source
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + query) == Rows{"urn:a1|Ann", "urn:a2|Bob", "urn:a3|-"});
  // The subject's row of that table is not joined: the sub-query stays, and gives the same.
  const std::string other = "SELECT ?s ex:name(?a) { ?s ex:performer ?a } ORDER BY ?s";
  CHECK(Has(Explain(store, other), "AS P WHERE"));
  CHECK(store.Rows(kPrefixes + other) == Rows{"urn:s1|Ann", "urn:s2|Ann", "urn:s3|Bob"});
  // A multi-valued property still joins its values; one of an OPTIONAL subject reads NULL rows.
  CHECK(store.Rows(kPrefixes + "SELECT ex:genre(?s) { ?s a ex:Song ; ex:title \"one\" }") ==
        Rows{"pop,rock"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t ex:name(?a) { ?s ex:title ?t OPTIONAL { ?s ex:performer ?a . "
                               "?a a ex:Artist } } ORDER BY ?t") == Rows{"one|Ann", "three|Bob", "two|Ann"});
}

TEST_CASE("a property function reads any joined row of its subject, not only the bound one") {
  TestStore store;
  // ?s is bound to its ex:Song row (the type pattern comes first); ex:size joins its ex:Element
  // row, so ex:created (an ex:Element column) is read there. ex:rating's ex:Media row is not
  // joined: that one stays a sub-query.
  const std::string query =
      "SELECT ?s ex:created(?s) ex:rating(?s) ?z { ?s a ex:Song ; ex:size ?z } ORDER BY ?s";
  const std::string plan = Explain(store, query);
  INFO(plan);
  CHECK_FALSE(Has(plan, "FROM \"ex:Element\" AS P WHERE"));
  CHECK(Has(plan, "FROM \"ex:Media\" AS P WHERE"));
  store.Update(kPrefixes + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + R"(INSERT DATA {
    <urn:s1> a ex:Song ; ex:size 10 ; ex:created "2020-01-01T00:00:00Z"^^xsd:dateTime ; ex:rating 2.5 .
    <urn:s2> a ex:Song ; ex:size 20 .
    <urn:s3> a ex:Song .
    <urn:d1> a ex:Media ; ex:size 30 ; ex:created "2021-01-01T00:00:00Z"^^xsd:dateTime .
  })");
  const Rows expected{"urn:s1|2020-01-01T00:00:00Z|2.5|10", "urn:s2|-|-|20"};
  CHECK(store.Rows(kPrefixes + query) == expected);
  // The same values through OPTIONALs (LEFT JOINs of their own rows), the old way.
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?c ?r ?z { ?s a ex:Song ; ex:size ?z OPTIONAL { ?s "
                               "ex:created ?c } OPTIONAL { ?s ex:rating ?r } } ORDER BY ?s") ==
        expected);
  // A subject whose rows are joined only inside an OPTIONAL reads by sub-query, unbound when absent.
  const std::string optional =
      "SELECT ?s ex:created(?s) { ?s a ex:Media OPTIONAL { ?s ex:size ?z } } ORDER BY ?s";
  CHECK(store.Rows(kPrefixes + optional) ==
        Rows{"urn:d1|2021-01-01T00:00:00Z", "urn:s1|2020-01-01T00:00:00Z", "urn:s2|-", "urn:s3|-"});
}

TEST_CASE("the miner's mtime query over one folder is an index lookup") {
  TestStore store;
  const std::string query = "SELECT ?f ?m { ?f ex:performer <urn:a1> ; ex:created ?m } ORDER BY ?m";
  const std::string plan = Explain(store, query);
  CHECK(Has(plan, "INDEX ex:Song_ex:performer (ex:performer=?)"));
  CHECK_FALSE(Has(plan, "SCAN"));
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + query) ==
        Rows{"urn:s1|2020-01-01T00:00:00Z", "urn:s2|2021-01-01T00:00:00Z"});
}

TEST_CASE("FILTER (tracker:id(?r) IN (...)) searches the ID column") {
  TestStore store;
  AddMusic(store);
  const Rows ids = store.Rows(kPrefixes + "SELECT (tracker:id(?s) AS ?id) { ?s ex:title ?t } ORDER BY ?t");
  REQUIRE(ids.size() == 3);  // one, three, two
  const std::string query = "SELECT ?t { ?s ex:title ?t FILTER (tracker:id(?s) IN (" + ids[0] + ", " +
                            ids[2] + ")) } ORDER BY ?t";
  const std::string plan = Explain(store, query);
  CHECK(Has(plan, "USING INTEGER PRIMARY KEY (rowid=?)"));
  CHECK_FALSE(Has(plan, "SCAN"));
  CHECK(store.Rows(kPrefixes + query) == Rows{"one", "two"});
}

TEST_CASE("ORDER BY a domain-indexed column with LIMIT walks the index: no sort") {
  TestStore store;
  const std::string query = "SELECT ?s ?t { ?s a ex:Song ; ex:title ?t } ORDER BY ?t LIMIT 2";
  const std::string plan = Explain(store, query);
  CHECK(Has(plan, "INDEX ex:Song_ex:title"));
  CHECK_FALSE(Has(plan, "TEMP B-TREE"));
  AddMusic(store);
  CHECK(store.Rows(kPrefixes + query) == Rows{"urn:s1|one", "urn:s3|three"});
}

}  // namespace
}  // namespace quarry::testing
