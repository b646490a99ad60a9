// Expressions and property paths, checked through their S-expression form.
#include <doctest/doctest.h>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql {
namespace {

using testing::MustParseQuery;
using testing::QueryError;
using testing::WhereOf;

// The printed FILTER expression of "SELECT * { FILTER (<expr>) }".
std::string FilterOf(const std::string& expr) {
  const Query query = MustParseQuery("SELECT * { FILTER (" + expr + ") }");
  REQUIRE(query.where.elements.size() == 1);
  return ToSExpression(std::get<Filter>(query.where.elements[0].node).expr);
}

// The printed predicate of "SELECT * { ?s <path> ?o }".
std::string PathOf(const std::string& path) {
  const Query query = MustParseQuery("SELECT * { ?s " + path + " ?o }");
  const auto& triples = std::get<TriplesBlock>(query.where.elements.at(0).node).triples;
  REQUIRE(triples.size() == 1);
  const Verb& verb = triples[0].predicate;
  if (const Term* term = std::get_if<Term>(&verb)) return ToSExpression(Expr{*term});
  return ToSExpression(std::get<Path>(verb));
}

TEST_CASE("Expression precedence: || < && < relational < additive < multiplicative < unary") {
  CHECK(FilterOf("?a || ?b && ?c") == "(|| ?a (&& ?b ?c))");
  CHECK(FilterOf("?a = ?b || ?c < 1") == "(|| (= ?a ?b) (< ?c \"1\"^^xsd:integer))");
  CHECK(FilterOf("?a + ?b * ?c") == "(+ ?a (* ?b ?c))");
  CHECK(FilterOf("(?a + ?b) * ?c") == "(* (+ ?a ?b) ?c)");
  CHECK(FilterOf("?a - ?b - ?c") == "(- (- ?a ?b) ?c)");
  CHECK(FilterOf("!?a && -?b") == "(&& (! ?a) (- ?b))");
  CHECK(FilterOf("?a != ?b && ?c >= ?d && ?e <= ?f") ==
        "(&& (&& (!= ?a ?b) (>= ?c ?d)) (<= ?e ?f))");
}

TEST_CASE("A signed number after an operand is a binary operation") {
  CHECK(FilterOf("?a -1") == "(- ?a \"1\"^^xsd:integer)");
  CHECK(FilterOf("?a +2 * 3") == "(+ ?a (* \"2\"^^xsd:integer \"3\"^^xsd:integer))");
  CHECK(FilterOf("-1 < ?a") == "(< \"-1\"^^xsd:integer ?a)");
}

TEST_CASE("IN and NOT IN") {
  CHECK(FilterOf("?a IN (1, ?b)") == "(in ?a \"1\"^^xsd:integer ?b)");
  CHECK(FilterOf("?a NOT IN ()") == "(not-in ?a)");
}

TEST_CASE("Built-in calls with their argument counts") {
  CHECK(FilterOf("REGEX(?a, \"x\", \"i\")") == "(REGEX ?a \"x\" \"i\")");
  CHECK(FilterOf("strlen(?a) > 2") == "(> (STRLEN ?a) \"2\"^^xsd:integer)");
  CHECK(FilterOf("BOUND(?a)") == "(BOUND ?a)");
  CHECK(FilterOf("isIRI(?a) || sameTerm(?a, ?b)") == "(|| (ISIRI ?a) (SAMETERM ?a ?b))");
  CHECK(FilterOf("CONCAT() = COALESCE(?a, 1)") == "(= (CONCAT) (COALESCE ?a \"1\"^^xsd:integer))");
  CHECK(FilterOf("RAND() < NOW()") == "(< (RAND) (NOW))");
  CHECK(FilterOf("IF(BNODE(), SUBSTR(?a, 1), REPLACE(?a, \"a\", \"b\", \"i\"))") ==
        "(IF (BNODE) (SUBSTR ?a \"1\"^^xsd:integer) (REPLACE ?a \"a\" \"b\" \"i\"))");
  CHECK(QueryError("SELECT * { FILTER (STRLEN(?a, ?b)) }").find("STRLEN takes 1 argument(s)") !=
        std::string::npos);
  CHECK(!QueryError("SELECT * { FILTER (BOUND(1)) }").empty());
  CHECK(!QueryError("SELECT * { FILTER (RAND(1)) }").empty());
  CHECK(!QueryError("SELECT * { FILTER (REGEX(?a)) }").empty());
}

TEST_CASE("Functions named by IRI including casts and Tracker functions") {
  CHECK(FilterOf("xsd:integer(?a) > 1") ==
        "(> (call <http://www.w3.org/2001/XMLSchema#integer> ?a) \"1\"^^xsd:integer)");
  CHECK(FilterOf("tracker:id(?r) = 5") ==
        "(= (call <http://tracker.api.gnome.org/ontology/v3/tracker#id> ?r) "
        "\"5\"^^xsd:integer)");
  CHECK(FilterOf("<http://f/>(DISTINCT ?a)") == "(call distinct <http://f/> ?a)");
  CHECK(FilterOf("ex:f()") == "(call <http://example.org/f>)");
  CHECK(FilterOf("?a = ex:b") == "(= ?a <http://example.org/b>)");
}

TEST_CASE("EXISTS and NOT EXISTS") {
  CHECK(FilterOf("NOT EXISTS { ?a ex:p ?b }") ==
        "(not-exists (triples (?a <http://example.org/p> ?b)))");
  const std::string where = WhereOf("SELECT * { ?s ?p ?o FILTER EXISTS { ?s ex:q [] } }");
  CHECK(where.find("(filter (exists (triples (?s <http://example.org/q> _:#1))))") !=
        std::string::npos);
}

TEST_CASE("Property paths follow the grammar's precedence") {
  CHECK(PathOf("ex:a") == "<http://example.org/a>");
  CHECK(PathOf("ex:a/ex:b|ex:c") ==
        "(alt (seq <http://example.org/a> <http://example.org/b>) <http://example.org/c>)");
  CHECK(PathOf("ex:a/(ex:b|ex:c)") ==
        "(seq <http://example.org/a> (alt <http://example.org/b> <http://example.org/c>))");
  CHECK(PathOf("^ex:a*") == "(inv (* <http://example.org/a>))");
  CHECK(PathOf("(^ex:a)+") == "(+ (inv <http://example.org/a>))");
  CHECK(PathOf("ex:a?/a") ==
        "(seq (? <http://example.org/a>) <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>)");
  CHECK(PathOf("!ex:a") == "(not <http://example.org/a>)");
  CHECK(PathOf("!(ex:a|^ex:b|a)") ==
        "(not <http://example.org/a> (inv <http://example.org/b>) "
        "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>)");
  CHECK(PathOf("!()") == "(not)");
  CHECK(PathOf("(ex:a)") == "<http://example.org/a>");
}

TEST_CASE("A single-IRI path is a plain predicate and variables are verbs too") {
  const Query query = MustParseQuery("SELECT * { ?s ex:a ?o ; ?p ?q ; ex:b+ ?r }");
  const auto& triples = std::get<TriplesBlock>(query.where.elements.at(0).node).triples;
  REQUIRE(triples.size() == 3);
  CHECK(std::holds_alternative<Term>(triples[0].predicate));
  CHECK(std::get<Term>(triples[1].predicate) == MakeVariable("p"));
  CHECK(std::get<Path>(triples[2].predicate).kind == PathKind::kOneOrMore);
}

TEST_CASE("Paths are refused where the grammar has no paths") {
  CHECK(!QueryError("CONSTRUCT { ?s ex:a/ex:b ?o } WHERE {}").empty());
}

}  // namespace
}  // namespace quarry::sparql
