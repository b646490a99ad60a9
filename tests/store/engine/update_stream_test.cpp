// The streaming update path (UpdateExecutor::ExecuteText, used by Store::Update): the same
// database content as the AST path (ParseUpdate + Execute), errors with line:column that roll
// back everything, blank nodes per operation, several operations in one request.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "store/engine/sql_value_io.h"
#include "store/schema/names.h"
#include "store/engine/query_executor.h"
#include "store/sparql/parser.h"
#include "store/sparql/translate/translator.h"
#include "tests/store/engine/store_test_util.h"
#include "tests/store/engine/writer_session.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

sparql::ParseOptions Options() {
  sparql::ParseOptions options;
  options.prefixes = {{"ex", "http://example.org/ex#"},
                      {"xsd", "http://www.w3.org/2001/XMLSchema#"},
                      {"rdfs", "http://www.w3.org/2000/01/rdf-schema#"}};
  return options;
}

// The old path: the whole request parsed into an AST, then executed.
void UpdateThroughAst(TestStore& store, const std::string& text) {
  WriterSession session(store);
  session.Execute(text, Options());
  session.Commit();
}

// Every stored value, type row, mirror and graph of the test ontology, with resources named by
// IRI (blank nodes by their ex:name), sorted: comparable across databases whose IDs differ.
Rows Snapshot(TestStore& store) {
  engine::Database& db = store->database();
  const auto name_of = [&](int64_t id) -> std::string {
    if (id == 0) return "default";
    auto select = db.Prepare(
        "SELECT coalesce(R.Uri, '_:' || A.\"ex:name\") FROM Resource AS R "
        "LEFT JOIN \"ex:Artist\" AS A ON A.ID = R.ID WHERE R.ID = ?1");
    REQUIRE(select.ok());
    REQUIRE(select->Bind(1, id).ok());
    REQUIRE(*select->Step());
    return std::string(select->ColumnText(0));
  };
  const schema::Names names(store->ontology());
  Rows rows;
  const auto dump = [&](const std::string& label, const schema::PropertyStorage& storage,
                        ontology::ValueType type) {
    auto select = db.Prepare(fmt::format("SELECT ID, \"{}\", \"{}\" FROM \"{}\" WHERE \"{}\" IS NOT NULL",
                                         storage.column, storage.graph_column, storage.table,
                                         storage.column));
    REQUIRE(select.ok());
    while (*select->Step()) {
      const schema::SqlValue value = engine::ReadValue(*select, 1);
      std::string shown = type == ontology::ValueType::kResource ? name_of(std::get<int64_t>(value))
                                                                 : engine::DescribeValue(value, type);
      rows.push_back(fmt::format("{} {} {} @{}", name_of(select->ColumnInt64(0)), label, shown,
                                 name_of(select->ColumnInt64(2))));
    }
  };
  dump("a", names.TypeStorage(), ontology::ValueType::kResource);
  for (const ontology::Property& property : store->ontology().properties()) {
    if (property.iri.find("example.org") == std::string::npos) continue;
    dump(property.name, names.StorageOf(property), property.type);
  }
  auto mirror = db.Prepare("SELECT ID, \"ex:title\" FROM \"ex:Song\" WHERE \"ex:title\" IS NOT NULL");
  REQUIRE(mirror.ok());
  while (*mirror->Step()) {
    rows.push_back(fmt::format("mirror {} {}", name_of(mirror->ColumnInt64(0)), mirror->ColumnText(1)));
  }
  auto graphs = db.Prepare("SELECT ID FROM Graph");
  REQUIRE(graphs.ok());
  while (*graphs->Step()) rows.push_back("graph " + name_of(graphs->ColumnInt64(0)));
  auto fts = db.Prepare("SELECT count(*) FROM fts5");
  REQUIRE(fts.ok());
  REQUIRE(*fts->Step());
  rows.push_back(fmt::format("fts rows {}", fts->ColumnInt64(0)));
  REQUIRE(db.Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());
  std::sort(rows.begin(), rows.end());
  return rows;
}

