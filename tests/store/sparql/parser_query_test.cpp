#include <doctest/doctest.h>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql {
namespace {

using testing::ElementAs;
using testing::MustParseQuery;
using testing::QueryError;
using testing::WhereOf;

const TriplePattern& FirstTriple(const Query& query) {
  const auto& block = ElementAs<TriplesBlock>(query.where, 0);
  REQUIRE(!block.triples.empty());
  return block.triples.front();
}

TEST_CASE("Query forms: SELECT ASK CONSTRUCT DESCRIBE") {
  SUBCASE("SELECT with DISTINCT, expressions and *") {
    const Query query = MustParseQuery("SELECT DISTINCT ?a (?b + 1 AS ?c) WHERE { ?a ex:p ?b }");
    CHECK(query.form == QueryForm::kSelect);
    CHECK(query.select.distinct);
    REQUIRE(query.select.items.size() == 2);
    CHECK(query.select.items[0].variable->name == "a");
    CHECK(query.select.items[0].expr == nullptr);
    CHECK(query.select.items[1].variable->name == "c");
    CHECK(query.select.items[1].expr != nullptr);
    CHECK(MustParseQuery("SELECT REDUCED * {}").select.reduced);
    CHECK(MustParseQuery("SELECT * {}").select.star);
  }
  SUBCASE("ASK") { CHECK(MustParseQuery("ASK { ?s ?p ?o }").form == QueryForm::kAsk); }
  SUBCASE("CONSTRUCT with a template") {
    const Query query = MustParseQuery("CONSTRUCT { ?s ex:q ?o } WHERE { ?s ex:p ?o }");
    CHECK(query.form == QueryForm::kConstruct);
    REQUIRE(query.construct_template.size() == 1);
    CHECK(query.construct_template[0].object == MakeVariable("o"));
  }
  SUBCASE("CONSTRUCT WHERE uses the pattern as template") {
    const Query query = MustParseQuery("CONSTRUCT WHERE { ?s ex:p ?o . ?o ex:q 1 }");
    CHECK(query.construct_template.size() == 2);
    CHECK(ElementAs<TriplesBlock>(query.where, 0).triples.size() == 2);
  }
  SUBCASE("DESCRIBE with and without WHERE") {
    const Query query = MustParseQuery("DESCRIBE ?x ex:y WHERE { ?x ex:p 1 }");
    CHECK(query.form == QueryForm::kDescribe);
    CHECK(query.describe.size() == 2);
    CHECK(query.has_where);
    const Query bare = MustParseQuery("DESCRIBE <http://a/>");
    CHECK_FALSE(bare.has_where);
    CHECK(MustParseQuery("DESCRIBE * { ?s ?p ?o }").select.star);
  }
  SUBCASE("SELECT without the WHERE keyword") {
    CHECK(MustParseQuery("SELECT ?s { ?s ?p ?o }").where.elements.size() == 1);
  }
}

TEST_CASE("Prologue: BASE resolves relative IRIs (RFC 3986) and PREFIX overrides the map") {
  const Query query = MustParseQuery(
      "BASE <http://example.org/dir/file> PREFIX ex: <other#> "
      "SELECT * { <../up> ex:p <#frag> }");
  const TriplePattern& triple = FirstTriple(query);
  CHECK(triple.subject == MakeIri("http://example.org/up"));
  CHECK(std::get<Term>(triple.predicate) == MakeIri("http://example.org/dir/other#p"));
  CHECK(triple.object == MakeIri("http://example.org/dir/file#frag"));
  CHECK(query.base_iri == "http://example.org/dir/file");
  CHECK(query.prefixes.at("ex") == "http://example.org/dir/other#");
}

TEST_CASE("Prefixes: the option map works without PREFIX lines and unknown prefixes are errors") {
  const Query query = MustParseQuery("SELECT ?t { ?r nie:title ?t }");
  CHECK(std::get<Term>(FirstTriple(query).predicate) ==
        MakeIri("http://tracker.api.gnome.org/ontology/v3/nie#title"));
  CHECK(QueryError("SELECT * { ?r mfo:fileName ?n }").find("undeclared prefix 'mfo:'") !=
        std::string::npos);
}

TEST_CASE("Literals: all forms get their datatype") {
  const Query query = MustParseQuery(R"(SELECT * { ?s ex:p "a", 'b'@en, "c"^^ex:t, 1, -1.5, 2e3,
      true, FALSE, """long "x" """, '''l2''', "esc\u00E9\n" })");
  const auto& triples = ElementAs<TriplesBlock>(query.where, 0).triples;
  REQUIRE(triples.size() == 11);
  auto literal = [&](size_t i) { return std::get<Literal>(triples[i].object); };
  CHECK(literal(0) == Literal{"a", std::string(kXsdString), ""});
  CHECK(literal(1) == Literal{"b", std::string(kRdfLangString), "en"});
  CHECK(literal(2) == Literal{"c", "http://example.org/t", ""});
  CHECK(literal(3) == Literal{"1", std::string(kXsdInteger), ""});
  CHECK(literal(4) == Literal{"-1.5", std::string(kXsdDecimal), ""});
  CHECK(literal(5) == Literal{"2e3", std::string(kXsdDouble), ""});
  CHECK(literal(6) == Literal{"true", std::string(kXsdBoolean), ""});
  CHECK(literal(7) == Literal{"false", std::string(kXsdBoolean), ""});
  CHECK(literal(8).lexical == "long \"x\" ");
  CHECK(literal(9).lexical == "l2");
  CHECK(literal(10).lexical == "esc\xC3\xA9\n");
}

