// The result serializers (store/engine/results/): escaping, datatypes, language tags and blank
// nodes in every W3C solution format, and graph results as Turtle and N-Triples.
#include <doctest/doctest.h>

#include <functional>
#include <regex>
#include <sstream>

#include "store/engine/results/graph_writer.h"
#include "store/engine/results/result_writer.h"
#include "store/engine/results/term_syntax.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

using engine::results::GraphFormat;
using schema::RdfTerm;

const std::string kXsd = "http://www.w3.org/2001/XMLSchema#";

TEST_CASE("term syntax: one escaper per format") {
  SUBCASE("JSON strings escape quotes, backslashes and controls") {
    CHECK(engine::results::JsonString("a\"b\\c\n\t\x01é") == "\"a\\\"b\\\\c\\n\\t\\u0001é\"");
  }
  SUBCASE("XML text escapes markup and replaces controls XML cannot carry") {
    CHECK(engine::results::XmlText("<a href=\"x\">&\x02\t") ==
          "&lt;a href=&quot;x&quot;&gt;&amp;\xEF\xBF\xBD\t");
  }
  SUBCASE("CSV quotes a field only when it must") {
    CHECK(engine::results::CsvField("plain text") == "plain text");
    CHECK(engine::results::CsvField("a,b") == "\"a,b\"");
    CHECK(engine::results::CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(engine::results::CsvField("two\r\nlines") == "\"two\r\nlines\"");
  }
  SUBCASE("N-Triples terms") {
    CHECK(engine::results::NTriplesTerm(RdfTerm::Iri("urn:a b>")) == "<urn:a\\u0020b\\u003E>");
    CHECK(engine::results::NTriplesTerm(RdfTerm::Blank("b7")) == "_:b7");
    CHECK(engine::results::NTriplesTerm(RdfTerm::Literal("x\"\\\n\r\t\x7f")) ==
          "\"x\\\"\\\\\\n\\r\\t\\u007F\"");
    CHECK(engine::results::NTriplesTerm(RdfTerm::Literal("chat", {}, "fr")) == "\"chat\"@fr");
    CHECK(engine::results::NTriplesTerm(RdfTerm::Literal("s", kXsd + "string")) == "\"s\"");
    CHECK(engine::results::NTriplesTerm(RdfTerm::Literal("5", kXsd + "integer")) ==
          "\"5\"^^<http://www.w3.org/2001/XMLSchema#integer>");
  }
  SUBCASE("TSV writes plain integers and booleans bare, anything else as N-Triples") {
    CHECK(engine::results::TsvTerm(RdfTerm::Literal("-5", kXsd + "integer")) == "-5");
    CHECK(engine::results::TsvTerm(RdfTerm::Literal("true", kXsd + "boolean")) == "true");
    CHECK(engine::results::TsvTerm(RdfTerm::Literal("5", kXsd + "string")) == "\"5\"");
    CHECK(engine::results::TsvTerm(RdfTerm::Literal("1.5", kXsd + "double")) ==
          "\"1.5\"^^<http://www.w3.org/2001/XMLSchema#double>");
  }
}

// One row holding an IRI, an escaped string, a tagged string, a blank node, an integer, a
// boolean and an unbound value.
class ResultFixture {
 public:
  ResultFixture() {
    store_.Update(kPrefixes + R"(INSERT DATA {
      <urn:s?x=1&y=2> a ex:Song ; ex:title "a \"b\" <c> & d, e\nf" ; ex:favourite true ;
        ex:track 7 ; ex:keyword "Lied"@de ; ex:performer [ a ex:Artist ] .
    })");
  }
  using MakeWriter = std::function<std::unique_ptr<engine::results::ResultWriter>(std::ostream&)>;
  std::string Write(const MakeWriter& make) {
    auto cursor = store_->Query(kPrefixes +
                                "SELECT ?s ?t ?k ?p ?n ?f ?none WHERE { ?s ex:title ?t ; "
                                "ex:keyword ?k ; ex:performer ?p ; ex:track ?n ; "
                                "ex:favourite ?f OPTIONAL { ?s ex:rating ?none } }");
    REQUIRE(cursor.ok());
    std::ostringstream out;
    const auto writer = make(out);
    auto rows = engine::results::WriteSolutions(*cursor, *writer);
    REQUIRE(rows.ok());
    CHECK(*rows == 1);
    // Blank node labels carry the resource ID, which depends on the ontology: make it stable.
    const std::string text = std::regex_replace(out.str(), std::regex("(_:b|\"b|>b)[0-9]+"), "$1N");
    CHECK(text != out.str());
    return text;
  }

 private:
  TestStore store_;
};

