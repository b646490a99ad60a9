// The SPARQL 1.1 function library on a real store: results, their types, and SPARQL's error
// semantics (a type error leaves the value unbound and makes a FILTER false).
#include <doctest/doctest.h>

#include "tests/store/engine/function_test_util.h"

namespace quarry::testing {
namespace {

void AddSongs(TestStore& store) {
  store.Update(kFunctionPrefixes + R"(INSERT DATA {
    <urn:a> a ex:Artist ; ex:name "Ann" .
    <urn:s1> a ex:Song ; ex:title "Song one" ; ex:size 10 ; ex:rating 2.5 ; ex:favourite true ;
      ex:created "2011-01-10T14:45:13.815-05:00"^^xsd:dateTime ; ex:released "2011-01-10"^^xsd:date ;
      ex:performer <urn:a> .
    <urn:s2> a ex:Song ; ex:title "Song two"@en ; ex:size 20 .
  })");
}

TEST_CASE("string functions count code points and keep language tags") {
  TestStore store;
  CHECK(Eval(*store, "STRLEN(\"chat\")") == "4^integer");
  CHECK(Eval(*store, "STRLEN(\"été\")") == "3^integer");
  CHECK(Eval(*store, "SUBSTR(\"foobar\", 4)") == "bar^string");
  CHECK(Eval(*store, "SUBSTR(\"foobar\", 4, 1)") == "b^string");
  CHECK(Eval(*store, "SUBSTR(\"motor car\"@en, 7)") == "car@en^langstring");
  CHECK(Eval(*store, "SUBSTR(\"12345\", 1.5, 2.6)") == "234^string");
  CHECK(Eval(*store, "SUBSTR(\"12345\", 0, 3)") == "12^string");
  CHECK(Eval(*store, "SUBSTR(\"éàü\", 2, 1)") == "à^string");
  CHECK(Eval(*store, "UCASE(\"foo\"@en)") == "FOO@en^langstring");
  CHECK(Eval(*store, "UCASE(\"straße\")") == "STRASSE^string");
  CHECK(Eval(*store, "LCASE(\"BAR\")") == "bar^string");
  CHECK(Eval(*store, "ENCODE_FOR_URI(\"Los Angeles\")") == "Los%20Angeles^string");
  CHECK(Eval(*store, "ENCODE_FOR_URI(\"été~\")") == "%C3%A9t%C3%A9~^string");
  CHECK(Eval(*store, "CONCAT(\"foo\"@en, \"bar\"@en)") == "foobar@en^langstring");
  CHECK(Eval(*store, "CONCAT(\"foo\"@en, \"bar\")") == "foobar^string");
  CHECK(Eval(*store, "CONCAT(\"track \", 7)") == "track 7^string");
  CHECK(Eval(*store, "CONCAT()") == "^string");
}

TEST_CASE("STRSTARTS, STRENDS, CONTAINS, STRBEFORE, STRAFTER with argument compatibility") {
  TestStore store;
  CHECK(Eval(*store, "STRSTARTS(\"foobar\", \"foo\")") == "true^boolean");
  CHECK(Eval(*store, "STRENDS(\"foobar\", \"bar\")") == "true^boolean");
  CHECK(Eval(*store, "CONTAINS(\"foobar\", \"oba\")") == "true^boolean");
  CHECK(Eval(*store, "CONTAINS(\"foobar\", \"xyz\")") == "false^boolean");
  CHECK(Eval(*store, "STRSTARTS(\"foobar\"@en, \"foo\")") == "true^boolean");
  CHECK(Eval(*store, "STRSTARTS(\"foobar\"@en, \"foo\"@fr)") == "-");
  CHECK(Eval(*store, "STRBEFORE(\"abc\", \"b\")") == "a^string");
  CHECK(Eval(*store, "STRBEFORE(\"abc\"@en, \"bc\")") == "a@en^langstring");
  CHECK(Eval(*store, "STRBEFORE(\"abc\"@en, \"z\")") == "^string");
  CHECK(Eval(*store, "STRAFTER(\"abc\", \"b\")") == "c^string");
  CHECK(Eval(*store, "STRAFTER(\"abc\"@en, \"\")") == "abc@en^langstring");
}

TEST_CASE("string functions on a non-string are a type error: unbound") {
  TestStore store;
  AddSongs(store);
  for (const char* expression : {"STRLEN(123)", "SUBSTR(1, 1)", "UCASE(2.5)", "STRSTARTS(1, \"1\")",
                                 "CONTAINS(true, \"t\")", "ENCODE_FOR_URI(3)", "MD5(1)",
                                 "LANG(<urn:a>)", "REGEX(12, \"1\")", "SUBSTR(\"abc\", \"x\")"}) {
    INFO(expression);
    CHECK(Eval(*store, expression) == "-");
  }
  CHECK(Typed(*store, "SELECT (STRLEN(?n) AS ?v) { <urn:s1> ex:size ?n }") == "-");
  CHECK(Typed(*store, "SELECT (STRLEN(?t) AS ?v) { <urn:s2> ex:title ?t }") == "8^integer");
  // In a FILTER the error removes the solution; || and && follow SPARQL's error rules.
  CHECK(store.Rows(kFunctionPrefixes + "SELECT ?s { ?s ex:size ?n FILTER (STRLEN(?n) > 0) }")
            .empty());
  CHECK(store.Rows(kFunctionPrefixes +
                   "SELECT ?s { ?s ex:size ?n FILTER (STRLEN(?n) > 0 || ?n = 10) }") ==
        std::vector<std::string>{"urn:s1"});
  CHECK(store.Rows(kFunctionPrefixes + "SELECT ?s { ?s ex:size ?n FILTER (!(STRLEN(?n) > 0)) }")
            .empty());
}

TEST_CASE("REGEX and REPLACE with flags i s m x q, a bad pattern is a clear error") {
  TestStore store;
  CHECK(Eval(*store, "REGEX(\"Alice\", \"^ali\", \"i\")") == "true^boolean");
  CHECK(Eval(*store, "REGEX(\"Alice\", \"^ali\")") == "false^boolean");
  CHECK(Eval(*store, "REGEX(\"a\\nb\", \"a.b\", \"s\")") == "true^boolean");
  CHECK(Eval(*store, "REGEX(\"a\\nb\", \"a.b\")") == "false^boolean");
  CHECK(Eval(*store, "REGEX(\"one\\ntwo\", \"^two$\", \"m\")") == "true^boolean");
  CHECK(Eval(*store, "REGEX(\"abc\", \"a b c\", \"x\")") == "true^boolean");
  CHECK(Eval(*store, "REGEX(\"a.b\", \".\", \"q\")") == "true^boolean");
  CHECK(Eval(*store, "REGEX(\"axb\", \"a.b\", \"q\")") == "false^boolean");
  CHECK(Eval(*store, "REPLACE(\"abab\", \"B\", \"Z\", \"i\")") == "aZaZ^string");
  CHECK(Eval(*store, "REPLACE(\"abcd\", \"(b)(c)\", \"$2$1\")") == "acbd^string");
  CHECK(Eval(*store, "REPLACE(\"abc\"@en, \"b\", \"x\")") == "axc@en^langstring");
  CHECK(Eval(*store, "REPLACE(\"abc\", \".*\", \"x\")") == "-");  // matches "": an error
  CHECK(QueryError(*store, "SELECT (REGEX(\"a\", \"(\") AS ?v) {}")
            .find("invalid regular expression") != std::string::npos);
  CHECK(QueryError(*store, "SELECT (REGEX(\"a\", \"a\", \"z\") AS ?v) {}").find("unknown flag") !=
        std::string::npos);
  CHECK(QueryError(*store, "SELECT (REPLACE(\"a\", \"[\", \"b\") AS ?v) {}").find("REPLACE") !=
        std::string::npos);
}

TEST_CASE("LANG, LANGMATCHES, STRLANG, STRDT, DATATYPE, STR") {
  TestStore store;
  AddSongs(store);
  CHECK(Eval(*store, "LANG(\"x\"@en-GB)") == "en-GB^string");
  CHECK(Eval(*store, "LANG(\"x\")") == "^string");
  CHECK(Eval(*store, "LANGMATCHES(\"en-GB\", \"en\")") == "true^boolean");
  CHECK(Eval(*store, "LANGMATCHES(\"EN\", \"en\")") == "true^boolean");
  CHECK(Eval(*store, "LANGMATCHES(\"fr\", \"en\")") == "false^boolean");
  CHECK(Eval(*store, "LANGMATCHES(\"fr\", \"*\")") == "true^boolean");
  CHECK(Eval(*store, "LANGMATCHES(\"\", \"*\")") == "false^boolean");
  CHECK(Eval(*store, "STRLANG(\"chat\", \"fr\")") == "chat@fr^langstring");
  CHECK(Eval(*store, "STRLANG(\"chat\"@en, \"fr\")") == "-");
  CHECK(Eval(*store, "STRDT(\"123\", xsd:integer)") == "123^integer");
  CHECK(Eval(*store, "STRDT(\"abc\", xsd:integer)") == "-");
  CHECK(Eval(*store, "STRDT(\"2020-05-01T10:00:00Z\", xsd:dateTime)") ==
        "2020-05-01T10:00:00Z^datetime");
  CHECK(Eval(*store, "DATATYPE(1)") == "http://www.w3.org/2001/XMLSchema#integer^iri");
  CHECK(Eval(*store, "DATATYPE(\"x\")") == "http://www.w3.org/2001/XMLSchema#string^iri");
  CHECK(Eval(*store, "DATATYPE(\"x\"@en)") ==
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString^iri");
  CHECK(Eval(*store, "DATATYPE(true)") == "http://www.w3.org/2001/XMLSchema#boolean^iri");
  CHECK(Typed(*store, "SELECT (DATATYPE(?c) AS ?v) { <urn:s1> ex:created ?c }") ==
        "http://www.w3.org/2001/XMLSchema#dateTime^iri");
  CHECK(store.Rows(kFunctionPrefixes +
                   "SELECT ?s { ?s ex:size ?n FILTER (DATATYPE(?n) = xsd:integer) } ORDER BY ?s") ==
        std::vector<std::string>{"urn:s1", "urn:s2"});
  CHECK(store.Rows(kFunctionPrefixes +
                   "SELECT ?s { ?s ex:title ?t FILTER (DATATYPE(?t) = xsd:string) }") ==
        std::vector<std::string>{"urn:s1"});
  CHECK(Eval(*store, "DATATYPE(<urn:a>)") == "-");
  CHECK(Eval(*store, "STR(<urn:a>)") == "urn:a^string");
  CHECK(Typed(*store, "SELECT (STR(?c) AS ?v) { <urn:s1> ex:created ?c }") ==
        "2011-01-10T14:45:13.815-05:00^string");
}

TEST_CASE("IRI, BNODE, UUID, STRUUID and the term tests") {
  TestStore store;
  AddSongs(store);
  CHECK(Eval(*store, "IRI(\"urn:a\")") == "urn:a^iri");
  CHECK(Typed(*store, "SELECT ?n { ?a ex:name ?n FILTER (?a = IRI(\"urn:a\")) }") == "Ann^string");
  CHECK(Eval(*store, "isIRI(IRI(\"urn:a\"))") == "true^boolean");
  CHECK(Eval(*store, "isIRI(<urn:a>)") == "true^boolean");
  CHECK(Eval(*store, "isIRI(\"urn:a\")") == "false^boolean");
  CHECK(Eval(*store, "isLiteral(\"x\")") == "true^boolean");
  CHECK(Eval(*store, "isLiteral(<urn:a>)") == "false^boolean");
  CHECK(Eval(*store, "isNumeric(1)") == "true^boolean");
  CHECK(Eval(*store, "isNumeric(\"1\")") == "false^boolean");
  CHECK(Eval(*store, "isBlank(BNODE())") == "true^boolean");
  CHECK(Eval(*store, "isBlank(<urn:a>)") == "false^boolean");
  CHECK(Eval(*store, "SUBSTR(STR(UUID()), 1, 9)") == "urn:uuid:^string");
  CHECK(Eval(*store, "isIRI(UUID())") == "true^boolean");
  CHECK(Eval(*store, "STRLEN(STRUUID())") == "36^integer");
  CHECK(Eval(*store,
             "REGEX(STRUUID(), "
             "\"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$\")") ==
        "true^boolean");
  const auto uuids = store.Rows(kFunctionPrefixes + "SELECT (STRUUID() AS ?u) { ?s ex:size ?n }");
  REQUIRE(uuids.size() == 2);
  CHECK(uuids[0] != uuids[1]);
  CHECK(Eval(*store, "sameTerm(1, 1)") == "true^boolean");
  CHECK(Eval(*store, "sameTerm(1, 1.0)") == "false^boolean");
  CHECK(Eval(*store, "sameTerm(\"a\", \"a\")") == "true^boolean");
  CHECK(Eval(*store, "sameTerm(<urn:a>, <urn:a>)") == "true^boolean");
  CHECK(Typed(*store, "SELECT (isNumeric(?n) AS ?v) { <urn:s1> ex:size ?n }") == "true^boolean");
}

TEST_CASE("COALESCE, IF and tracker:coalesce") {
  TestStore store;
  AddSongs(store);
  CHECK(Eval(*store, "COALESCE(?nothing, 3)") == "3^integer");
  CHECK(Eval(*store, "COALESCE(1/0, \"x\")") == "x^string");
  CHECK(Eval(*store, "tracker:coalesce(?nothing, \"d\")") == "d^string");
  CHECK(Eval(*store, "IF(1 < 2, \"yes\", \"no\")") == "yes^string");
  CHECK(Eval(*store, "IF(1 > 2, \"yes\", \"no\")") == "no^string");
  CHECK(Eval(*store, "IF(STRLEN(1) > 0, \"yes\", \"no\")") == "-");
  CHECK(Typed(*store,
              "SELECT (COALESCE(?r, 0) AS ?v) { <urn:s2> ex:size ?n OPTIONAL { <urn:s2> ex:rating "
              "?r } }") == "0^integer");
}

TEST_CASE("numbers: promotion, ABS CEIL FLOOR ROUND RAND, errors") {
  TestStore store;
  AddSongs(store);
  CHECK(Eval(*store, "1 + 2") == "3^integer");
  CHECK(Eval(*store, "1 + 2.5") == "3.5^double");
  CHECK(Eval(*store, "3 / 2") == "1.5^double");
  CHECK(Eval(*store, "2 * 3") == "6^integer");
  CHECK(Eval(*store, "\"a\" + 1") == "-");
  CHECK(Eval(*store, "1 / 0") == "-");
  CHECK(Eval(*store, "- \"a\"") == "-");
  CHECK(Typed(*store, "SELECT (?n + ?r AS ?v) { <urn:s1> ex:size ?n ; ex:rating ?r }") ==
        "12.5^double");
  CHECK(Eval(*store, "ABS(-3)") == "3^integer");
  CHECK(Eval(*store, "ABS(-2.5)") == "2.5^double");
  CHECK(Eval(*store, "CEIL(1.2)") == "2^double");
  CHECK(Eval(*store, "FLOOR(-1.5)") == "-2^double");
  CHECK(Eval(*store, "ROUND(2.5)") == "3^double");
  CHECK(Eval(*store, "ROUND(-2.5)") == "-2^double");
  CHECK(Eval(*store, "ROUND(5)") == "5^integer");
  CHECK(Eval(*store, "ABS(\"x\")") == "-");
  CHECK(Eval(*store, "RAND() >= 0 && RAND() < 1") == "true^boolean");
  // Comparing unrelated literal types: never equal, not ordered.
  CHECK(
      store.Rows(kFunctionPrefixes + "SELECT ?s { ?s ex:size ?n FILTER (?n > \"abc\") }").empty());
  CHECK(Eval(*store, "1 = \"1\"") == "false^boolean");
  CHECK(Eval(*store, "1 = 1.0") == "true^boolean");
  CHECK(Eval(*store, "1 < 1.5") == "true^boolean");
  CHECK(Typed(*store, "SELECT (SUM(?n) AS ?v) { ?s ex:size ?n }") == "30^integer");
}

TEST_CASE("dates: NOW, YEAR … SECONDS, TIMEZONE, TZ in the value's own zone") {
  TestStore store;
  AddSongs(store);
  const std::string created = "\"2011-01-10T14:45:13.815-05:00\"^^xsd:dateTime";
  CHECK(Eval(*store, "YEAR(" + created + ")") == "2011^integer");
  CHECK(Eval(*store, "MONTH(" + created + ")") == "1^integer");
  CHECK(Eval(*store, "DAY(" + created + ")") == "10^integer");
  CHECK(Eval(*store, "HOURS(" + created + ")") == "14^integer");
  CHECK(Eval(*store, "MINUTES(" + created + ")") == "45^integer");
  CHECK(Eval(*store, "SECONDS(" + created + ")") == "13.815^double");
  CHECK(Eval(*store, "TIMEZONE(" + created + ")") == "-PT5H^string");
  CHECK(Eval(*store, "TZ(" + created + ")") == "-05:00^string");
  CHECK(Eval(*store, "TZ(\"2011-01-10T14:45:13Z\"^^xsd:dateTime)") == "Z^string");
  CHECK(Eval(*store, "TIMEZONE(\"2011-01-10T14:45:13Z\"^^xsd:dateTime)") == "PT0S^string");
  CHECK(Eval(*store, "TIMEZONE(\"2011-01-10T14:45:13\"^^xsd:dateTime)") == "-");
  CHECK(Eval(*store, "TZ(\"2011-01-10T14:45:13\"^^xsd:dateTime)") == "^string");
  CHECK(Typed(*store,
              "SELECT (HOURS(?c) AS ?h) (YEAR(?d) AS ?y) { <urn:s1> ex:created ?c ; ex:released ?d "
              "}") == "14^integer | 2011^integer");
  CHECK(Eval(*store, "YEAR(\"abc\")") == "-");
  CHECK(Eval(*store, "YEAR(12)") == "-");
  const std::string now = Eval(*store, "NOW()");
  CHECK(now.size() > 20);
  CHECK(now.substr(now.size() - 9) == "^datetime");
  CHECK(Eval(*store, "YEAR(NOW()) >= 2024") == "true^boolean");
  // One instant for the whole query.
  const auto rows = store.Rows(kFunctionPrefixes + "SELECT (STR(NOW()) AS ?t) { ?s ex:size ?n }");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] == rows[1]);
}

