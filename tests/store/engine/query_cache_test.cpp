// Issue 3: compiled statements are cached by query text (query_cache.h), and a property used as
// a function compiles to a correlated subquery (multi-valued ones through GROUP_CONCAT).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "store/engine/query_cache.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

TEST_CASE("QueryCache keeps the most recently used texts") {
  engine::QueryCache cache(2);
  CHECK(cache.Find("a") == nullptr);
  sparql::SqlQuery a;
  a.sql = "SELECT 1";
  cache.Insert("a", a);
  cache.Insert("b", sparql::SqlQuery{});
  REQUIRE(cache.Find("a") != nullptr);  // "a" is now the most recent: "b" goes next
  CHECK(cache.Find("a")->sql == "SELECT 1");
  cache.Insert("c", sparql::SqlQuery{});
  CHECK(cache.size() == 2);
  CHECK(cache.Find("b") == nullptr);
  CHECK(cache.Find("c") != nullptr);
  CHECK(cache.hits() == 3);
  CHECK(cache.misses() == 2);
}

schema::RdfTerm Integer(std::string lexical) {
  return schema::RdfTerm::Literal(std::move(lexical), "http://www.w3.org/2001/XMLSchema#integer");
}

TEST_CASE("a repeated query reuses its compiled SQL and prepared statement") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title 'one' ; ex:size 1 . "
                           "<urn:s2> a ex:Song ; ex:title 'two' ; ex:size 2 }");
  const std::string query = kPrefixes + "SELECT ?t { ?s ex:title ?t ; ex:size ~n }";
  const engine::QueryCache& cache = store->query_cache();
  const uint64_t misses = cache.misses();
  engine::StatementCache& statements = store->database().cache();
  CHECK(store.Rows(query, {{"n", Integer("1")}}) == std::vector<std::string>{"one"});
  CHECK(cache.misses() == misses + 1);
  const uint64_t hits = cache.hits();
  const uint64_t prepared = statements.misses();
  // Same text, another parameter value: no parse, no translation, no sqlite3_prepare.
  CHECK(store.Rows(query, {{"n", Integer("2")}}) == std::vector<std::string>{"two"});
  CHECK(cache.hits() == hits + 1);
  CHECK(cache.misses() == misses + 1);
  CHECK(statements.misses() == prepared);
}

TEST_CASE("a compiled query run again with new parameters is not prepared again") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title 'one' ; ex:size 1 . "
                           "<urn:s2> a ex:Song ; ex:title 'two' ; ex:size 2 }");
  auto compiled = store->Prepare(kPrefixes + "SELECT ?t { ?s ex:title ?t ; ex:size ~n }");
  REQUIRE(compiled.ok());
  engine::StatementCache& statements = store->database().cache();
  for (const char* size : {"1", "2"}) {
    auto cursor = store->Run(*compiled, {{"n", Integer(size)}});
    REQUIRE(cursor.ok());
    REQUIRE(*cursor->Next());
    CHECK(cursor->GetString(0) == (size == std::string("1") ? "one" : "two"));
  }
  const uint64_t prepared = statements.misses();
  const uint64_t reused = statements.hits();
  auto again = store->Run(*compiled, {{"n", Integer("1")}});
  REQUIRE(again.ok());
  REQUIRE(*again->Next());
  CHECK(again->GetString(0) == "one");
  CHECK(statements.hits() == reused + 1);  // the cached statement, rebound
  CHECK(statements.misses() == prepared);
}

TEST_CASE("two open cursors of one query do not share a statement") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:a> a ex:Element ; ex:title 'a' . "
                           "<urn:b> a ex:Element ; ex:title 'b' }");
  const std::string query = kPrefixes + "SELECT ?t { ?s ex:title ?t } ORDER BY ?t";
  auto first = store->Query(query);
  auto second = store->Query(query);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  REQUIRE(*first->Next());
  REQUIRE(*second->Next());
  REQUIRE(*second->Next());
  CHECK(first->GetString(0) == "a");  // the second cursor did not move the first
  CHECK(second->GetString(0) == "b");
  REQUIRE(*first->Next());
  CHECK(first->GetString(0) == "b");
}

std::string Sql(TestStore& store, const std::string& query) {
  auto compiled = store->Compile(kPrefixes + query);
  INFO((compiled ? std::string() : compiled.error().ToString()));
  REQUIRE(compiled.ok());
  return compiled->sql;
}

TEST_CASE("a single-valued property function is a correlated subquery on its column") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:x> a ex:Artist ; ex:name 'Nina' . "
                           "<urn:y> a ex:Artist }");
  // (Of a subject whose ex:Artist row is joined, it reads that row: bench_plan_test.cpp.)
  const std::string sql = Sql(store, "SELECT ex:name(?a) { ?s ex:performer ?a }");
  CHECK(sql.find("(SELECT P.\"ex:name\" FROM \"ex:Artist\" AS P WHERE P.ID = ") !=
        std::string::npos);
  CHECK(sql.find("group_concat") == std::string::npos);
  CHECK(store.Rows(kPrefixes + "SELECT ?a ex:name(?a) { ?a a ex:Artist } ORDER BY ?a") ==
        std::vector<std::string>{"urn:x|Nina", "urn:y|-"});
}

TEST_CASE("a multi-valued property function joins its values with GROUP_CONCAT") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:genre 'jazz', 'blues' }");
  const std::string sql = Sql(store, "SELECT ex:genre(?s) { ?s a ex:Song }");
  CHECK(sql.find("(SELECT group_concat(") != std::string::npos);
  CHECK(sql.find("FROM \"ex:Song_ex:genre\" AS P WHERE P.ID = ") != std::string::npos);
  const std::vector<std::string> rows = store.Rows(kPrefixes + "SELECT ex:genre(?s) { ?s a ex:Song }");
  REQUIRE(rows.size() == 1);
  CHECK((rows[0] == "jazz,blues" || rows[0] == "blues,jazz"));
}

}  // namespace
}  // namespace quarry::testing
