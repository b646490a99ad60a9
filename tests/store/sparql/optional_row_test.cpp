// OPTIONAL { ?s <p> ?o } read from the row of ?s the group joined already (translate_optional.cpp,
// issue 5: the miner's children query): no LEFT JOIN where the rule holds, the LEFT JOIN kept
// where it does not, and in both the answers of the LEFT JOIN. The reference form of each query
// puts a FILTER (true) into its OPTIONALs, which the rule never touches.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

bool HasLeftJoin(TestStore& store, const std::string& query) {
  const std::string plan = Explain(store, query);
  const std::string sql = plan.substr(0, plan.find("Plan:"));
  return sql.find("LEFT JOIN") != std::string::npos;
}

// `query` with "FILTER (true)" at each "#F" mark (inside its OPTIONALs) and without it.
std::string Reference(std::string query) {
  for (size_t at = query.find("#F"); at != std::string::npos; at = query.find("#F", at)) {
    query.replace(at, 2, "FILTER (true)");
  }
  return query;
}
std::string Plain(std::string query) {
  for (size_t at = query.find("#F"); at != std::string::npos; at = query.find("#F", at)) {
    query.erase(at, 2);
  }
  return query;
}

// With and without the optional values, in the default graph and in two named graphs.
void AddElements(TestStore& store) {
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:e1> a ex:Element ; ex:title "one" ; ex:size 10 ; ex:content "c1" .
    <urn:e2> a ex:Element ; ex:title "two" .
    <urn:e3> a ex:Element ; ex:size 30 .
    <urn:s1> a ex:Song ; ex:title "song" ; ex:content "lyrics" ; ex:rating 2.5 ;
             ex:genre "pop", "rock" .
    <urn:s2> a ex:Song ; ex:rating 1.5 .
    <urn:a1> a ex:Artist ; ex:name "Ann" .
    <urn:s1> ex:performer <urn:a1> .
    GRAPH <urn:g1> {
      <urn:x1> a ex:Element ; ex:title "in g1" .
      <urn:x2> a ex:Element ; ex:title "both" ; ex:size 2 }
    GRAPH <urn:g2> { <urn:x1> ex:size 1 }
  })");
}

struct Case {
  const char* name;
  const char* query;  // #F marks the reference form's FILTER (true)
  bool left_join;     // whether the plain form keeps a LEFT JOIN
  Rows expected;
};

TEST_CASE("OPTIONAL of a single-valued property of a joined row reads the row's column") {
  TestStore store;
  AddElements(store);
  const std::vector<Case> cases = {
      {"property of the row a required triple joined",
       "SELECT ?s ?t ?z { ?s ex:title ?t OPTIONAL { ?s ex:size ?z #F } } ORDER BY ?s",
       false,
       {"urn:e1|one|10", "urn:e2|two|-", "urn:s1|song|-", "urn:x1|in g1|1", "urn:x2|both|2"}},
      {"property of the class table an rdf:type joined",
       "SELECT ?s ?z ?c { ?s a ex:Element OPTIONAL { ?s ex:size ?z #F } "
       "OPTIONAL { ?s ex:content ?c #F } } ORDER BY ?s",
       false,
       {"urn:e1|10|c1", "urn:e2|-|-", "urn:e3|30|-", "urn:s1|-|lyrics", "urn:s2|-|-", "urn:x1|1|-",
        "urn:x2|2|-"}},
      {"a domain-index mirror of a class the subject has",
       "SELECT ?s ?t { ?s a ex:Song OPTIONAL { ?s ex:title ?t #F } } ORDER BY ?s",
       false,
       {"urn:s1|song", "urn:s2|-"}},
      {"a resource-valued property, then used by a later pattern",
       "SELECT ?s ?n { ?s a ex:Song OPTIONAL { ?s ex:performer ?a #F } "
       "OPTIONAL { ?a ex:name ?n } } ORDER BY ?s",
       true,                           // ?a ex:name: ?a has no joined row
       {"urn:s1|Ann", "urn:s2|Ann"}},  // s2's unbound ?a is compatible with any
      {"the optional variable bound again after the OPTIONAL",
       "SELECT ?s ?z { ?s ex:title ?t OPTIONAL { ?s ex:size ?z #F } ?e ex:size ?z } ORDER BY ?s ?z",
       false,
       {"urn:e1|10", "urn:e2|1", "urn:e2|2", "urn:e2|10", "urn:e2|30", "urn:s1|1", "urn:s1|2",
        "urn:s1|10", "urn:s1|30", "urn:x1|1", "urn:x2|2"}},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      const std::string plain = Plain(c.query);
      INFO(plain);
      CHECK(HasLeftJoin(store, plain) == c.left_join);
      CHECK(HasLeftJoin(store, Reference(c.query)));
      CHECK(store.Rows(kPrefixes + plain) == c.expected);
      CHECK(store.Rows(kPrefixes + Reference(c.query)) == c.expected);
    }
  }
}