TEST_CASE("Blank nodes: labels and [] and [ p o ] lists") {
  const Query query = MustParseQuery("SELECT * { _:b1 ex:p [] . [ ex:q 1 ] ex:r _:b1 }");
  const auto& triples = ElementAs<TriplesBlock>(query.where, 0).triples;
  REQUIRE(triples.size() == 3);
  CHECK(triples[0].subject == Term(BlankNode{"b1", false}));
  const BlankNode anon = std::get<BlankNode>(triples[0].object);
  CHECK(anon.generated);
  const BlankNode list_node = std::get<BlankNode>(triples[1].subject);
  CHECK(list_node.generated);
  CHECK(list_node.label != anon.label);
  CHECK(triples[2].subject == Term(list_node));
  CHECK(triples[2].object == Term(BlankNode{"b1", false}));
}

TEST_CASE("Collections expand to rdf:first/rdf:rest chains ending in rdf:nil") {
  const Query query = MustParseQuery("SELECT * { ?s ex:list (1 ?x) . ?s ex:empty () }");
  const auto& triples = ElementAs<TriplesBlock>(query.where, 0).triples;
  REQUIRE(triples.size() == 6);
  const Term head = triples[0].subject;
  CHECK(std::get<Term>(triples[0].predicate) == MakeIri(std::string(kRdfFirst)));
  CHECK(std::get<Term>(triples[1].predicate) == MakeIri(std::string(kRdfRest)));
  CHECK(triples[2].object == MakeVariable("x"));
  CHECK(triples[3].object == MakeIri(std::string(kRdfNil)));
  CHECK(triples[4].subject == MakeVariable("s"));
  CHECK(triples[4].object == head);
  CHECK(triples[5].object == MakeIri(std::string(kRdfNil)));
}

TEST_CASE("'a' is rdf:type and semicolons and commas share subject and predicate") {
  const Query query = MustParseQuery("SELECT * { ?s a ex:C ; ex:p 1, 2 ;; ex:q 3 ; }");
  const auto& triples = ElementAs<TriplesBlock>(query.where, 0).triples;
  REQUIRE(triples.size() == 4);
  CHECK(std::get<Term>(triples[0].predicate) == MakeIri(std::string(kRdfType)));
  CHECK(std::get<Term>(triples[2].predicate) == MakeIri("http://example.org/p"));
  CHECK(triples[3].subject == MakeVariable("s"));
}