const std::string kRequest = kPrefixes + R"(
INSERT DATA {
  <urn:s1> a ex:Song ; ex:title "Zebra" ; ex:track 3 ; ex:genre "jazz", "rock" ;
           ex:performer _:a ; ex:created "2024-05-01T10:00:00+02:00"^^xsd:dateTime .
  _:a a ex:Artist ; ex:name "Nina" ; ex:member [ a ex:Artist ; ex:name "Anon" ] .
  <urn:late> ex:title "Typed later" ; ex:keyword "k1" .
  <urn:late> ex:track 9 .
  GRAPH <urn:g1> { <urn:s2> a ex:Song ; ex:title "In g1" }
  GRAPH <urn:empty> { }
  <urn:late> a ex:Song .
} ;
INSERT DATA { _:a a ex:Artist ; ex:name "Other a" . <urn:s2> ex:performer _:a } ;
DELETE DATA { <urn:s1> ex:genre "rock" . GRAPH <urn:g1> { <urn:s2> ex:title "In g1" } } ;
INSERT OR REPLACE DATA { <urn:s1> ex:title "Zebra 2" ; ex:title "Zebra 3" }
INSERT { ?s ex:keyword "tagged" } WHERE { ?s ex:track 9 } ;
DELETE DATA { GRAPH <urn:missing> { <urn:s1> ex:track 3 } }
)";

TEST_CASE("streaming and AST paths leave the same database") {
  TestStore streamed;
  streamed.Update(kRequest);
  TestStore parsed;
  UpdateThroughAst(parsed, kRequest);
  const Rows expected = Snapshot(parsed);
  CHECK(Snapshot(streamed) == expected);
  // The request did what it says (so the comparison is not of two empty stores).
  CHECK(std::count(expected.begin(), expected.end(), "urn:s1 ex:title \"Zebra 3\" @default") == 1);
  CHECK(std::count(expected.begin(), expected.end(), "mirror urn:late Typed later") == 1);
  CHECK(std::count(expected.begin(), expected.end(), "urn:s2 ex:performer _:Other a @default") == 1);
  CHECK(std::count(expected.begin(), expected.end(), "graph urn:empty") == 1);
  CHECK(std::count(expected.begin(), expected.end(), "urn:late ex:keyword \"tagged\" @default") == 1);
}

TEST_CASE("bulk path: new resources carry their domain-index mirror values (issue 2)") {
  TestStore store;
  std::string request = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 450; ++i) {  // more than one multi-row INSERT
    request += fmt::format("<urn:m{0}> a ex:Song ; ex:title \"t{0}\" ; ex:track {0} .\n", i);
  }
  request += "<urn:untitled> a ex:Song ; ex:track 1 .\n}";
  store.Update(request);
  engine::Database& db = store->database();
  const auto count = [&](const std::string& sql) {
    auto select = db.Prepare(sql);
    REQUIRE(select.ok());
    REQUIRE(*select->Step());
    return select->ColumnInt64(0);
  };
  CHECK(count("SELECT count(*) FROM \"ex:Song\" WHERE \"ex:title\" IS NOT NULL") == 450);
  CHECK(count("SELECT count(*) FROM \"ex:Song\" AS S JOIN \"ex:Element\" AS E ON E.ID = S.ID "
              "WHERE S.\"ex:title\" IS E.\"ex:title\"") == 451);
  // Later changes still reach the mirror through the triggers.
  store.Update(kPrefixes + "INSERT OR REPLACE DATA { <urn:m7> ex:title \"new\" }");
  CHECK(count("SELECT count(*) FROM \"ex:Song\" AS S JOIN Resource AS R ON R.ID = S.ID "
              "WHERE R.Uri = 'urn:m7' AND S.\"ex:title\" = 'new'") == 1);
}

