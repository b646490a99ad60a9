// Importing Turtle, N-Triples, N-Quads and TriG files: values, graphs, types stated after
// properties, blank nodes, error positions, rollback, and a large streamed file.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>

#include "store/engine/sqlite/transaction.h"
#include "tests/store/rdf_io/rdf_io_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;
using engine::rdf_io::RdfSyntax;

TEST_CASE("Turtle import stores every value type") {
  RdfIoStore store;
  const auto stats = store.Import("songs.ttl", kTurtlePrefixes + R"(
<urn:a> a ex:Artist ; ex:name "Nina" .
<urn:s1> a ex:Song ;
  ex:title "Sinnerman" ; ex:track 7 ; ex:rating 4.5 ; ex:favourite true ;
  ex:created "1965-10-01T10:00:00+02:00"^^xsd:dateTime ; ex:released "1965-10-01"^^xsd:date ;
  ex:performer <urn:a> ; ex:genre "jazz", "soul"@en ;
  ex:content """two
lines with "quotes" and \\ backslash""" .
)");
  INFO((stats ? std::string() : stats.error().ToString()));
  REQUIRE(stats.ok());
  CHECK(stats->triples == 13);
  CHECK(stats->types == 2);
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?n ?r ?f ?c ?d ?p { <urn:s1> ex:title ?t ; ex:track ?n ; "
                               "ex:rating ?r ; ex:favourite ?f ; ex:created ?c ; ex:released ?d ; "
                               "ex:performer ?p }") ==
        Rows{"Sinnerman|7|4.5|true|1965-10-01T10:00:00+02:00|1965-10-01|urn:a"});
  CHECK(store.Rows(kPrefixes + "SELECT ?g { <urn:s1> ex:genre ?g } ORDER BY ?g") ==
        Rows{"jazz", "soul"});
  CHECK(store.Rows(kPrefixes + "SELECT ?c { <urn:s1> ex:content ?c }") ==
        Rows{"two\nlines with \"quotes\" and \\ backslash"});
  // Superclass types are implied, as for INSERT DATA.
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Element }") == Rows{"urn:s1"});
}

TEST_CASE("types may come after the properties that need them, anywhere in the file") {
  RdfIoStore store;
  store.ImportOk("late.ttl", kTurtlePrefixes + R"(
<urn:s1> ex:title "First" ; ex:track 1 ; ex:performer <urn:a> .
<urn:a> ex:name "Artist" .
<urn:s2> ex:title "Second" .
<urn:s2> a ex:Song .
<urn:a> a ex:Artist .
<urn:s1> a ex:Song .
)");
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?n { ?s a ex:Song ; ex:title ?t "
                               "OPTIONAL { ?s ex:performer ?p . ?p ex:name ?n } } ORDER BY ?t") ==
        Rows{"First|Artist", "Second|-"});
}

TEST_CASE("N-Triples and N-Quads import") {
  RdfIoStore store;
  store.ImportOk("data.nt",
                 "<urn:s1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
                 "<http://example.org/ex#Song> .\n"
                 "<urn:s1> <http://example.org/ex#title> \"caf\\u00E9\\t\\\"x\\\"\" .\n"
                 "# a comment line\n"
                 "<urn:s1> <http://example.org/ex#track> "
                 "\"3\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n");
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?n { <urn:s1> ex:title ?t ; ex:track ?n }") ==
        Rows{"café\t\"x\"|3"});
  store.ImportOk("data.nq",
                 "<urn:s2> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
                 "<http://example.org/ex#Song> <urn:g> .\n"
                 "<urn:s2> <http://example.org/ex#title> \"in g\" <urn:g> .\n");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { GRAPH <urn:g> { ?s ex:title ?t } }") == Rows{"in g"});
}

TEST_CASE("TriG graph names become named graphs, --graph takes the default-graph triples") {
  RdfIoStore store;
  store.ImportOk("graphs.trig", kTurtlePrefixes + R"(
<urn:s0> a ex:Song ; ex:title "default" .
<urn:g1> { <urn:s1> a ex:Song ; ex:title "one" . }
GRAPH <urn:g2> { <urn:s2> a ex:Song ; ex:title "two" . <urn:s2> ex:track 2 }
)");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { GRAPH <urn:g1> { ?s ex:title ?t } }") == Rows{"one"});
  CHECK(
      store.Rows(kPrefixes + "SELECT ?t ?n { GRAPH <urn:g2> { ?s ex:title ?t ; ex:track ?n } }") ==
      Rows{"two|2"});
  CHECK(store.Rows(kPrefixes + "SELECT ?g ?t { GRAPH ?g { ?s ex:title ?t } } ORDER BY ?t") ==
        Rows{"urn:g1|one", "urn:g2|two"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t } ORDER BY ?t") ==
        Rows{"default", "one", "two"});

  store.ImportOk("more.ttl", kTurtlePrefixes + "<urn:s3> a ex:Song ; ex:title \"three\" .",
                 "urn:g3");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { GRAPH <urn:g3> { ?s ex:title ?t } }") == Rows{"three"});
}