TEST_CASE("Group graph patterns keep the source order of their elements") {
  const Query query = MustParseQuery(R"(SELECT * {
      ?s ex:p ?o .
      FILTER (?o > 1)
      OPTIONAL { ?s ex:q ?q }
      { ?s ex:a 1 } UNION { ?s ex:b 2 } UNION { ?s ex:c 3 }
      MINUS { ?s ex:d 4 }
      GRAPH ?g { ?s ex:e 5 }
      SERVICE SILENT <http://remote/> { ?s ex:f 6 }
      BIND (?o * 2 AS ?double)
      VALUES ?v { 1 UNDEF }
      { ?s ex:nested ?n }
      { SELECT ?s WHERE { ?s ex:sub ?x } }
      ?s ex:last ?l
    })");
  const auto& elements = query.where.elements;
  REQUIRE(elements.size() == 12);
  CHECK(std::holds_alternative<TriplesBlock>(elements[0].node));
  CHECK(std::holds_alternative<Filter>(elements[1].node));
  CHECK(std::holds_alternative<OptionalPattern>(elements[2].node));
  CHECK(std::get<UnionPattern>(elements[3].node).branches.size() == 3);
  CHECK(std::holds_alternative<MinusPattern>(elements[4].node));
  CHECK(std::get<GraphPattern>(elements[5].node).graph == MakeVariable("g"));
  CHECK(std::get<ServicePattern>(elements[6].node).silent);
  CHECK(std::get<Bind>(elements[7].node).variable.name == "double");
  const auto& values = std::get<InlineData>(elements[8].node);
  REQUIRE(values.rows.size() == 2);
  CHECK_FALSE(values.rows[1][0].has_value());
  CHECK(std::holds_alternative<NestedGroup>(elements[9].node));
  const auto& nested = std::get<NestedGroup>(elements[10].node).pattern;
  CHECK(std::holds_alternative<std::unique_ptr<SubSelect>>(nested.elements.at(0).node));
  CHECK(std::holds_alternative<TriplesBlock>(elements[11].node));
}

TEST_CASE("Dataset clauses and solution modifiers") {
  const Query query = MustParseQuery(
      "SELECT ?s (COUNT(?o) AS ?n) FROM <http://g1/> FROM NAMED <http://g2/> "
      "{ ?s ?p ?o } GROUP BY ?s (STR(?p) AS ?ps) HAVING (COUNT(?o) > 2) "
      "ORDER BY DESC(?n) ?s ASC(?s) OFFSET 5 LIMIT 10");
  REQUIRE(query.dataset.size() == 2);
  CHECK_FALSE(query.dataset[0].named);
  CHECK(query.dataset[1].named);
  const SolutionModifiers& modifiers = query.modifiers;
  REQUIRE(modifiers.group_by.size() == 2);
  CHECK(modifiers.group_by[1].variable->name == "ps");
  CHECK(modifiers.having.size() == 1);
  REQUIRE(modifiers.order_by.size() == 3);
  CHECK(modifiers.order_by[0].descending);
  CHECK_FALSE(modifiers.order_by[1].descending);
  CHECK(modifiers.limit == 10);
  CHECK(modifiers.offset == 5);
}

TEST_CASE("Trailing VALUES of a query") {
  const Query query = MustParseQuery("SELECT * { ?s ?p ?o } VALUES (?s ?o) { (ex:a 1) (UNDEF 2) }");
  REQUIRE(query.values.has_value());
  CHECK(query.values->variables.size() == 2);
  REQUIRE(query.values->rows.size() == 2);
  CHECK_FALSE(query.values->rows[1][0].has_value());
  CHECK(query.values->rows[1][1] == MakeLiteral("2", kXsdInteger));
  CHECK(QueryError("SELECT * {} VALUES () { () () }").empty());
  CHECK(QueryError("SELECT * {} VALUES (?a ?b) { (1) }").find("1 value(s) for 2 variable(s)") !=
        std::string::npos);
}

TEST_CASE("Aggregates") {
  const Query query = MustParseQuery(
      "SELECT (COUNT(*) AS ?a) (COUNT(DISTINCT ?x) AS ?b) (SUM(?x) AS ?c) (AVG(?x) AS ?d) "
      "(MIN(?x) AS ?e) (MAX(?x) AS ?f) (SAMPLE(?x) AS ?g) "
      "(GROUP_CONCAT(DISTINCT ?x; SEPARATOR = \", \") AS ?h) { ?s ex:p ?x }");
  REQUIRE(query.select.items.size() == 8);
  const auto& count_star = std::get<Aggregate>(query.select.items[0].expr->node);
  CHECK(count_star.op == AggregateOp::kCount);
  CHECK(count_star.arg == nullptr);
  CHECK(std::get<Aggregate>(query.select.items[1].expr->node).distinct);
  const auto& concat = std::get<Aggregate>(query.select.items[7].expr->node);
  CHECK(concat.op == AggregateOp::kGroupConcat);
  CHECK(concat.separator == ", ");
  SUBCASE("not in FILTER, not nested") {
    CHECK(QueryError("SELECT * { ?s ?p ?o FILTER (COUNT(?o) > 1) }").find("aggregates are only") !=
          std::string::npos);
    CHECK(QueryError("SELECT (SUM(COUNT(?o)) AS ?n) { ?s ?p ?o }").find("cannot be nested") !=
          std::string::npos);
  }
}