TEST_CASE("solution formats: escaping, datatypes, language tags, blank nodes, unbound") {
  ResultFixture fixture;
  SUBCASE("JSON") {
    CHECK(fixture.Write(engine::results::MakeJsonWriter) ==
          "{\n  \"head\": {\"vars\": [\"s\", \"t\", \"k\", \"p\", \"n\", \"f\", \"none\"]},\n"
          "  \"results\": {\"bindings\": [\n"
          "    {\"s\": {\"type\": \"uri\", \"value\": \"urn:s?x=1&y=2\"}, "
          "\"t\": {\"type\": \"literal\", \"value\": \"a \\\"b\\\" <c> & d, e\\nf\"}, "
          "\"k\": {\"type\": \"literal\", \"value\": \"Lied\", \"xml:lang\": \"de\"}, "
          "\"p\": {\"type\": \"bnode\", \"value\": \"bN\"}, "
          "\"n\": {\"type\": \"literal\", \"value\": \"7\", \"datatype\": "
          "\"http://www.w3.org/2001/XMLSchema#integer\"}, "
          "\"f\": {\"type\": \"literal\", \"value\": \"true\", \"datatype\": "
          "\"http://www.w3.org/2001/XMLSchema#boolean\"}}\n"
          "  ]}\n}\n");
  }
  SUBCASE("XML") {
    CHECK(fixture.Write(engine::results::MakeXmlWriter) ==
          "<?xml version=\"1.0\"?>\n"
          "<sparql xmlns=\"http://www.w3.org/2005/sparql-results#\">\n"
          "  <head>\n    <variable name=\"s\"/>\n    <variable name=\"t\"/>\n"
          "    <variable name=\"k\"/>\n    <variable name=\"p\"/>\n    <variable name=\"n\"/>\n"
          "    <variable name=\"f\"/>\n    <variable name=\"none\"/>\n  </head>\n"
          "  <results>\n    <result>\n"
          "      <binding name=\"s\"><uri>urn:s?x=1&amp;y=2</uri></binding>\n"
          "      <binding name=\"t\"><literal>a &quot;b&quot; &lt;c&gt; &amp; d, "
          "e\nf</literal></binding>\n"
          "      <binding name=\"k\"><literal xml:lang=\"de\">Lied</literal></binding>\n"
          "      <binding name=\"p\"><bnode>bN</bnode></binding>\n"
          "      <binding name=\"n\"><literal "
          "datatype=\"http://www.w3.org/2001/XMLSchema#integer\">7</literal></binding>\n"
          "      <binding name=\"f\"><literal "
          "datatype=\"http://www.w3.org/2001/XMLSchema#boolean\">true</literal></binding>\n"
          "    </result>\n  </results>\n</sparql>\n");
  }
  SUBCASE("CSV") {
    CHECK(fixture.Write(engine::results::MakeCsvWriter) ==
          "s,t,k,p,n,f,none\r\n"
          "urn:s?x=1&y=2,\"a \"\"b\"\" <c> & d, e\nf\",Lied,_:bN,7,true,\r\n");
  }
  SUBCASE("TSV") {
    CHECK(fixture.Write(engine::results::MakeTsvWriter) ==
          "?s\t?t\t?k\t?p\t?n\t?f\t?none\n"
          "<urn:s?x=1&y=2>\t\"a \\\"b\\\" <c> & d, e\\nf\"\t\"Lied\"@de\t_:bN\t7\ttrue\t\n");
  }
}

