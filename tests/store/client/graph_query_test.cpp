// The public graph-query calls: Connection::QueryTriples and Connection::QueryRdf.
#include <doctest/doctest.h>

#include "quarry/connection.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/temp_dir.h"

namespace quarry {
namespace {

const std::string kEx = "PREFIX ex: <http://example.org/ex#>\n";
const std::string kExNs = "http://example.org/ex#";

std::unique_ptr<Connection> OpenSongs(const testing::TempDir& dir) {
  dir.Write("ontology/10-base.ontology", testing::kTestBase);
  dir.Write("ontology/20-ex.ontology", testing::kTestDomain);
  auto connection = Connection::Open({dir.path() / "db", dir.path() / "ontology", false});
  REQUIRE(connection.ok());
  REQUIRE(
      (*connection)
          ->Update(kEx + "INSERT DATA { <urn:s1> a ex:Song ; ex:title \"One\"@en ; ex:track 1 }")
          .ok());
  return std::move(*connection);
}

TEST_CASE("Connection::QueryTriples returns typed terms") {
  const testing::TempDir dir;
  const auto connection = OpenSongs(dir);
  auto triples =
      connection->QueryTriples(kEx +
                               "CONSTRUCT { ?s ex:name ?t ; ex:size ?n ; ex:performer _:who } "
                               "WHERE { ?s ex:title ?t ; ex:track ?n }");
  REQUIRE(triples.ok());
  REQUIRE(triples->size() == 3);
  const Term song{Term::Kind::kIri, "urn:s1", {}, {}};
  CHECK((*triples)[0] == Triple{song, kExNs + "name", {Term::Kind::kLiteral, "One", {}, "en"}});
  CHECK((*triples)[1] ==
        Triple{song,
               kExNs + "size",
               {Term::Kind::kLiteral, "1", "http://www.w3.org/2001/XMLSchema#integer", {}}});
  CHECK((*triples)[2].object.kind == Term::Kind::kBlankNode);

  auto refused = connection->QueryTriples("SELECT ?s { ?s ?p ?o }");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == Errc::kInvalidArgument);
}

TEST_CASE("Connection::QueryRdf writes Turtle and N-Triples") {
  const testing::TempDir dir;
  const auto connection = OpenSongs(dir);
  auto turtle = connection->QueryRdf("DESCRIBE <urn:s1>");
  REQUIRE(turtle.ok());
  CHECK(*turtle ==
        "@prefix ex: <http://example.org/ex#> .\n\n"
        "<urn:s1>\n\ta ex:Song ;\n\tex:title \"One\"@en ;\n\tex:track 1 .\n");
  auto ntriples =
      connection->QueryRdf(kEx + "CONSTRUCT WHERE { ?s ex:track ?n }", RdfSyntax::kNTriples);
  REQUIRE(ntriples.ok());
  CHECK(*ntriples ==
        "<urn:s1> <http://example.org/ex#track> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> "
        ".\n");
}

}  // namespace
}  // namespace quarry
