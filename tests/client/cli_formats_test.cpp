// Issue 4: `quarry sparql` through the running store prints every format the --database path
// prints (table, json, xml, csv, tsv; turtle and ntriples for CONSTRUCT / DESCRIBE), through the
// same writers: the two outputs of one query must be byte for byte the same.
#include <doctest/doctest.h>

#include "tests/cli/run_quarry.h"
#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

const std::string kData = kEx + R"(INSERT DATA {
  <urn:a> a ex:Song ; ex:title "Hallo"@de ; ex:size 42 ; ex:rating 2.5 ; ex:favourite true ;
          ex:created "2020-01-02T03:04:05Z" ; ex:keyword "tab\there, \"quoted\"" ;
          ex:performer <urn:p> .
  <urn:b> a ex:Song ; ex:title "plain" .
  <urn:p> a ex:Artist ; ex:name "Someone" .
})";

// The same request through the store and through --database (read-only: the store holds the
// lock), in one format.
void CheckSameOutput(StoreFixture& store, const std::string& query, const std::string& format) {
  CAPTURE(query);
  CAPTURE(format);
  const std::string through_store = QuarryOk({"sparql", "-q", query, "--format", format});
  const std::string direct =
      QuarryOk({"sparql", "--database", store.database().string(), "--ontology",
                store.ontology().string(), "-q", query, "--format", format});
  CHECK(through_store == direct);
  CHECK_FALSE(through_store.empty());
}

TEST_CASE("quarry sparql through the store: every solution format matches --database") {
  StoreFixture store;
  QuarryOk({"sparql", "-u", kData});
  const std::string select = kEx + R"(SELECT ?s ?t ?n ?r ?f ?c ?k ?p {
    ?s a ex:Song ; ex:title ?t .
    OPTIONAL { ?s ex:size ?n ; ex:rating ?r ; ex:favourite ?f ; ex:created ?c ; ex:keyword ?k ;
               ex:performer ?p }
  } ORDER BY ?s)";
  for (const std::string format : {"table", "json", "xml", "csv", "tsv"}) {
    CheckSameOutput(store, select, format);
    CheckSameOutput(store, kEx + "ASK { <urn:a> ex:size 42 }", format);
  }
  CHECK(QuarryOk({"sparql", "-q", kEx + "ASK { <urn:a> ex:size 41 }", "--format", "json"})
            .find("\"boolean\": false") != std::string::npos);
}

TEST_CASE("quarry sparql through the store: CONSTRUCT and DESCRIBE in turtle and ntriples") {
  StoreFixture store;
  QuarryOk({"sparql", "-u", kData});
  // Typed literals: N-Triples only (Turtle abbreviates datatypes with the ontology's prefixes,
  // which the store path does not have: it declares the query's own PREFIXes).
  const std::string construct =
      kEx +
      "CONSTRUCT { ?s ex:title ?t ; ex:size ?n } { ?s ex:title ?t OPTIONAL { ?s ex:size ?n } }";
  CheckSameOutput(store, construct, "ntriples");
  CheckSameOutput(store, "DESCRIBE <urn:a>", "ntriples");
  const std::string titles = kEx + "CONSTRUCT { ?s ex:title ?t } { ?s ex:title ?t }";
  CheckSameOutput(store, titles, "turtle");
  const std::string turtle = QuarryOk({"sparql", "-q", titles});  // turtle by default
  CHECK(turtle.find("@prefix ex: <http://example.org/ex#>") != std::string::npos);
  CHECK(turtle.find("\"Hallo\"@de") != std::string::npos);

  const QuarryRun wrong = RunQuarry({"sparql", "-q", construct, "--format", "json"});
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.err.find("graph query prints turtle or ntriples") != std::string::npos);
}

TEST_CASE("Connection::Bus: QueryTriples keeps term kinds, datatypes and language tags") {
  StoreFixture store;
  std::unique_ptr<Connection> bus = store.Bus(QueryTransport::kPlainDBus);  // graphs use the FD
  REQUIRE(bus->Update(kData).ok());
  const std::string query = kEx +
                            "CONSTRUCT { <urn:a> ex:title ?t ; ex:size ?n ; ex:rating ?r ; "
                            "ex:favourite ?f ; ex:created ?c ; ex:keyword ?k ; ex:performer ?p } "
                            "{ <urn:a> ex:title ?t ; ex:size ?n ; ex:rating ?r ; ex:favourite ?f ; "
                            "ex:created ?c ; ex:keyword ?k ; ex:performer ?p }";
  const auto triples = bus->QueryTriples(query);
  REQUIRE_MESSAGE(triples.ok(), (triples ? std::string() : triples.error().ToString()));
  CHECK(triples->size() == 7);
  // N-Triples spells every kind, datatype and language tag.
  const auto through_bus = bus->QueryRdf(query, RdfSyntax::kNTriples);
  const auto direct = store.Direct()->QueryRdf(query, RdfSyntax::kNTriples);
  REQUIRE(through_bus.ok());
  REQUIRE(direct.ok());
  CHECK(*through_bus == *direct);
  const auto select = bus->QueryTriples(kEx + "SELECT ?s { ?s a ex:Song }");
  CHECK_FALSE(select.ok());
}

}  // namespace
}  // namespace quarry::testing