TEST_CASE("streaming: an error mid-stream names line:column and rolls back the whole request") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:keep> a ex:Song }");
  const Rows before = Snapshot(store);
  std::string request = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 3000; ++i) request += "<urn:n" + std::to_string(i) + "> a ex:Song ; ex:track 1 .\n";
  request += "<urn:bad> a ex:Song ;\n  ex:track \"x\" .\n}";
  SUBCASE("a constraint error: the statement's position") {
    const std::string error = store.UpdateError(request);
    CHECK(error.find("3003:1: triple <urn:bad> <http://example.org/ex#track> \"x\"") != std::string::npos);
    CHECK(error.find("is not a valid integer") != std::string::npos);
  }
  SUBCASE("a syntax error after thousands of streamed triples") {
    request.replace(request.rfind("\"x\""), 3, "2");
    request.replace(request.rfind('}'), 1, "<urn:x> }");
    const std::string error = store.UpdateError(request);
    CHECK(error.find("3005:9: expected a predicate") != std::string::npos);
  }
  SUBCASE("a value whose subject never gets the type, held back to the end") {
    const std::string error = store.UpdateError(kPrefixes + "INSERT DATA {\n<urn:keep> ex:title \"t\" .\n"
                                                             "<urn:artist> ex:track 2 .\n<urn:artist> a ex:Artist . }");
    CHECK(error.find("4:1: subject <urn:artist>") != std::string::npos);
    CHECK(error.find("not in the domain of ex:track") != std::string::npos);
  }
  SUBCASE("a failing later operation undoes the earlier ones") {
    const std::string error = store.UpdateError(
        kPrefixes + "INSERT DATA { <urn:a> a ex:Song } ;\nDROP GRAPH <urn:none>");
    CHECK(error.find("3:1: graph <urn:none> does not exist") != std::string::npos);
  }
  CHECK(Snapshot(store) == before);
}

TEST_CASE("streaming DELETE DATA removes values, types and whole resources") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:title \"T\" ; ex:genre \"a\", \"b\" . "
                           "<urn:t> a ex:Song ; ex:title \"U\" }");
  store.Update(kPrefixes + "DELETE DATA { <urn:s> ex:genre \"a\" ; ex:title \"T\" . <urn:t> a ex:Element . "
                           "<urn:unknown> ex:title \"T\" }");
  CHECK(store.Rows(kPrefixes + "SELECT ?g { <urn:s> ex:genre ?g }") == Rows{"b"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { ?s ex:title ?t }").empty());
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song }") == Rows{"urn:s"});
  auto fts = store->database().Prepare("SELECT count(*) FROM fts5 WHERE fts5 MATCH 'u OR t'");
  REQUIRE(fts.ok());
  REQUIRE(*fts->Step());
  CHECK(fts->ColumnInt64(0) == 0);
}

TEST_CASE("streaming: blank node labels are scoped per operation, also within one request") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { _:x a ex:Artist ; ex:name \"first\" . <urn:s> a ex:Song ; ex:performer _:x } ;\n"
                           "INSERT DATA { _:x a ex:Artist ; ex:name \"second\" } ;\n"
                           "INSERT DATA { <urn:t> a ex:Song ; ex:performer _:x . _:x a ex:Artist }");
  CHECK(store.Rows(kPrefixes + "SELECT (COUNT(?a) AS ?n) { ?a a ex:Artist }") == Rows{"3"});
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:s> ex:performer ?a . ?a ex:name ?n }") == Rows{"first"});
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:t> ex:performer ?a . OPTIONAL { ?a ex:name ?n } }") ==
        Rows{"-"});
}

TEST_CASE("streaming: operations see the effects of the ones before them") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s> a ex:Song ; ex:track 1 }\n"
                           "DELETE { ?s ex:track ?n } INSERT { ?s ex:track 2 } WHERE { ?s ex:track ?n }\n"
                           "DELETE DATA { <urn:s> ex:track 2 } ;\n"
                           "INSERT DATA { <urn:s> ex:track 3 }");
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:s> ex:track ?n }") == Rows{"3"});
  // INSERT DATA after a DELETE template is still refused, as without streaming.
  CHECK(store.UpdateError(kPrefixes + "DELETE { <urn:s> ex:track 3 } INSERT DATA { <urn:s> ex:track 4 }")
            .find("INSERT DATA cannot follow DELETE") != std::string::npos);
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:s> ex:track ?n }") == Rows{"3"});
}

