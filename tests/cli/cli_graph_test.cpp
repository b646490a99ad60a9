// `quarry sparql` with CONSTRUCT and DESCRIBE: Turtle (the default) and N-Triples output, and
// the formats that do not apply to a query form refused with a clear message.
#include <doctest/doctest.h>

#include "tests/cli/run_quarry.h"

namespace quarry::testing {
namespace {

const std::string kData = R"(INSERT DATA {
  <urn:s1> a nmm:MusicPiece ; nie:title "Alpha, \"one\"" ; nmm:trackNumber 1 .
  <urn:s2> a nmm:MusicPiece ; nie:title "Beta"@en .
})";

class GraphDatabase {
 public:
  GraphDatabase() { QuarryOk({"sparql", "--database", database(), "--update", kData}); }
  std::string database() const { return (dir_ / "db").string(); }
  std::vector<std::string> Args(const std::string& query) const {
    return {"sparql", "--database", database(), "--query", query};
  }

 private:
  TempDir dir_;
};

const std::string kConstruct =
    "CONSTRUCT { ?s nie:title ?t ; nmm:trackNumber ?n } "
    "WHERE { ?s a nmm:MusicPiece ; nie:title ?t OPTIONAL { ?s nmm:trackNumber ?n } } ORDER BY ?s";

TEST_CASE("sparql CONSTRUCT prints Turtle by default, N-Triples on request") {
  const GraphDatabase db;
  // Only the prefixes the text needs (integers are bare); serd writes a string holding '"' as a
  // long string.
  CHECK(QuarryOk(db.Args(kConstruct)) ==
        "@prefix nie: <http://tracker.api.gnome.org/ontology/v3/nie#> .\n"
        "@prefix nmm: <http://tracker.api.gnome.org/ontology/v3/nmm#> .\n\n"
        "<urn:s1>\n\tnie:title \"\"\"Alpha, \"one\\\"\"\"\" ;\n\tnmm:trackNumber 1 .\n\n"
        "<urn:s2>\n\tnie:title \"Beta\"@en .\n");
  std::vector<std::string> args = db.Args(kConstruct);
  args.insert(args.end(), {"--format", "ntriples"});
  CHECK(QuarryOk(args) ==
        "<urn:s1> <http://tracker.api.gnome.org/ontology/v3/nie#title> \"Alpha, \\\"one\\\"\" .\n"
        "<urn:s1> <http://tracker.api.gnome.org/ontology/v3/nmm#trackNumber> "
        "\"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
        "<urn:s2> <http://tracker.api.gnome.org/ontology/v3/nie#title> \"Beta\"@en .\n");
  args = db.Args(kConstruct);
  args.insert(args.end(), {"--format", "turtle"});
  CHECK(QuarryOk(args) == QuarryOk(db.Args(kConstruct)));
}

TEST_CASE("sparql DESCRIBE prints the resource's statements") {
  const GraphDatabase db;
  std::vector<std::string> args = db.Args("DESCRIBE <urn:s2>");
  args.insert(args.end(), {"--format", "ntriples"});
  CHECK(QuarryOk(args) ==
        "<urn:s2> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
        "<http://tracker.api.gnome.org/ontology/v3/nmm#MusicPiece> .\n"
        "<urn:s2> <http://tracker.api.gnome.org/ontology/v3/nie#title> \"Beta\"@en .\n");
  CHECK(QuarryOk(db.Args("DESCRIBE ?s WHERE { ?s nie:title \"Beta\"@en }")) ==
        "@prefix nie: <http://tracker.api.gnome.org/ontology/v3/nie#> .\n"
        "@prefix nmm: <http://tracker.api.gnome.org/ontology/v3/nmm#> .\n\n"
        "<urn:s2>\n\ta nmm:MusicPiece ;\n\tnie:title \"Beta\"@en .\n");
  CHECK(QuarryOk(db.Args("DESCRIBE <urn:unknown>")).empty());
}

TEST_CASE("sparql refuses a format that does not fit the query form") {
  const GraphDatabase db;
  std::vector<std::string> graph_as_json = db.Args(kConstruct);
  graph_as_json.insert(graph_as_json.end(), {"--format", "json"});
  QuarryRun run = RunQuarry(graph_as_json);
  CHECK(run.exit_code == 1);
  CHECK(run.err ==
        "quarry: query: --format json is for SELECT and ASK results; a graph query prints turtle "
        "or ntriples\n");
  std::vector<std::string> select_as_turtle = db.Args("SELECT ?s { ?s a nmm:MusicPiece }");
  select_as_turtle.insert(select_as_turtle.end(), {"--format", "turtle"});
  run = RunQuarry(select_as_turtle);
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("--format turtle is for CONSTRUCT and DESCRIBE results") != std::string::npos);
  CHECK(run.out.empty());
}

}  // namespace
}  // namespace quarry::testing
