// `quarry sparql`, `import`, `export` and `ontology` on a temporary database with the real
// ontology: exact output of every result format, updates, and the import/export round trip.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/cli/run_quarry.h"

namespace quarry::testing {
namespace {

const std::string kInsert = R"(INSERT DATA {
  <urn:s1> a nmm:MusicPiece ; nie:title "Alpha, \"one\"" ; nmm:trackNumber 1 .
  <urn:s2> a nmm:MusicPiece ; nie:title "Beta\ttab" ;
           nie:contentCreated "2024-05-01T10:00:00+02:00"^^xsd:dateTime .
})";
const std::string kSelect =
    "SELECT ?s ?title ?n ?c WHERE { ?s a nmm:MusicPiece ; nie:title ?title "
    "OPTIONAL { ?s nmm:trackNumber ?n } OPTIONAL { ?s nie:contentCreated ?c } } ORDER BY ?s";

class SampleDatabase {
 public:
  SampleDatabase() { QuarryOk({"sparql", "--database", database(), "--update", kInsert}); }
  std::string database() const { return (dir_ / "db").string(); }
  std::string Query(const std::string& format, const std::string& query = kSelect) const {
    return QuarryOk({"sparql", "--database", database(), "--format", format, "--query", query});
  }
  const TempDir& dir() const { return dir_; }

 private:
  TempDir dir_;
};

TEST_CASE("sparql: every result format, exactly") {
  const SampleDatabase db;
  SUBCASE("table") {
    CHECK(db.Query("table") ==
          "s      | title        | n | c\n"
          "-------+--------------+---+--------------------------\n"
          "urn:s1 | Alpha, \"one\" | 1 |\n"
          "urn:s2 | Beta\\ttab    |   | 2024-05-01T10:00:00+02:00\n"
          "2 rows\n");
  }
  SUBCASE("json") {
    CHECK(db.Query("json") == R"({
  "head": {"vars": ["s", "title", "n", "c"]},
  "results": {"bindings": [
    {"s": {"type": "uri", "value": "urn:s1"}, "title": {"type": "literal", "value": "Alpha, \"one\""}, "n": {"type": "literal", "value": "1", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}},
    {"s": {"type": "uri", "value": "urn:s2"}, "title": {"type": "literal", "value": "Beta\ttab"}, "c": {"type": "literal", "value": "2024-05-01T10:00:00+02:00", "datatype": "http://www.w3.org/2001/XMLSchema#dateTime"}}
  ]}
}
)");
  }
  SUBCASE("xml") {
    CHECK(db.Query("xml") == R"(<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
  <head>
    <variable name="s"/>
    <variable name="title"/>
    <variable name="n"/>
    <variable name="c"/>
  </head>
  <results>
    <result>
      <binding name="s"><uri>urn:s1</uri></binding>
      <binding name="title"><literal>Alpha, &quot;one&quot;</literal></binding>
      <binding name="n"><literal datatype="http://www.w3.org/2001/XMLSchema#integer">1</literal></binding>
    </result>
    <result>
      <binding name="s"><uri>urn:s2</uri></binding>
      <binding name="title"><literal>Beta	tab</literal></binding>
      <binding name="c"><literal datatype="http://www.w3.org/2001/XMLSchema#dateTime">2024-05-01T10:00:00+02:00</literal></binding>
    </result>
  </results>
</sparql>
)");
  }
  SUBCASE("csv") {
    CHECK(db.Query("csv") ==
          "s,title,n,c\r\n"
          "urn:s1,\"Alpha, \"\"one\"\"\",1,\r\n"
          "urn:s2,Beta\ttab,,2024-05-01T10:00:00+02:00\r\n");
  }
  SUBCASE("tsv") {
    CHECK(db.Query("tsv") ==
          "?s\t?title\t?n\t?c\n"
          "<urn:s1>\t\"Alpha, \\\"one\\\"\"\t1\t\n"
          "<urn:s2>\t\"Beta\\ttab\"\t\t\"2024-05-01T10:00:00+02:00\"^^"
          "<http://www.w3.org/2001/XMLSchema#dateTime>\n");
  }
  SUBCASE("no rows") {
    CHECK(db.Query("table", "SELECT ?s WHERE { ?s a nmm:Artist }") == "s\n-\n0 rows\n");
    CHECK(db.Query("json", "SELECT ?s WHERE { ?s a nmm:Artist }") ==
          "{\n  \"head\": {\"vars\": [\"s\"]},\n  \"results\": {\"bindings\": []}\n}\n");
  }
}