TEST_CASE("OPTIONAL stays a LEFT JOIN where a joined row's column would not be its answer") {
  TestStore store;
  AddElements(store);
  const std::vector<Case> cases = {
      // ex:size is an ex:Element column: the ex:Media row of ex:rating is another table.
      {"the property's table is not joined for the subject",
       "SELECT ?s ?z { ?s ex:rating ?r OPTIONAL { ?s ex:size ?z #F } } ORDER BY ?s",
       true,
       {"urn:s1|-", "urn:s2|-"}},
      {"the table is joined only after the OPTIONAL",
       "SELECT ?s ?z { ?s ex:rating ?r OPTIONAL { ?s ex:size ?z #F } ?s ex:content ?c } "
       "ORDER BY ?s",
       true,
       {"urn:s1|-"}},
      {"a multi-valued property",
       "SELECT ?s ?g { ?s ex:title ?t OPTIONAL { ?s ex:genre ?g #F } } ORDER BY ?s ?g",
       true,
       {"urn:e1|-", "urn:e2|-", "urn:s1|pop", "urn:s1|rock", "urn:x1|-", "urn:x2|-"}},
      {"the optional variable is bound before",
       "SELECT ?s ?z { ?s ex:title ?t . ?e ex:size ?z OPTIONAL { ?s ex:size ?z #F } FILTER (?z < "
       "3) } "
       "ORDER BY ?s ?z",
       true,
       // A value of ?s that differs keeps the solution, as the OPTIONAL does not match.
       {"urn:e1|1", "urn:e1|2", "urn:e2|1", "urn:e2|2", "urn:s1|1", "urn:s1|2", "urn:x1|1",
        "urn:x1|2", "urn:x2|1", "urn:x2|2"}},
      {"the subject is bound only by an OPTIONAL",
       "SELECT ?t ?z { OPTIONAL { ?s ex:title ?t } OPTIONAL { ?s ex:size ?z #F } } ORDER BY ?t ?z",
       true,
       {"both|2", "in g1|1", "one|10", "song|-", "two|-"}},
      // Class table columns keep each value's graph: ex:size of urn:x1 is in another graph.
      {"FROM restricts the default graph",
       "SELECT ?s ?z FROM <urn:g1> { ?s ex:title ?t OPTIONAL { ?s ex:size ?z #F } } ORDER BY ?s",
       true,
       {"urn:x1|-", "urn:x2|2"}},
      {"GRAPH ?g",
       "SELECT ?g ?s ?z { GRAPH ?g { ?s ex:title ?t OPTIONAL { ?s ex:size ?z #F } } } ORDER BY ?s",
       true,
       {"urn:g1|urn:x1|-", "urn:g1|urn:x2|2"}},
      {"GRAPH <iri>",
       "SELECT ?s ?z { GRAPH <urn:g1> { ?s ex:title ?t OPTIONAL { ?s ex:size ?z #F } } } ORDER BY "
       "?s",
       true,
       {"urn:x1|-", "urn:x2|2"}},
      {"a second pattern in the OPTIONAL",
       "SELECT ?s ?z { ?s ex:title ?t OPTIONAL { ?s ex:size ?z . ?s ex:content ?c #F } } ORDER BY "
       "?s",
       true,
       {"urn:e1|10", "urn:e2|-", "urn:s1|-", "urn:x1|-", "urn:x2|-"}},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      const std::string plain = Plain(c.query);
      INFO(plain);
      CHECK(HasLeftJoin(store, plain) == c.left_join);
      CHECK(store.Rows(kPrefixes + plain) == c.expected);
      CHECK(store.Rows(kPrefixes + Reference(c.query)) == c.expected);
    }
  }
}

TEST_CASE("OPTIONAL with a FILTER sees the outer variables, so it stays a LEFT JOIN") {
  TestStore store;
  AddElements(store);
  const std::string query =
      "SELECT ?s ?z { ?s ex:title ?t OPTIONAL { ?s ex:size ?z FILTER (?t != \"one\") } } ORDER BY "
      "?s";
  CHECK(HasLeftJoin(store, query));
  CHECK(store.Rows(kPrefixes + query) ==
        Rows{"urn:e1|-", "urn:e2|-", "urn:s1|-", "urn:x1|1", "urn:x2|2"});
}

}  // namespace
}  // namespace quarry::testing
