// Open mode follows SPARQL's dataset (graph 0 is the default graph, not the union of all
// graphs), and ADD / COPY / MOVE move triples between graphs (SPARQL 1.1 Update §3.2.3-5).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/store/engine/open_store_util.h"

namespace quarry::testing {
namespace {

const std::string kData =
    "PREFIX ex: <http://example.org/>\n"
    "INSERT DATA { ex:d ex:p 'default' . GRAPH ex:g1 { ex:a ex:p 'one' } "
    "GRAPH ex:g2 { ex:b ex:p 'two' } }";

std::vector<std::string> InGraph(OpenStore& open, const std::string& graph) {
  const std::string pattern = graph.empty() ? "{ ?s ?p ?o }" : "{ GRAPH <" + graph + "> { ?s ?p ?o } }";
  return open.Rows("SELECT ?s " + pattern + " ORDER BY ?s");
}

const std::string kG1 = "http://example.org/g1", kG2 = "http://example.org/g2";
const std::string kA = "<http://example.org/a>", kB = "<http://example.org/b>",
                  kD = "<http://example.org/d>";

TEST_CASE("Open mode: a DELETE without GRAPH removes from the default graph only") {
  OpenStore open;
  open.Update("PREFIX ex: <http://example.org/> INSERT DATA { ex:a ex:p 1 . GRAPH ex:g1 { ex:a ex:p 1 } }");
  open.Update("PREFIX ex: <http://example.org/> DELETE DATA { ex:a ex:p 1 }");
  CHECK(InGraph(open, "").empty());
  CHECK(InGraph(open, kG1) == std::vector<std::string>{kA});
}

TEST_CASE("Open mode: USING NAMED gives the WHERE clause its named graphs") {
  OpenStore open;
  open.Update(kData);
  open.Update("PREFIX ex: <http://example.org/> INSERT { ?s ex:q 'x' } USING NAMED ex:g1 "
              "WHERE { GRAPH ?g { ?s ?p ?o } }");
  CHECK(open.Rows("PREFIX ex: <http://example.org/> SELECT ?s { ?s ex:q 'x' }") ==
        std::vector<std::string>{kA});
  // USING alone leaves no named graphs: GRAPH matches nothing.
  open.Update("PREFIX ex: <http://example.org/> INSERT { ?s ex:r 'y' } USING ex:g1 "
              "WHERE { GRAPH ex:g1 { ?s ?p ?o } }");
  CHECK(open.Rows("PREFIX ex: <http://example.org/> SELECT ?s { ?s ex:r 'y' }").empty());
}

TEST_CASE("ADD copies a graph's triples into another, keeping the target's") {
  OpenStore open;
  open.Update(kData);
  open.Update("ADD <" + kG1 + "> TO <" + kG2 + ">");
  CHECK(InGraph(open, kG2) == std::vector<std::string>{kA, kB});
  CHECK(InGraph(open, kG1) == std::vector<std::string>{kA});
  open.Update("ADD DEFAULT TO <" + kG1 + ">");
  CHECK(InGraph(open, kG1) == std::vector<std::string>{kA, kD});
  open.Update("ADD <" + kG2 + "> TO DEFAULT");
  CHECK(InGraph(open, "") == std::vector<std::string>{kA, kB, kD});
}

TEST_CASE("COPY replaces the target, MOVE also empties the source") {
  OpenStore open;
  open.Update(kData);
  open.Update("COPY <" + kG1 + "> TO <" + kG2 + ">");
  CHECK(InGraph(open, kG2) == std::vector<std::string>{kA});
  CHECK(InGraph(open, kG1) == std::vector<std::string>{kA});
  open.Update("MOVE <" + kG1 + "> TO DEFAULT");
  CHECK(InGraph(open, "") == std::vector<std::string>{kA});
  CHECK(InGraph(open, kG1).empty());
  // A graph moved onto itself stays.
  open.Update("MOVE <" + kG2 + "> TO <" + kG2 + ">");
  CHECK(InGraph(open, kG2) == std::vector<std::string>{kA});
}

TEST_CASE("ADD from a missing graph is an error unless SILENT") {
  OpenStore open;
  open.Update(kData);
  auto refused = open.store().Update("ADD <http://example.org/none> TO <" + kG1 + ">");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().ToString().find("graph <http://example.org/none> does not exist") !=
        std::string::npos);
  open.Update("COPY SILENT <http://example.org/none> TO <" + kG1 + ">");
  CHECK(InGraph(open, kG1) == std::vector<std::string>{kA});
}

}  // namespace
}  // namespace quarry::testing