TEST_CASE("blank node labels are scoped to one file") {
  RdfIoStore store;
  const std::string text = kTurtlePrefixes + R"(
_:nina a ex:Artist ; ex:name "Nina" .
<urn:s1> a ex:Song ; ex:performer _:nina .
<urn:s2> a ex:Song ; ex:performer _:nina .
<urn:band> a ex:Artist ; ex:name "Band" ; ex:member [ a ex:Artist ; ex:name "Anon" ] , _:b1 .
_:b1 a ex:Artist ; ex:name "Labelled b1" .
)";
  store.ImportOk("first.ttl", text);
  // Both songs point at the same blank node.
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(DISTINCT ?p) AS ?n) { ?s ex:performer ?p }") ==
        Rows{"1"});
  CHECK(
      store.Rows(kPrefixes + "SELECT ?n { <urn:band> ex:member ?m . ?m ex:name ?n } ORDER BY ?n") ==
      Rows{"Anon", "Labelled b1"});
  // The same labels in a second file are new nodes.
  store.ImportOk("second.ttl", kTurtlePrefixes + R"(
_:nina a ex:Artist ; ex:name "Nina" .
<urn:s3> a ex:Song ; ex:performer _:nina .
<urn:band> ex:member _:b1 .
_:b1 a ex:Artist ; ex:name "Labelled b1" .
)");
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?a) AS ?n) { ?a ex:name \"Nina\" }") == Rows{"2"});
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(DISTINCT ?p) AS ?n) { ?s ex:performer ?p }") ==
        Rows{"2"});
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?m) AS ?n) { <urn:band> ex:member ?m }") ==
        Rows{"3"});
}

TEST_CASE("unknown predicate: error at file:line:column, nothing imported") {
  RdfIoStore store;
  const std::string message = store.ImportError("bad.ttl", kTurtlePrefixes + R"(<urn:a> a ex:Song ;
  ex:title "A" ;
  ex:nope "x" .
)");
  CHECK(message == store.path("bad.ttl") +
                       ":5:14: triple <urn:a> <http://example.org/ex#nope> \"x\": unknown "
                       "property <http://example.org/ex#nope>");
  CHECK(store.Rows("SELECT ?s { ?s a <http://example.org/ex#Song> }").empty());
}

TEST_CASE("syntax errors report file:line:column, columns count characters") {
  RdfIoStore store;
  SUBCASE("missing punctuation") {
    const std::string message = store.ImportError("syntax.ttl", kTurtlePrefixes +
                                                                    "<urn:a> a ex:Song ;\n"
                                                                    "  ex:title \"é\" <urn:b> .\n");
    CHECK(message.rfind(store.path("syntax.ttl") + ":4:16: ", 0) == 0);
  }
  SUBCASE("undefined prefix") {
    const std::string message = store.ImportError("prefix.ttl", "<urn:a> a zz:Song .\n");
    CHECK(message.rfind(store.path("prefix.ttl") + ":1:", 0) == 0);
    CHECK(message.find("zz") != std::string::npos);
  }
  SUBCASE("unterminated string") {
    const std::string message =
        store.ImportError("string.ttl", kTurtlePrefixes + "<urn:a> ex:title \"open .\n");
    CHECK(message.rfind(store.path("string.ttl") + ":3:", 0) == 0);
  }
  CHECK(store.Rows("SELECT ?s { ?s a <http://example.org/ex#Song> }").empty());
}

TEST_CASE("ontology violations name the position and the triple") {
  RdfIoStore store;
  SUBCASE("domain") {
    const std::string message = store.ImportError(
        "domain.ttl", kTurtlePrefixes + "<urn:a> a ex:Artist .\n<urn:a> ex:track 5 .\n");
    CHECK(message.rfind(store.path("domain.ttl") + ":4:19: triple <urn:a> ", 0) == 0);
    CHECK(message.find("not in the domain of ex:track") != std::string::npos);
  }
  SUBCASE("range") {
    const std::string message =
        store.ImportError("range.ttl", kTurtlePrefixes + "<urn:s> a ex:Song ; ex:track \"x\" .\n");
    CHECK(message.find("range.ttl:3:") != std::string::npos);
    CHECK(message.find("not a valid integer") != std::string::npos);
  }
  SUBCASE("unknown class") {
    const std::string message =
        store.ImportError("class.ttl", kTurtlePrefixes + "<urn:s> a ex:Nothing .\n");
    CHECK(message.find("unknown class <http://example.org/ex#Nothing>") != std::string::npos);
  }
  SUBCASE("second value of a single-valued property") {
    const std::string message = store.ImportError(
        "twice.ttl", kTurtlePrefixes + "<urn:s> a ex:Song ; ex:title \"a\", \"b\" .\n");
    CHECK(message.find("single-valued") != std::string::npos);
  }
}

