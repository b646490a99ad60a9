// Open mode: functions on the stored RDF term (translate_quad_builtin.cpp), base-ontology
// predicates stored as quads, and paths over the quad table.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/store/engine/open_store_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;
const std::string kEx =
    "PREFIX ex: <http://example.org/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n";

TEST_CASE("Open mode: STR, LANG and DATATYPE read the stored term") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:v '01'^^xsd:integer . ex:b ex:v 'chat'@fr . "
                    "ex:c ex:v ex:z }");
  CHECK(open.Rows(kEx + "SELECT (STR(?v) AS ?s) { ex:a ex:v ?v }") == Rows{"\"01\""});
  CHECK(open.Rows(kEx + "SELECT (LANG(?v) AS ?l) { ex:b ex:v ?v }") == Rows{"\"fr\""});
  CHECK(open.Rows(kEx + "SELECT (DATATYPE(?v) AS ?d) { ex:a ex:v ?v }") ==
        Rows{"<http://www.w3.org/2001/XMLSchema#integer>"});
  CHECK(open.Rows(kEx + "SELECT (STR(?v) AS ?s) { ex:c ex:v ?v }") ==
        Rows{"\"http://example.org/z\""});
  CHECK(open.Rows(kEx + "SELECT (LANG(?v) AS ?l) { ex:c ex:v ?v }") == Rows{"-"});
}

TEST_CASE("Open mode: isIRI, isBlank, isLiteral, isNumeric and sameTerm tell stored terms apart") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:v ex:z . ex:b ex:v [] . ex:c ex:v 'text' . "
                    "ex:d ex:v 7 . ex:e ex:v 'x'^^xsd:integer . ex:f ex:v 'http://example.org/z' }");
  const auto subjects = [&](const std::string& filter) {
    return open.Rows(kEx + "SELECT ?s { ?s ex:v ?v FILTER (" + filter + ") } ORDER BY ?s");
  };
  CHECK(subjects("isIRI(?v)") == Rows{"<http://example.org/a>"});
  CHECK(subjects("isBlank(?v)") == Rows{"<http://example.org/b>"});
  CHECK(subjects("isLiteral(?v)") ==
        Rows{"<http://example.org/c>", "<http://example.org/d>", "<http://example.org/e>",
             "<http://example.org/f>"});
  CHECK(subjects("isNumeric(?v)") == Rows{"<http://example.org/d>"});
  // The IRI ex:z and the string "http://example.org/z" share their text, not their term.
  CHECK(open.Rows(kEx + "SELECT ?s { ?s ex:v ?v . ex:a ex:v ?w FILTER sameTerm(?v, ?w) }") ==
        Rows{"<http://example.org/a>"});
}

TEST_CASE("Open mode: MIN, MAX keep the stored term, SUM of integers is an integer") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:n '1.0'^^xsd:decimal, '02'^^xsd:integer, 'z' . "
                    "ex:b ex:i 1, 2 }");
  const std::string xsd = "http://www.w3.org/2001/XMLSchema#";
  // Numbers sort before text, as in SQLite's min()/max().
  CHECK(open.Rows(kEx + "SELECT (MIN(?n) AS ?min) (MAX(?n) AS ?max) { ex:a ex:n ?n }") ==
        Rows{"\"1.0\"^^<" + xsd + "decimal>|\"z\""});
  CHECK(open.Rows(kEx + "SELECT (SUM(?v) AS ?s) { ex:b ex:i ?v }") ==
        Rows{"\"3\"^^<" + xsd + "integer>"});
}

TEST_CASE("GROUP_CONCAT(DISTINCT …, SEPARATOR …) joins each value once") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:t 'x', 'y' . ex:b ex:t 'x' }");
  const Rows rows =
      open.Rows(kEx + "SELECT (GROUP_CONCAT(DISTINCT ?t; SEPARATOR='; ') AS ?g) { ?s ex:t ?t }");
  REQUIRE(rows.size() == 1);
  CHECK((rows[0] == "\"x; y\"" || rows[0] == "\"y; x\""));
}

TEST_CASE("BNODE(str) is one blank node per string and solution") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:s 'x' . ex:b ex:s 'x' }");
  const Rows rows = open.Rows(kEx + "SELECT (BNODE(?s) AS ?b1) (BNODE(?s) AS ?b2) { ?a ex:s ?s }");
  REQUIRE(rows.size() == 2);
  for (const std::string& row : rows) {
    const size_t bar = row.find('|');
    CHECK(row.substr(0, bar) == row.substr(bar + 1));  // same string, same solution
  }
  CHECK(rows[0] != rows[1]);  // another solution: a fresh node
}

