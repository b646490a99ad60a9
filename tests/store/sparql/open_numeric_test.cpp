// Open mode: XSD numbers as typed values (store/engine/sql_numeric_functions.h,
// store/sparql/translate/translate_numeric.cpp): the datatype of + - * / follows XPath's
// promotion integer -> decimal -> float -> double, decimals are exact, casts to xsd:decimal,
// xsd:float and xsd:double give that datatype (an invalid lexical form is unbound), and
// ABS/CEIL/FLOOR/ROUND keep a decimal a decimal.
#include <doctest/doctest.h>

#include <algorithm>

#include "store/engine/sql_numeric_functions.h"
#include "tests/store/engine/open_store_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

const std::string kData = R"(PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
  INSERT DATA {
    <urn:int> <urn:v> 3 .
    <urn:dec> <urn:v> "3"^^xsd:decimal .
    <urn:flt> <urn:v> "3"^^xsd:float .
    <urn:dbl> <urn:v> "3"^^xsd:double .
    <urn:tenth> <urn:v> 0.1 .
    <urn:fifth> <urn:v> 0.2 .
    <urn:one> <urn:v> 1.0 .
    <urn:neg> <urn:v> -1.6 .
    <urn:half> <urn:v> 2.5 .
    <urn:str> <urn:v> "-10.2E3" .
    <urn:plus> <urn:v> "+33.3300" .
    <urn:when> <urn:v> "2011-01-10T14:45:13.815-05:00"^^xsd:dateTime .
  })";

std::string Value(OpenStore& store, const std::string& expression) {
  const Rows rows = store.Rows(
      "SELECT (" + expression + " AS ?x) { <urn:int> <urn:v> ?int . <urn:dec> <urn:v> ?dec . "
      "<urn:flt> <urn:v> ?flt . <urn:dbl> <urn:v> ?dbl . <urn:tenth> <urn:v> ?tenth . "
      "<urn:fifth> <urn:v> ?fifth . <urn:one> <urn:v> ?one . <urn:neg> <urn:v> ?neg . "
      "<urn:half> <urn:v> ?half . <urn:str> <urn:v> ?str . <urn:plus> <urn:v> ?plus . <urn:when> <urn:v> ?when }");
  REQUIRE(rows.size() == 1);
  return rows[0];
}

TEST_CASE("open mode: arithmetic results are typed by numeric promotion") {
  OpenStore store;
  store.Update(kData);
  CHECK(Value(store, "?int + ?int") == Typed("6", "integer"));
  CHECK(Value(store, "?dec + ?dec") == Typed("6", "decimal"));
  CHECK(Value(store, "?int * ?dec") == Typed("9", "decimal"));
  CHECK(Value(store, "?dec - ?flt") == Typed("0", "float"));
  CHECK(Value(store, "?flt / ?dbl") == Typed("1", "double"));
  CHECK(Value(store, "?int / ?int") == Typed("1", "decimal"));  // integer division: a decimal
  CHECK(Value(store, "?int / 9") == Typed("0.33333333333333333333", "decimal"));
  CHECK(Value(store, "-?dec") == Typed("-3", "decimal"));
  CHECK(Value(store, "+?flt") == Typed("3", "float"));
  CHECK(Value(store, "?int / 0") == "-");  // an error for exact numbers
  CHECK(Value(store, "?str + 1") == "-");  // a string is not a number
}

TEST_CASE("open mode: decimal arithmetic is exact and keeps the operands' scale") {
  OpenStore store;
  store.Update(kData);
  CHECK(Value(store, "?tenth + ?fifth") == Typed("0.3", "decimal"));  // not 0.30000000000000004
  CHECK(Value(store, "?one + 2") == Typed("3.0", "decimal"));
  CHECK(Value(store, "?tenth * ?fifth") == Typed("0.02", "decimal"));
  CHECK(Value(store, "(?tenth + ?fifth) * 10") == Typed("3.0", "decimal"));
}

TEST_CASE("open mode: DATATYPE of arithmetic and of numeric casts") {
  OpenStore store;
  store.Update(kData);
  CHECK(Value(store, "DATATYPE(?dec + ?dec)") == "<" + kXsd + "decimal>");
  CHECK(Value(store, "DATATYPE(?int + ?int)") == "<" + kXsd + "integer>");
  CHECK(Value(store, "DATATYPE(?dec * ?flt)") == "<" + kXsd + "float>");
  CHECK(Value(store, "DATATYPE(<http://www.w3.org/2001/XMLSchema#float>(?str))") ==
        "<" + kXsd + "float>");
  CHECK(Value(store, "DATATYPE(<http://www.w3.org/2001/XMLSchema#decimal>(?int))") ==
        "<" + kXsd + "decimal>");
  // "-10.2E3" is not a decimal lexical form: the cast is an error.
  CHECK(Value(store, "DATATYPE(<http://www.w3.org/2001/XMLSchema#decimal>(?str))") == "-");
  CHECK(store.Rows("PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT ?s { ?s <urn:v> ?v "
                   "FILTER(DATATYPE(xsd:decimal(?v)) = xsd:decimal) } ORDER BY ?s") ==
        Rows{"<urn:dbl>", "<urn:dec>", "<urn:fifth>", "<urn:flt>", "<urn:half>", "<urn:int>",
             "<urn:neg>", "<urn:one>", "<urn:plus>", "<urn:tenth>"});
}

