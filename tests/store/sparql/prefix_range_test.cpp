// FILTER (STRSTARTS(?v, "prefix")) on an xsd:string column also as the range [prefix, next) on
// it (translate_expr.cpp PrefixRange, issue 5: files under a folder by nie:url): the same answers
// as the function alone, for every prefix and string shape, and an index search where the column
// has an index (ex:Song's domain index of ex:title).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

std::string Sql(TestStore& store, const std::string& query) {
  const std::string plan = Explain(store, query);
  return plan.substr(0, plan.find("Plan:"));
}

TEST_CASE("STRSTARTS on a string column: an index range, the function's answers") {
  TestStore store;
  store.Update(kPrefixes + R"(INSERT DATA {
    <urn:s1> a ex:Song ; ex:title "ab" .        <urn:s2> a ex:Song ; ex:title "abc" .
    <urn:s3> a ex:Song ; ex:title "abd" .       <urn:s4> a ex:Song ; ex:title "ab~x" .
    <urn:s5> a ex:Song ; ex:title "ac" .        <urn:s6> a ex:Song ; ex:title "aB" .
    <urn:s7> a ex:Song ; ex:title "abcé" .      <urn:s8> a ex:Song ; ex:title "a" .
    <urn:s9> a ex:Song ; ex:title "" .          <urn:s10> a ex:Song ; ex:title "é!" .
    <urn:s11> a ex:Song ; ex:title "ab\u007f" . <urn:s12> a ex:Song ; ex:title "b" .
    <urn:e1> a ex:Element ; ex:title "abx" ; ex:keyword "abk", "zz" .
  })");
  const auto query = [](const std::string& subject, const std::string& prefix,
                        const std::string& cls = "ex:Song") {
    return "SELECT ?s WHERE { ?s a " + cls + " ; ex:title ?t FILTER (STRSTARTS(" + subject +
           ", \"" + prefix + "\")) } ORDER BY ?s";
  };
  for (const std::string prefix : {"ab", "abc", "a", "b", "ab~", "é", "abcé", "aB", "zz", "ab\x7f"}) {
    INFO(prefix);
    // STR(?t) is the same string, but not a bare column: the reference, the function alone.
    const auto expected = store.Rows(kPrefixes + query("STR(?t)", prefix));
    CHECK(store.Rows(kPrefixes + query("?t", prefix)) == expected);
    CHECK(store.Rows(kPrefixes + query("?t", prefix, "ex:Element")) ==
          store.Rows(kPrefixes + query("STR(?t)", prefix, "ex:Element")));
    CHECK(Sql(store, query("STR(?t)", prefix)).find(">=") == std::string::npos);
    // A range only where the prefix ends in an ASCII byte below '~' (the bound stays text).
    const bool ranged = prefix.back() != '~' && static_cast<unsigned char>(prefix.back()) < 0x7e;
    CHECK((Sql(store, query("?t", prefix)).find(">=") != std::string::npos) == ranged);
  }
  CHECK(store.Rows(kPrefixes + query("?t", "ab")) ==
        std::vector<std::string>{"urn:s1", "urn:s11", "urn:s2", "urn:s3", "urn:s4", "urn:s7"});
  // The domain index answers it: a search, not a scan of the songs.
  const std::string plan = Explain(store, query("?t", "abc"));
  INFO(plan);
  CHECK(plan.find("ex:Song_ex:title (ex:title>? AND ex:title<?)") != std::string::npos);
  // The flag travels with the binding, not with the SQL's shape: a column read through an
  // OPTIONAL on the joined row is one too; BIND's copy and a sub-select's output are not.
  const std::string optional =
      "SELECT ?s WHERE { ?s a ex:Song OPTIONAL { ?s ex:title ?t } FILTER (STRSTARTS(?t, \"ab\")) } ORDER BY ?s";
  CHECK(Sql(store, optional).find(">=") != std::string::npos);
  CHECK(store.Rows(kPrefixes + optional) == store.Rows(kPrefixes + query("?t", "ab")));
  for (const std::string not_column :
       {"SELECT ?s WHERE { ?s a ex:Song ; ex:title ?t BIND (?t AS ?u) FILTER (STRSTARTS(?u, \"ab\")) } ORDER BY ?s",
        "SELECT ?s WHERE { { SELECT ?s ?t { ?s a ex:Song ; ex:title ?t } } FILTER (STRSTARTS(?t, \"ab\")) } ORDER BY ?s"}) {
    INFO(not_column);
    CHECK(Sql(store, not_column).find(">=") == std::string::npos);
    CHECK(store.Rows(kPrefixes + not_column) == store.Rows(kPrefixes + query("?t", "ab")));
  }
  // A language-tagged or typed prefix, or a non-string column, keeps the function alone.
  CHECK(Sql(store, "SELECT ?s WHERE { ?s ex:title ?t FILTER (STRSTARTS(?t, \"ab\"@en)) }")
            .find(">=") == std::string::npos);
  CHECK(Sql(store, "SELECT ?s WHERE { ?s ex:size ?n FILTER (STRSTARTS(STR(?n), \"1\")) }")
            .find(">=") == std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