TEST_CASE("sparql: language tags and blank nodes in every format") {
  const TempDir dir;
  const std::string db = (dir / "db").string();
  QuarryOk({"sparql", "--database", db, "--update",
            "INSERT DATA { <urn:s> a nmm:MusicPiece ; nie:title \"Liebe\"@de ; nmm:artist _:a . "
            "_:a a nmm:Artist }"});
  const auto query = [&](const std::string& format) {
    return QuarryOk({"sparql", "--database", db, "--format", format, "--query",
                     "SELECT ?t ?a WHERE { <urn:s> nie:title ?t ; nmm:artist ?a }"});
  };
  // Blank node labels are _:b<resource ID>, which depends on the ontology's size.
  CHECK(query("table").find("\nLiebe@de | _:b") != std::string::npos);
  const std::string json = query("json");
  CHECK(json.find(R"({"t": {"type": "literal", "value": "Liebe", "xml:lang": "de"}, )"
                  R"("a": {"type": "bnode", "value": "b)") != std::string::npos);
  CHECK(query("xml").find("<binding name=\"t\"><literal xml:lang=\"de\">Liebe</literal></binding>\n"
                          "      <binding name=\"a\"><bnode>b") != std::string::npos);
  CHECK(query("csv").find("\r\nLiebe,_:b") != std::string::npos);
  CHECK(query("tsv").find("\n\"Liebe\"@de\t_:b") != std::string::npos);
}

TEST_CASE("sparql: ASK answers in every format") {
  const SampleDatabase db;
  const std::string yes = "ASK { <urn:s1> a nmm:MusicPiece }";
  const std::string no = "ASK { <urn:s1> a nmm:Artist }";
  CHECK(db.Query("table", yes) == "true\n");
  CHECK(db.Query("table", no) == "false\n");
  CHECK(db.Query("json", yes) == "{\n  \"head\": {},\n  \"boolean\": true\n}\n");
  CHECK(db.Query("xml", no) ==
        "<?xml version=\"1.0\"?>\n"
        "<sparql xmlns=\"http://www.w3.org/2005/sparql-results#\">\n"
        "  <head/>\n  <boolean>false</boolean>\n</sparql>\n");
  CHECK(db.Query("csv", yes) == "true\r\n");
  CHECK(db.Query("tsv", no) == "false\n");
}

TEST_CASE("sparql: an update is visible to the next query, parameters, explain") {
  const SampleDatabase db;
  QuarryOk({"sparql", "--database", db.database(), "--update",
            "DELETE DATA { <urn:s1> nmm:trackNumber 1 } ; "
            "INSERT DATA { <urn:s1> nmm:trackNumber 9 }"});
  CHECK(db.Query("csv", "SELECT ?n WHERE { <urn:s1> nmm:trackNumber ?n }") == "n\r\n9\r\n");
  CHECK(QuarryOk({"sparql", "--database", db.database(), "--format", "csv", "--query",
                  "SELECT ?t WHERE { ?s nie:title ?t FILTER (?s = ~s) }", "--param",
                  "s=<urn:s2>"}) == "t\r\nBeta\ttab\r\n");
  const std::string plan = QuarryOk({"sparql", "--database", db.database(), "--explain", "--query",
                                     "SELECT ?t WHERE { ?s nie:title ?t }"});
  CHECK(plan.rfind("SQL:\n", 0) == 0);
  CHECK(plan.find("Plan:\n") != std::string::npos);
}

TEST_CASE("sparql --update-file runs the whole file in one transaction") {
  const SampleDatabase db;
  const auto good =
      db.dir().Write("good.ru",
                     "INSERT DATA { <urn:s3> a nmm:MusicPiece ; nie:title \"Gamma\" } ;\n"
                     "INSERT DATA { <urn:s4> a nmm:MusicPiece ; nie:title \"Delta\" }\n");
  QuarryOk({"sparql", "--database", db.database(), "--update-file", good.string()});
  const auto bad =
      db.dir().Write("bad.ru",
                     "INSERT DATA { <urn:s5> a nmm:MusicPiece ; nie:title \"Eps\" } ;\n"
                     "INSERT DATA { <urn:s5> nmm:noSuchProperty 1 }\n");
  const QuarryRun run =
      RunQuarry({"sparql", "--database", db.database(), "--update-file", bad.string()});
  CHECK(run.exit_code == 1);
  CHECK(run.err.rfind("quarry: update: ", 0) == 0);
  CHECK(run.err.find("noSuchProperty") != std::string::npos);
  CHECK(db.Query("csv", "SELECT ?t WHERE { ?s a nmm:MusicPiece ; nie:title ?t } ORDER BY ?t") ==
        "t\r\n\"Alpha, \"\"one\"\"\"\r\nBeta\ttab\r\nDelta\r\nGamma\r\n");
}

TEST_CASE("import then export: the sample data round-trips") {
  const TempDir dir;
  const std::string first = (dir / "first").string();
  const std::string imported = QuarryOk({"import", "--database", first, QUARRY_SAMPLE_TTL});
  CHECK(imported.rfind(std::string(QUARRY_SAMPLE_TTL) + ": 123 triples imported in ", 0) == 0);
  const std::string exported = QuarryOk({"export", "--database", first});
  CHECK(exported.find("<urn:sample:song:joga>\n\ta nmm:MusicPiece ;\n\tnie:title \"Jóga\" ;") !=
        std::string::npos);
  const auto file = dir.Write("export.ttl", exported);
  const std::string second = (dir / "second").string();
  QuarryOk({"import", "--database", second, file.string()});
  CHECK(QuarryOk({"export", "--database", second}) == exported);

  // Into a named graph, and out again as TriG.
  const std::string third = (dir / "third").string();
  QuarryOk({"import", "--database", third, "--graph", "urn:graph:copy", file.string()});
  const std::string trig = QuarryOk({"export", "--database", third, "--format", "trig"});
  CHECK(trig.find("<urn:graph:copy> {") != std::string::npos);
  const QuarryRun turtle = RunQuarry({"export", "--database", third});
  CHECK(turtle.exit_code == 0);
  CHECK(turtle.out == exported.substr(0, exported.find("\n\n") + 1));  // only the prefixes
  CHECK(turtle.err ==
        "quarry: export: note: 1 named graph(s) not included; use --format trig or --graph\n");
  CHECK(QuarryOk({"export", "--database", third, "--graph", "urn:graph:copy"}) == exported);
}

TEST_CASE("ontology lists classes, properties and SQL indexes") {
  const TempDir dir;
  const std::string text = QuarryOk({"ontology", "--database", (dir / "db").string()});
  CHECK(text.rfind("Classes (", 0) == 0);
  CHECK(text.find("\nProperties (") != std::string::npos);
  CHECK(text.find("\nSQL indexes (") != std::string::npos);
  CHECK(text.find("nmm:MusicPiece_nie:title") != std::string::npos);
  CHECK(text.find("domain index") != std::string::npos);
  CHECK(text.find("nrl:indexed") != std::string::npos);
}

TEST_CASE("extract: the config's text_allowlist decides whose text is shown, --all-text lifts it") {
  TempDir dir;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string notes = write("NOTES.TXT", "the quokka notes\n");
  const std::string tool = write("tool.py", "print('quokka')\n");
  const std::string none = write("empty.toml", "");
  const std::string python = write("python.toml", "[extract]\ntext_allowlist = [\"*.py\"]\n");
  const auto extract = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "extract");
    return QuarryOk(args);
  };
  // The default list (a config without [extract]): a .txt in any case, not source code.
  CHECK(extract({"--config", none, notes}).find("plainTextContent") != std::string::npos);
  const std::string code = extract({"--config", none, tool});
  CHECK(code.find("plainTextContent") == std::string::npos);
  CHECK(code.find("SourceCode") != std::string::npos);  // its class is still there
  CHECK(extract({"--config", none, "--all-text", tool}).find("plainTextContent") !=
        std::string::npos);
  CHECK(extract({"--config", python, tool}).find("plainTextContent") != std::string::npos);
  CHECK(extract({"--config", python, notes}).find("plainTextContent") == std::string::npos);
  const QuarryRun bad = RunQuarry({"extract", "--config", write("bad.toml", "[extract\n"), tool});
  CHECK(bad.exit_code != 0);
  CHECK(bad.err.find("bad.toml") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