TEST_CASE("Open mode: base-ontology predicates take any subject and object") {
  OpenStore open;
  // rdf:first's range is rdfs:Resource and rdfs:comment's domain rdfs:Resource in the base
  // ontology; arbitrary RDF breaks both.
  open.Update(kEx + "INSERT DATA { _:l rdf:first 1 ; rdf:rest rdf:nil . "
                    "ex:doc rdfs:comment 'about' }");
  CHECK(open.Rows(kEx + "SELECT ?x { ?l rdf:first ?x }") ==
        Rows{"\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
  CHECK(open.Rows(kEx + "SELECT ?c { ex:doc rdfs:comment ?c }") == Rows{"\"about\""});
}

TEST_CASE("Open mode: paths see the quad table") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:p ex:b . ex:b ex:q ex:c . ex:c ex:p 'end' }");
  // !(…) ranges over predicates no ontology names.
  CHECK(open.Rows(kEx + "SELECT ?o { ex:b !(ex:p) ?o }") == Rows{"<http://example.org/c>"});
  CHECK(open.Rows(kEx + "SELECT ?s { ?s !(ex:p) ex:c }") == Rows{"<http://example.org/b>"});
  // * with two unbound ends: every node of the graph with itself, literals included.
  const Rows pairs = open.Rows(kEx + "SELECT ?x ?y { ?x ex:p* ?y }");
  CHECK(pairs.size() == 6);  // a, b, c, 'end' with themselves; a-b; c-'end'
}

TEST_CASE("Open mode: a zero-length path step from an IRI the store lacks binds that IRI") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:p ex:b }");
  CHECK(open.Rows(kEx + "SELECT ?o { ex:s ex:p* ?o }") == Rows{"<http://example.org/s>"});
  CHECK(open.Rows(kEx + "SELECT ?o { ex:s ex:p? ?o }") == Rows{"<http://example.org/s>"});
  CHECK(open.Rows(kEx + "SELECT ?s { ?s ex:p* ex:o }") == Rows{"<http://example.org/o>"});
  CHECK(open.Rows(kEx + "SELECT ?s { ?s ex:p? ex:o }") == Rows{"<http://example.org/o>"});
  CHECK(open.Rows(kEx + "SELECT ?o { ex:a ex:p* ?o } ORDER BY ?o") ==
        Rows{"<http://example.org/a>", "<http://example.org/b>"});
  // It is an IRI to the term functions, equals only itself and joins no stored resource.
  CHECK(open.Rows(kEx + "SELECT (STR(?o) AS ?t) { ex:s ex:p* ?o FILTER isIRI(?o) }") ==
        Rows{"\"http://example.org/s\""});
  CHECK(open.Rows(kEx + "SELECT ?o { ex:s ex:p* ?o FILTER isBlank(?o) }").empty());
  CHECK(open.Rows(kEx + "SELECT ?o { ex:s ex:p* ?o . ex:s ex:p? ?o }") == Rows{"<http://example.org/s>"});
  CHECK(open.Rows(kEx + "SELECT ?o { ex:s ex:p* ?o . ex:t ex:p? ?o }").empty());
  CHECK(open.Rows(kEx + "SELECT ?o { ex:s ex:p* ?o . ?o ex:p ?x }").empty());
  CHECK(open.Rows(kEx + "SELECT ?x { ex:s ex:p* ex:s BIND (1 AS ?x) }").size() == 1);
  // Aggregates pick the term, and an update template inserts it.
  CHECK(open.Rows(kEx + "SELECT (SAMPLE(?o) AS ?x) (MIN(?o) AS ?m) { ex:s ex:p* ?o }") ==
        Rows{"<http://example.org/s>|<http://example.org/s>"});
  open.Update(kEx + "INSERT { ?o ex:q ?o } WHERE { ex:s ex:p? ?o }");
  CHECK(open.Rows(kEx + "SELECT ?v { ex:s ex:q ?v }") == Rows{"<http://example.org/s>"});
}

TEST_CASE("Open mode: COALESCE of a stored term and a typed constant keeps the datatype") {
  OpenStore open;
  open.Update(kEx + "INSERT DATA { ex:a ex:p 1 ; ex:w '07'^^xsd:integer . ex:b ex:p 2 }");
  const std::string xsd = "http://www.w3.org/2001/XMLSchema#";
  const Rows expected{"\"07\"^^<" + xsd + "integer>", "\"1605-11-05\"^^<" + xsd + "date>"};
  CHECK(open.Rows(kEx + "SELECT (COALESCE(?w, '1605-11-05'^^xsd:date) AS ?x) "
                        "{ ?s ex:p ?v OPTIONAL { ?s ex:w ?w } } ORDER BY ?v") == expected);
  Rows grouped = open.Rows(kEx + "SELECT ?x { ?s ex:p ?v OPTIONAL { ?s ex:w ?w } } "
                                 "GROUP BY (COALESCE(?w, '1605-11-05'^^xsd:date) AS ?x)");
  std::sort(grouped.begin(), grouped.end());
  CHECK(grouped == expected);
  // An IRI and a plain string stay what they are; an unbound first argument falls through.
  CHECK(open.Rows(kEx + "SELECT (COALESCE(?w, ex:none) AS ?x) (COALESCE(?u, ?w, 'x') AS ?y) "
                        "{ ?s ex:p ?v OPTIONAL { ?s ex:w ?w } } ORDER BY ?v") ==
        Rows{expected[0] + "|" + expected[0], "<http://example.org/none>|\"x\""});
}

}  // namespace
}  // namespace quarry::testing