TEST_CASE("hashes of simple literals") {
  TestStore store;
  CHECK(Eval(*store, "MD5(\"abc\")") == "900150983cd24fb0d6963f7d28e17f72^string");
  CHECK(Eval(*store, "SHA1(\"abc\")") == "a9993e364706816aba3e25717850c26c9cd0d89d^string");
  CHECK(Eval(*store, "SHA256(\"abc\")") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad^string");
  CHECK(Eval(*store, "SHA384(\"abc\")") ==
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134"
        "c825a7^string");
  CHECK(Eval(*store, "SHA512(\"abc\")") ==
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3"
        "feebbd454d4423643ce80e2a9ac94fa54ca49f^string");
  CHECK(Eval(*store, "MD5(\"abc\"@en)") == "-");
}

TEST_CASE("XSD casts") {
  TestStore store;
  CHECK(Eval(*store, "xsd:integer(\"12\")") == "12^integer");
  CHECK(Eval(*store, "xsd:integer(\"abc\")") == "-");
  CHECK(Eval(*store, "xsd:integer(2.7)") == "2^integer");
  CHECK(Eval(*store, "xsd:double(3)") == "3^double");
  CHECK(Eval(*store, "xsd:boolean(\"true\")") == "true^boolean");
  CHECK(Eval(*store, "xsd:boolean(0)") == "false^boolean");
  CHECK(Eval(*store, "xsd:dateTime(\"2020-01-01T00:00:00Z\")") == "2020-01-01T00:00:00Z^datetime");
  CHECK(Eval(*store, "xsd:string(12)") == "12^string");
}

TEST_CASE("Tracker's string and URI functions") {
  TestStore store;
  CHECK(Eval(*store, "tracker:case-folding(\"ÉCOLE Straße\")") == "école strasse^string");
  CHECK(Eval(*store, "tracker:normalize(\"e\u0301\", \"nfc\")") == "\u00e9^string");
  CHECK(Eval(*store, "tracker:normalize(\"\u00e9\", \"NFD\")") == "e\u0301^string");
  CHECK(Eval(*store, "tracker:normalize(\"\uFB01\", \"nfkc\")") == "fi^string");
  CHECK(QueryError(*store, "SELECT (tracker:normalize(\"x\", \"nfx\") AS ?v) {}")
            .find("unknown form") != std::string::npos);
  CHECK(Eval(*store, "tracker:unaccent(\"Résumé Ångström\")") == "Resume Angstrom^string");
  CHECK(Eval(*store, "tracker:string-from-filename(\"my_summer.holiday.jpg\")") ==
        "my summer holiday^string");
  CHECK(Eval(*store, "tracker:uri-is-parent(\"file:///a\", \"file:///a/b\")") == "true^boolean");
  CHECK(Eval(*store, "tracker:uri-is-parent(\"file:///a/\", \"file:///a/b\")") == "true^boolean");
  CHECK(Eval(*store, "tracker:uri-is-parent(\"file:///a\", \"file:///a/b/c\")") == "false^boolean");
  CHECK(Eval(*store, "tracker:uri-is-parent(\"file:///a\", \"file:///ab\")") == "false^boolean");
  CHECK(
      Eval(*store, "tracker:uri-is-descendant(\"file:///x\", \"file:///a\", \"file:///a/b/c\")") ==
      "true^boolean");
  CHECK(Eval(*store, "tracker:uri-is-descendant(\"file:///x\", \"file:///a/b\")") ==
        "false^boolean");
  CHECK(Eval(*store, "tracker:unaccent(3)") == "-");
}

}  // namespace
}  // namespace quarry::testing