// UpdateExecutor::Modify runs `WHERE {}` without a query (the templates apply once, as DATA):
// each request must leave exactly the database (or the error) of the same request whose WHERE
// is a one-solution pattern that does go through translation and SQL, `{ FILTER (true) }`.
TEST_CASE("WHERE {} without a query: the same result as a translated one-solution WHERE") {
  const std::string base = kPrefixes + R"(
INSERT DATA {
  <urn:s1> a ex:Song ; ex:title "One" ; ex:track 1 ; ex:genre "jazz", "rock" ; ex:keyword "k" .
  <urn:a1> a ex:Artist ; ex:name "Ann" .
  GRAPH <urn:g1> { <urn:s2> a ex:Song ; ex:title "Two" ; ex:genre "folk" }
})";
  const std::vector<std::string> requests = {
      // The extractor's and the miner's shapes: INSERT OR REPLACE of single and multi values.
      "INSERT OR REPLACE { <urn:s1> ex:title \"New\" ; ex:track 7 ; ex:genre \"pop\" } WHERE {}",
      "INSERT OR REPLACE { <urn:new> a ex:Song ; ex:title \"Fresh\" ; ex:size 12 ; "
      "ex:created \"2024-05-01T10:00:00Z\"^^xsd:dateTime } WHERE {}",
      // rdf:type objects and predicates that change where the values go.
      "INSERT { <urn:s1> a ex:Artist ; ex:name \"Also an artist\" } WHERE {}",
      "INSERT { <urn:t> ex:title \"typed after\" ; ex:track 4 . <urn:t> a ex:Song } WHERE {}",
      "DELETE { <urn:s1> a ex:Song } WHERE {}",
      "DELETE { <urn:s1> ex:genre \"jazz\" } INSERT { <urn:s1> ex:genre \"blues\" } WHERE {}",
      "DELETE { <urn:s1> ex:title \"One\" ; ex:keyword \"k\" } WHERE {}",
      // Blank nodes: fresh per solution, one solution here.
      "INSERT { <urn:s1> ex:performer _:p . _:p a ex:Artist ; ex:name \"P\" ; ex:member [ a ex:Artist ; "
      "ex:name \"Q\" ] } WHERE {}",
      // GRAPH names and WITH.
      "INSERT { GRAPH <urn:g2> { <urn:s1> ex:genre \"pop\" . <urn:s3> a ex:Song } } WHERE {}",
      "DELETE { GRAPH <urn:g1> { <urn:s2> ex:genre \"folk\" } } WHERE {}",
      "DELETE { GRAPH <urn:nowhere> { <urn:s2> ex:genre \"folk\" } } WHERE {}",
      "WITH <urn:g1> DELETE { <urn:s2> ex:title \"Two\" } INSERT { <urn:s4> a ex:Song ; ex:title \"w\" } "
      "WHERE {}",
      // Variables in a template are unbound: their triples are skipped.
      "INSERT { ?x ex:title \"never\" . <urn:s1> ex:keyword \"kept\" . GRAPH ?g { <urn:s1> ex:genre \"x\" } } "
      "WHERE {}",
      "DELETE { ?s ex:genre ?g . <urn:s1> ex:genre \"rock\" } WHERE {}",
      // Earlier operations are seen by later ones, and the templates' writes by a later WHERE.
      "INSERT DATA { <urn:q> a ex:Song } ; INSERT OR REPLACE { <urn:q> ex:title \"q1\" } WHERE {} ; "
      "INSERT { ?s ex:keyword \"seen\" } WHERE { ?s ex:title \"q1\" }",
      "DELETE { <urn:s1> ex:track ?n } WHERE { <urn:s1> ex:track ?n } ; "
      "INSERT OR REPLACE { <urn:s1> ex:track 8 } WHERE {} ; DELETE DATA { <urn:s1> ex:track 8 } ; "
      "INSERT { <urn:s1> ex:track 9 } WHERE {}",
      // Errors: both paths refuse, and nothing of the request stays.
      "INSERT OR REPLACE { <urn:s1> ex:title \"half\" } WHERE {} ; INSERT { <urn:s1> ex:track \"x\" } WHERE {}",
      "INSERT { <urn:s1> ex:nosuch 1 } WHERE {}",
      "INSERT { <urn:s1> ex:track 1, 2 } WHERE {}",
      "INSERT { <urn:a1> ex:track 3 } WHERE {}",
  };
  for (const std::string& request : requests) {
    std::string translated = request;
    for (size_t at = 0; (at = translated.find("WHERE {}", at)) != std::string::npos;) {
      translated.replace(at, 8, "WHERE { FILTER (true) }");
    }
    REQUIRE(translated != request);
    INFO(request);
    TestStore fast;
    fast.Update(base);
    auto fast_done = fast->Update(kPrefixes + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + request);
    TestStore slow;
    slow.Update(base);
    auto slow_done = slow->Update(kPrefixes + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + translated);
    INFO((fast_done ? std::string("ok") : fast_done.error().ToString()));
    INFO((slow_done ? std::string("ok") : slow_done.error().ToString()));
    CHECK(fast_done.ok() == slow_done.ok());
    CHECK(Snapshot(fast) == Snapshot(slow));
  }
}