TEST_CASE("open mode: casts to decimal, float and double give canonical forms") {
  OpenStore store;
  store.Update(kData);
  const std::string xsd = "<http://www.w3.org/2001/XMLSchema#";
  CHECK(Value(store, xsd + "double>(?str)") == Typed("-1.02E4", "double"));
  CHECK(Value(store, xsd + "float>(?plus)") == Typed("3.333E1", "float"));
  CHECK(Value(store, xsd + "decimal>(?plus)") == Typed("33.33", "decimal"));
  CHECK(Value(store, xsd + "decimal>(?dbl)") == Typed("3", "decimal"));
  CHECK(Value(store, xsd + "double>(?half)") == Typed("2.5E0", "double"));
  CHECK(Value(store, xsd + "float>(<urn:x>)") == "-");  // an IRI does not cast
}

TEST_CASE("open mode: ABS, CEIL, FLOOR and ROUND keep a decimal a decimal") {
  OpenStore store;
  store.Update(kData);
  CHECK(Value(store, "CEIL(?neg)") == Typed("-1", "decimal"));
  CHECK(Value(store, "FLOOR(?neg)") == Typed("-2", "decimal"));
  CHECK(Value(store, "ROUND(?neg)") == Typed("-2", "decimal"));
  CHECK(Value(store, "ROUND(?half)") == Typed("3", "decimal"));
  CHECK(Value(store, "ROUND(-?half)") == Typed("-2", "decimal"));  // halves round up (fn:round)
  CHECK(Value(store, "ABS(?neg)") == Typed("1.6", "decimal"));
  CHECK(Value(store, "CEIL(?int)") == Typed("3", "integer"));
  CHECK(Value(store, "SECONDS(?when)") == Typed("13.815", "decimal"));
  CHECK(Value(store, "TIMEZONE(?when)") == Typed("-PT5H", "dayTimeDuration"));
  CHECK(Value(store, "DATATYPE(TIMEZONE(?when))") == "<" + kXsd + "dayTimeDuration>");
}

TEST_CASE("open mode: arithmetic over aggregates is typed by their terms") {
  OpenStore store;
  store.Update(kData);
  const std::string where = " { VALUES ?s { <urn:int> <urn:one> } ?s <urn:v> ?v }";
  CHECK(store.Rows("SELECT ((MIN(?v) + MAX(?v)) / 2 AS ?c)" + where) == Rows{Typed("2", "decimal")});
  CHECK(store.Rows("SELECT (COUNT(?v) * 0.5 AS ?c)" + where) == Rows{Typed("1.0", "decimal")});
  CHECK(store.Rows("SELECT (SUM(?v) - 1 AS ?c)" + where) == Rows{Typed("3", "decimal")});
  // A blank node in the group: MAX is not a number, the expression an error.
  store.Update("INSERT DATA { <urn:one> <urn:v> [] }");
  CHECK(store.Rows("SELECT ((MIN(?v) + MAX(?v)) / 2 AS ?c)" + where) == Rows{"-"});
}

TEST_CASE("open mode: a stored IRI joined with a partly UNDEF VALUES column stays an IRI") {
  OpenStore store;
  store.Update("INSERT DATA { <urn:a> <urn:p> <urn:b> . <urn:a> <urn:q> \"Alan\" }");
  Rows rows = store.Rows("SELECT ?o1 ?o2 { <urn:a> ?p1 ?o1 . <urn:a> ?p2 ?o2 } "
                         "VALUES (?o1 ?o2) { (UNDEF \"Alan\") (<urn:b> UNDEF) }");
  std::sort(rows.begin(), rows.end());
  CHECK(rows == Rows{"\"Alan\"|\"Alan\"", "<urn:b>|\"Alan\"", "<urn:b>|\"Alan\"", "<urn:b>|<urn:b>"});
}

TEST_CASE("IRI() of a relative reference resolves against BASE") {
  OpenStore store;
  CHECK(store.Rows("BASE <http://example.org/> SELECT (URI(\"uri\") AS ?u) (IRI(\"a/../iri\") AS ?i) "
                   "{}") == Rows{"<http://example.org/uri>|<http://example.org/iri>"});
  // A constant IRI argument (resolved by the parser) need not be a stored resource.
  CHECK(store.Rows("BASE <http://example.org/> SELECT (IRI(<iri>) AS ?i) {}") ==
        Rows{"<http://example.org/iri>"});
}

TEST_CASE("numeric: decimal parsing, promotion and canonical double forms") {
  using namespace engine::numeric;
  CHECK(!ParseDecimal("1e3"));
  CHECK(DecimalText(*ParseDecimal("-001.500"), false) == "-1.500");
  CHECK(DecimalText(*ParseDecimal("-001.500")) == "-1.5");
  CHECK(!ParseDouble("1e"));
  CHECK(!ParseDouble("."));
  CHECK(*ParseDouble("-INF") < 0);
  CHECK(DoubleText(1050) == "1.05E3");
  CHECK(DoubleText(0.2) == "2.0E-1");
  CHECK(FloatText(0.1f) == "1.0E-1");
  const auto number = ParseNumberTerm("L" + kXsd + "unsignedByte\x1f" "7");
  REQUIRE(number);
  CHECK(number->type == NumberType::kInteger);
  CHECK(!ParseNumberTerm("L" + kXsd + "integer\x1f" "1.0"));
  CHECK(!ParseNumberTerm("S12"));
  CHECK(CastTerm("integer", "L" + kXsd + "double\x1f" "-2.7") == "L" + kXsd + "integer\x1f" "-2");
  CHECK(CastTerm("decimal", "L" + kXsd + "boolean\x1f" "true") == "L" + kXsd + "decimal\x1f" "1");
  CHECK(!CastTerm("decimal", "L" + kXsd + "double\x1f" "INF"));
}

}  // namespace
}  // namespace quarry::testing
