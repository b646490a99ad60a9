// The SQL the compiler writes uses the schema's indexes: proven on SQLite's own query plan.
#include <doctest/doctest.h>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

TEST_CASE("the domain index answers ORDER BY title of a subclass without touching the superclass") {
  TestStore store;
  const std::string plan = Explain(store, "SELECT ?r ?t { ?r a ex:Song ; ex:title ?t } ORDER BY ?t");
  CHECK(plan.find("\"ex:Element\"") == std::string::npos);
  CHECK(plan.find("INDEX ex:Song_ex:title") != std::string::npos);
  // Also when the query names the superclass too.
  const std::string both = Explain(store, "SELECT ?r ?t { ?r a ex:Song, ex:Element ; ex:title ?t } ORDER BY ?t");
  CHECK(both.find("\"ex:Element\"") == std::string::npos);
}

TEST_CASE("several properties of one subject and table read one row: no self-join") {
  TestStore store;
  const std::string plan = Explain(store, "SELECT ?t ?n ?c { ?r ex:title ?t ; ex:size ?n ; ex:created ?c }");
  const size_t first = plan.find("\"ex:Element\" AS");
  REQUIRE(first != std::string::npos);
  CHECK(plan.find("\"ex:Element\" AS", first + 1) == std::string::npos);
}

TEST_CASE("an indexed property filter uses its index") {
  TestStore store;
  CHECK(Explain(store, "SELECT ?r { ?r ex:size 5 }").find("INDEX ex:Element_ex:size") != std::string::npos);
  CHECK(Explain(store, "SELECT ?r { ?r ex:performer <urn:a> }").find("INDEX ex:Song_ex:performer") !=
        std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