TEST_CASE("errors found late in the writer's buffer still point at their own triple") {
  RdfIoStore store;
  SUBCASE("domain, found when a later statement of the subject flushes") {
    const std::string message = store.ImportError("late_domain.ttl", kTurtlePrefixes + R"(
<urn:a> a ex:Artist .
<urn:a> ex:name "A" ;
  ex:track 5 ;
  ex:member <urn:b> .
<urn:b> a ex:Artist .
)");
    CHECK(message.rfind(store.path("late_domain.ttl") +
                            ":6:13: triple <urn:a> <http://example.org/ex#track> "
                            "\"5\"^^<http://www.w3.org/2001/XMLSchema#integer>: ",
                        0) == 0);
  }
  SUBCASE("a second value, found at the end of the file") {
    const std::string message = store.ImportError(
        "late_twice.ttl", kTurtlePrefixes + "<urn:s> a ex:Song ;\n  ex:title \"a\" ;\n"
                                            "  ex:title \"b\" ;\n  ex:size 1 .\n");
    CHECK(message.rfind(store.path("late_twice.ttl") +
                            ":5:15: triple <urn:s> <http://example.org/ex#title> \"b\": ",
                        0) == 0);
    CHECK(message.find("single-valued") != std::string::npos);
  }
}

TEST_CASE("importing the same file twice changes nothing") {
  RdfIoStore store;
  const std::string text =
      kTurtlePrefixes + "<urn:s> a ex:Song ; ex:title \"a\" ; ex:genre \"g\" .\n";
  store.ImportOk("same.ttl", text);
  store.ImportOk("same.ttl", text);
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?g { ?s ex:title ?t ; ex:genre ?g }") == Rows{"a|g"});
}

TEST_CASE("files: relative IRIs, missing files, unknown extensions, explicit syntax") {
  RdfIoStore store;
  SUBCASE("relative IRIs resolve against the file") {
    store.ImportOk("rel/data.ttl", kTurtlePrefixes + "<song> a ex:Song .\n");
    const Rows rows = store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }");
    CHECK(rows == Rows{"file://" + store.path("rel/song")});
  }
  SUBCASE("missing file") {
    auto stats = engine::rdf_io::ImportFile(store->database(), store->ontology(),
                                            store.path("missing.ttl"), std::nullopt);
    REQUIRE_FALSE(stats.ok());
    CHECK(stats.error().code() == Errc::kNotFound);
  }
  SUBCASE("unknown extension, then named syntax") {
    const auto file = store.dir().Write("data.txt", kTurtlePrefixes + "<urn:s> a ex:Song .\n");
    auto stats =
        engine::rdf_io::ImportFile(store->database(), store->ontology(), file, std::nullopt);
    REQUIRE_FALSE(stats.ok());
    CHECK(stats.error().code() == Errc::kUnsupported);
    stats = engine::rdf_io::ImportFile(store->database(), store->ontology(), file, std::nullopt,
                                       RdfSyntax::kTurtle);
    CHECK(stats.ok());
  }
}

TEST_CASE("ImportRdf runs inside the caller's transaction") {
  RdfIoStore store;
  const auto file = store.dir().Write("in_tx.ttl", kTurtlePrefixes + "<urn:s> a ex:Song .\n");
  {
    auto transaction = engine::Transaction::Begin(store->database());
    REQUIRE(transaction.ok());
    engine::TripleWriter writer(store->database(), store->ontology());
    const auto stats = engine::rdf_io::ImportRdf(writer, store->ontology(), file, std::nullopt);
    REQUIRE(stats.ok());
    writer.Abandon();
    // Rolled back by the transaction's destructor.
  }
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }").empty());
}

TEST_CASE("SPARQL LOAD reads a local file") {
  RdfIoStore store;
  const auto file =
      store.dir().Write("load.ttl", kTurtlePrefixes + "<urn:s> a ex:Song ; ex:title \"L\" .\n");
  store.Update("LOAD <file://" + file.string() + "> INTO GRAPH <urn:loaded>");
  CHECK(store.Rows(kPrefixes + "SELECT ?t { GRAPH <urn:loaded> { ?s ex:title ?t } }") == Rows{"L"});
}

TEST_CASE("a 100k-triple file streams through, types last") {
  RdfIoStore store;
  constexpr int kSongs = 25000;
  const std::filesystem::path file = store.dir() / "big.ttl";
  {
    std::ofstream out(file);
    out << kTurtlePrefixes;
    for (int i = 0; i < kSongs; ++i) {
      out << "<urn:song:" << i << "> ex:title \"Song " << i << "\" ; ex:track " << i
          << " ; ex:size " << i * 10 << " ; a ex:Song .\n";
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const auto stats =
      engine::rdf_io::ImportFile(store->database(), store->ontology(), file, std::nullopt);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  INFO((stats ? std::string() : stats.error().ToString()));
  REQUIRE(stats.ok());
  MESSAGE("100k triples imported in " << seconds.count() << " s");
  CHECK(stats->triples == 4 * kSongs);
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?s) AS ?n) { ?s a ex:Song }") ==
        Rows{std::to_string(kSongs)});
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?n { <urn:song:24999> ex:title ?t ; ex:size ?n }") ==
        Rows{"Song 24999|249990"});
}

}  // namespace
}  // namespace quarry::testing