// A DELETE ... WHERE whose triples all have IRI subjects outside the writer's buffer of new
// resources runs after FlushPending() only (UpdateExecutor::MayTouchBuffered); each request must
// leave the database (or error) of the same request with FILTER (true) in that WHERE, which
// flushes everything first. `@F` marks where the FILTER goes.
TEST_CASE("DELETE ... WHERE beside buffered new resources: the same result as after a full flush") {
  const std::string base = kPrefixes + R"(
INSERT DATA {
  <urn:s1> a ex:Song ; ex:title "One" ; ex:track 1 ; ex:genre "jazz", "rock" ; ex:keyword "k" .
  <urn:a1> a ex:Artist ; ex:name "Ann" .
})";
  const std::vector<std::string> requests = {
      // The extractor's shape: new resources, then a failure value deleted from the file.
      "INSERT DATA { <urn:n> a ex:Song ; ex:title \"n\" ; ex:genre \"g1\", \"g2\" ; ex:performer <urn:a1> } ; "
      "DELETE { <urn:s1> ex:genre ?g } WHERE { <urn:s1> ex:genre ?g @F } ; "
      "INSERT { ?s ex:keyword \"after\" } WHERE { ?s ex:genre \"g1\" }",
      "INSERT DATA { <urn:n> a ex:Song ; ex:title \"n\" } ; "
      "DELETE { <urn:s1> ex:content ?c } WHERE { <urn:s1> ex:content ?c @F } ; "
      "INSERT OR REPLACE { <urn:s1> ex:size 5 } WHERE {}",
      // The subject is new itself: its rows are still buffered.
      "INSERT DATA { <urn:n> a ex:Song ; ex:genre \"g1\" ; ex:title \"t\" } ; "
      "DELETE { <urn:n> ex:genre ?g . <urn:n> ex:title ?t } WHERE { <urn:n> ex:genre ?g ; ex:title ?t @F }",
      // A value naming a new resource.
      "INSERT DATA { <urn:n> a ex:Artist ; ex:name \"N\" . <urn:s1> ex:performer <urn:n> } ; "
      "DELETE { <urn:s1> ex:performer ?p } WHERE { <urn:s1> ex:performer ?p @F }",
      "INSERT DATA { <urn:n> a ex:Artist ; ex:name \"N\" ; ex:member <urn:a1> } ; "
      "DELETE { <urn:a1> ex:name ?n } WHERE { <urn:a1> ex:name ?n @F } ; "
      "INSERT { ?m ex:name \"renamed\" } WHERE { <urn:n> ex:member ?m }",
      // A deleted type, and a resource the buffer refers to.
      "INSERT DATA { <urn:n> a ex:Song ; ex:performer <urn:a1> } ; "
      "DELETE { <urn:a1> a ex:Artist } WHERE { <urn:a1> ex:name ?n @F }",
      "INSERT DATA { <urn:n> a ex:Song ; ex:performer <urn:a1> } ; "
      "DELETE { <urn:a1> a rdfs:Resource } WHERE { <urn:a1> ex:name ?n @F }",
      // A buffered single value of an existing subject (FlushPending writes it).
      "INSERT OR REPLACE DATA { <urn:s1> ex:title \"T2\" . <urn:n> a ex:Song ; ex:title \"n\" } ; "
      "DELETE { <urn:s1> ex:title ?t } WHERE { <urn:s1> ex:title ?t @F }",
      // The extractor's related resources: INSERT of a ground template unless it exists.
      "INSERT DATA { <urn:n> a ex:Song } ; "
      "INSERT { <urn:r> a ex:Artist ; ex:name \"R\" } WHERE { FILTER NOT EXISTS { <urn:r> a ex:Artist } @F } ; "
      "INSERT { <urn:r> a ex:Artist ; ex:name \"R2\" } WHERE { FILTER NOT EXISTS { <urn:r> a ex:Artist } }",
      "INSERT DATA { <urn:r> a ex:Artist ; ex:name \"buffered\" } ; "
      "INSERT { <urn:r> ex:member <urn:a1> } WHERE { FILTER NOT EXISTS { <urn:r> a ex:Artist } @F }",
      "INSERT DATA { <urn:n> a ex:Song } ; "
      "INSERT { <urn:a1> ex:member [ a ex:Artist ; ex:name \"B\" ] } WHERE { FILTER EXISTS { <urn:a1> a ex:Artist } @F }",
      "INSERT DATA { <urn:n> a ex:Song ; ex:performer <urn:a1> } ; "
      "INSERT { GRAPH <urn:g> { <urn:a1> ex:name \"in g\" } } WHERE { <urn:a1> ex:name \"Ann\" @F }",
      // A subject that does not exist, and an error after the delete.
      "INSERT DATA { <urn:n> a ex:Song } ; DELETE { <urn:none> ex:title ?t } WHERE { <urn:none> ex:title ?t @F }",
      "INSERT DATA { <urn:n> a ex:Song } ; DELETE { <urn:s1> ex:track ?t } WHERE { <urn:s1> ex:track ?t @F } ; "
      "INSERT DATA { <urn:s1> ex:track \"x\" }",
  };
  const auto with = [](std::string text, const std::string& filter) {
    const size_t at = text.find("@F");
    REQUIRE(at != std::string::npos);
    return text.replace(at, 2, filter);
  };
  const std::string prologue = kPrefixes + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n";
  for (const std::string& request : requests) {
    INFO(request);
    TestStore fast;
    fast.Update(base);
    auto fast_done = fast->Update(prologue + with(request, ""));
    TestStore slow;
    slow.Update(base);
    auto slow_done = slow->Update(prologue + with(request, "FILTER (true)"));
    INFO((fast_done ? std::string("ok") : fast_done.error().ToString()));
    INFO((slow_done ? std::string("ok") : slow_done.error().ToString()));
    CHECK(fast_done.ok() == slow_done.ok());
    CHECK(Snapshot(fast) == Snapshot(slow));
  }
}