TEST_CASE("ASK answers in every solution format") {
  std::ostringstream json, xml, csv, tsv;
  engine::results::MakeJsonWriter(json)->Boolean(true);
  engine::results::MakeXmlWriter(xml)->Boolean(false);
  engine::results::MakeCsvWriter(csv)->Boolean(true);
  engine::results::MakeTsvWriter(tsv)->Boolean(false);
  CHECK(json.str() == "{\n  \"head\": {},\n  \"boolean\": true\n}\n");
  CHECK(xml.str() ==
        "<?xml version=\"1.0\"?>\n<sparql xmlns=\"http://www.w3.org/2005/sparql-results#\">\n"
        "  <head/>\n  <boolean>false</boolean>\n</sparql>\n");
  CHECK(csv.str() == "true\r\n");
  CHECK(tsv.str() == "false\n");
}

engine::TripleSet SampleGraph() {
  engine::TripleSet graph;
  const std::string ex = "http://example.org/ex#";
  graph.Add({RdfTerm::Iri("urn:s"), ex + "title", RdfTerm::Literal("say \"hi\"\n")});
  graph.Add({RdfTerm::Iri("urn:s"), ex + "keyword", RdfTerm::Literal("Lied", {}, "de")});
  graph.Add({RdfTerm::Iri("urn:s"), ex + "track", RdfTerm::Literal("7", kXsd + "integer")});
  graph.Add({RdfTerm::Iri("urn:s"), ex + "performer", RdfTerm::Blank("c1")});
  graph.Add({RdfTerm::Blank("c1"), ex + "name", RdfTerm::Literal("Nina")});
  CHECK_FALSE(graph.Add({RdfTerm::Blank("c1"), ex + "name", RdfTerm::Literal("Nina")}));
  return graph;
}

std::string WriteGraph(const engine::TripleSet& graph, GraphFormat format) {
  const std::map<std::string, std::string> prefixes{{"ex", "http://example.org/ex#"},
                                                    {"nmm", "http://example.org/unused#"}};
  std::ostringstream out;
  REQUIRE(engine::results::WriteGraph(graph, format, prefixes, out).ok());
  return out.str();
}

TEST_CASE("graph results as N-Triples and Turtle") {
  const engine::TripleSet graph = SampleGraph();
  CHECK(graph.size() == 5);
  CHECK(
      WriteGraph(graph, GraphFormat::kNTriples) ==
      "<urn:s> <http://example.org/ex#title> \"say \\\"hi\\\"\\n\" .\n"
      "<urn:s> <http://example.org/ex#keyword> \"Lied\"@de .\n"
      "<urn:s> <http://example.org/ex#track> \"7\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
      "<urn:s> <http://example.org/ex#performer> _:c1 .\n"
      "_:c1 <http://example.org/ex#name> \"Nina\" .\n");
  // Only the prefixes the text uses are declared; serd writes a string holding a line break as
  // a long string, and integers bare.
  CHECK(
      WriteGraph(graph, GraphFormat::kTurtle) ==
      "@prefix ex: <http://example.org/ex#> .\n\n"
      "<urn:s>\n\tex:title \"\"\"say \"hi\"\n\"\"\" ;\n\tex:keyword \"Lied\"@de ;\n\tex:track 7 ;\n"
      "\tex:performer _:c1 .\n\n_:c1\n\tex:name \"Nina\" .\n");
  CHECK(WriteGraph(engine::TripleSet(), GraphFormat::kTurtle).empty());
  CHECK(engine::results::GraphFormatFromName("ntriples") == GraphFormat::kNTriples);
  CHECK_FALSE(engine::results::GraphFormatFromName("json-ld"));
}

}  // namespace
}  // namespace quarry::testing