TEST_CASE("Variable scope checks (SPARQL 1.1 section 18.2.1)") {
  SUBCASE("BIND to a variable already in scope") {
    CHECK(QueryError("SELECT * { ?s ex:p ?o BIND (1 AS ?o) }").find("already in scope") !=
          std::string::npos);
    CHECK(QueryError("SELECT * { BIND (1 AS ?o) ?s ex:p ?o }").empty());
    CHECK(QueryError("SELECT * { ?s ex:p ?o MINUS { ?s ex:q ?m } BIND (1 AS ?m) }").empty());
  }
  SUBCASE("SELECT (expr AS ?v) with ?v in scope or projected twice") {
    CHECK(!QueryError("SELECT (1 AS ?o) { ?s ex:p ?o }").empty());
    CHECK(!QueryError("SELECT (1 AS ?x) (2 AS ?x) {}").empty());
  }
  SUBCASE("grouping rules are enforced in strict mode only") {
    const char* ungrouped = "SELECT ?s ?o { ?s ex:p ?o } GROUP BY ?s";
    CHECK(QueryError(ungrouped, /*strict=*/true).find("?o is projected but neither grouped") !=
          std::string::npos);
    CHECK(QueryError(ungrouped, /*strict=*/false).empty());
    CHECK(!QueryError("SELECT * { ?s ex:p ?o } GROUP BY ?s", /*strict=*/true).empty());
    CHECK(QueryError("SELECT ?s (COUNT(?o) AS ?n) { ?s ex:p ?o } GROUP BY ?s", true).empty());
    CHECK(QueryError("SELECT (?k + 1 AS ?m) { ?s ex:p ?o } GROUP BY (?o AS ?k)", true).empty());
  }
  SUBCASE("blank node labels confined to one basic graph pattern in strict mode") {
    const char* shared = "SELECT * { _:a ex:p ?v . OPTIONAL { _:a ex:q ?w } }";
    CHECK(!QueryError(shared, /*strict=*/true).empty());
    CHECK(QueryError(shared, /*strict=*/false).empty());
    CHECK(QueryError("SELECT * { _:a ex:p ?v FILTER(true) _:a ex:q ?w }", true).empty());
  }
}

TEST_CASE("Sub-select with its own modifiers and VALUES") {
  const Query query = MustParseQuery(
      "SELECT ?s { { SELECT DISTINCT ?s (COUNT(?o) AS ?n) { ?s ?p ?o } GROUP BY ?s "
      "ORDER BY ?n LIMIT 3 VALUES ?s { ex:a } } }");
  const auto& nested = ElementAs<NestedGroup>(query.where, 0);
  const auto& sub = *std::get<std::unique_ptr<SubSelect>>(nested.pattern.elements.at(0).node);
  CHECK(sub.select.distinct);
  CHECK(sub.modifiers.limit == 3);
  REQUIRE(sub.values.has_value());
  CHECK(sub.values->rows.size() == 1);
}

TEST_CASE("Syntax errors are reported and never crash") {
  for (const char* bad :
       {"", "SELECT", "SELECT ?x", "SELECT ?x {", "SELECT * { ?s ?p }",
        "SELECT * { ?s ?p ?o ?x ?y ?z }", "SELECT * { FILTER }", "SELECT * {} LIMIT -1",
        "SELECT * {} LIMIT 99999999999999999999", "ASK { ?s ?p ?o } extra", "SELECT (1 AS ?x {}",
        "DESCRIBE", "SELECT * { ?s ex:p/ ?o }", "SELECT * { ?s !( ?o }", "SELECT * { ?s ?p ( }",
        "SELECT * { [ ex:p ?o }", "PREFIX x <a>"}) {
    CAPTURE(bad);
    CHECK(!QueryError(bad).empty());
  }
}

}  // namespace
}  // namespace quarry::sparql