// The SQL statements of the connection whose text is `sql`.
int LiveStatements(engine::Database& db, const std::string& sql) {
  int count = 0;
  for (sqlite3_stmt* statement = sqlite3_next_stmt(db.handle(), nullptr); statement;
       statement = sqlite3_next_stmt(db.handle(), statement)) {
    if (sql == sqlite3_sql(statement)) ++count;
  }
  return count;
}

TEST_CASE("an update WHERE of a repeated shape is compiled by SQLite once") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:genre \"a\" . <urn:s2> a ex:Song ; ex:genre \"b\" }");
  const auto request = [](const std::string& iri) {
    return kPrefixes + fmt::format("DELETE {{ <{0}> ex:genre ?g }} WHERE {{ <{0}> ex:genre ?g }}", iri);
  };
  auto parsed = sparql::ParseUpdate(request("urn:s1"), Options());
  REQUIRE(parsed.ok());
  const auto& modify = std::get<sparql::Modify>(parsed->operations.at(0));
  auto query = sparql::TranslateSolutions(modify.where, {"g"}, store->ontology(), std::nullopt, false, {});
  REQUIRE(query.ok());
  CHECK(LiveStatements(store->database(), query->sql) == 0);
  store.Update(request("urn:s1"));
  CHECK(LiveStatements(store->database(), query->sql) == 1);  // kept in the statement cache
  store.Update(request("urn:s2"));                             // same SQL, other bound IRI
  CHECK(LiveStatements(store->database(), query->sql) == 1);
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?g { ?s ex:genre ?g }").empty());

  // WHERE {} runs no solution query at all; a translated one-solution WHERE does.
  auto one = sparql::TranslateSolutions({}, {}, store->ontology(), std::nullopt, false, {});
  REQUIRE(one.ok());
  store.Update(kPrefixes + "INSERT OR REPLACE { <urn:s1> ex:title \"t\" } WHERE {}");
  CHECK(LiveStatements(store->database(), one->sql) == 0);
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:s1> ex:title ?t }") == Rows{"t"});
}

}  // namespace
}  // namespace quarry::testing
