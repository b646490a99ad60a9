// Queries over the FD stream and over plain D-Bus give the rows direct access gives.
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

void Populate(Connection& bus) {
  REQUIRE(bus.Update(kEx + "INSERT DATA { <urn:typed> a ex:Song ; ex:title \"Hallo\"@de ; "
                           "ex:track 7 ; ex:rating 0.25 ; ex:favourite true ; "
                           "ex:created \"2024-01-01T08:00:00+02:00\" ; ex:performer _:who . "
                           "_:who a ex:Artist ; ex:name \"Anon\" }")
              .ok());
  Batch batch = bus.CreateBatch();
  std::string many = kEx + "INSERT DATA {";
  for (int i = 0; i < 10000; ++i) {
    many += fmt::format(" <urn:many:{}> a ex:Artist ; ex:name \"artist {}\" .", i, i);
  }
  batch.Add(many + " }");
  batch.Add(kEx + "INSERT DATA { <urn:big> a ex:Song ; ex:content \"" + std::string(100 * 1024, 'x') +
            "\" }");
  const auto done = batch.Execute();
  REQUIRE_MESSAGE(done.ok(), (done ? std::string() : done.error().ToString()));
}

TEST_CASE("Bus queries: FD stream and plain D-Bus rows equal direct access rows") {
  StoreFixture store;
  auto fd = store.Bus(QueryTransport::kFdStream);
  auto plain = store.Bus(QueryTransport::kPlainDBus);
  Populate(*fd);
  auto direct = store.Direct();
  CHECK_FALSE(direct->writable());

  const struct {
    const char* name;
    std::string sparql;
    size_t rows;
  } cases[] = {
      {"0 rows", kEx + "SELECT ?s ?n { ?s ex:name ?n FILTER(?n = \"nobody\") }", 0},
      {"1 row, every value type",
       kEx + "SELECT ?s ?t ?n ?r ?f ?c ?p ?x { ?s ex:title ?t ; ex:track ?n ; ex:rating ?r ; "
             "ex:favourite ?f ; ex:created ?c ; ex:performer ?p OPTIONAL { ?s ex:genre ?x } }",
       1},
      {"10,000 rows", kEx + "SELECT ?a ?n { ?a a ex:Artist ; ex:name ?n } ORDER BY ?a", 10001},
      {"a value over 64 KiB", kEx + "SELECT ?c { <urn:big> ex:content ?c }", 1},
  };
  for (const auto& each : cases) {
    SUBCASE(each.name) {
      const auto expected = QueryRows(*direct, each.sparql, /*typed=*/true);
      CHECK(expected.size() == each.rows);
      CHECK(QueryRows(*fd, each.sparql, true) == expected);
      const auto expected_text = QueryRows(*direct, each.sparql, /*typed=*/false);
      CHECK(QueryRows(*plain, each.sparql, false) == expected_text);
    }
  }
}

TEST_CASE("Bus queries: the FD stream keeps variable names, kinds and language tags") {
  StoreFixture store;
  auto bus = store.Bus();
  Populate(*bus);
  auto cursor = bus->Query(kEx + "SELECT ?t ?p ?x { <urn:typed> ex:title ?t ; ex:performer ?p "
                                 "OPTIONAL { <urn:typed> ex:genre ?x } }");
  REQUIRE(cursor.ok());
  CHECK(cursor->ColumnCount() == 3);
  CHECK(cursor->VariableName(0) == "t");
  CHECK(cursor->VariableName(2) == "x");
  REQUIRE(*cursor->Next());
  CHECK(cursor->Kind(0) == ValueKind::kLangString);
  CHECK(cursor->GetString(0) == "Hallo");
  CHECK(cursor->GetLanguage(0) == "de");
  CHECK(cursor->Kind(1) == ValueKind::kBlankNode);
  CHECK_FALSE(cursor->IsBound(2));
  CHECK_FALSE(*cursor->Next());
}

TEST_CASE("Bus queries: a default connection streams typed, named rows of every size") {
  StoreFixture store;
  auto connection = Connection::Bus(store.bus.options());  // no transport set: kAuto
  REQUIRE(connection.ok());
  Populate(**connection);
  auto direct = store.Direct();
  for (const std::string& sparql :
       {kEx + "SELECT ?t { <urn:typed> ex:title ?t }",
        kEx + "SELECT ?a ?n { ?a a ex:Artist ; ex:name ?n } ORDER BY ?a"}) {
    CHECK(QueryRows(**connection, sparql, /*typed=*/true) == QueryRows(*direct, sparql, true));
  }
  auto cursor = (*connection)->Query(kEx + "SELECT ?t { <urn:typed> ex:title ?t }");
  REQUIRE(cursor.ok());
  CHECK(cursor->VariableName(0) == "t");
}

TEST_CASE("Bus queries: a cursor still streaming survives the connection's next calls") {
  // Over 1 MiB (the pipe): the store is still writing the first query when the second and an
  // update go out on the same connection; the first cursor's rows wait in memory meanwhile.
  StoreFixture store;
  auto bus = store.Bus();
  Populate(*bus);
  const std::string all = kEx + "SELECT ?a ?n ?pad { ?a a ex:Artist ; ex:name ?n "
                                "BIND(CONCAT(?n, \"" + std::string(200, 'p') + "\") AS ?pad) } "
                                "ORDER BY ?a";
  auto expected = QueryRows(*store.Direct(), all, /*typed=*/true);
  REQUIRE(expected.size() == 10001);
  auto streaming = bus->Query(all);
  REQUIRE(streaming.ok());
  REQUIRE(*streaming->Next());
  const std::string first = fmt::format("{}:{}@", static_cast<int>(streaming->Kind(1)),
                                        streaming->GetString(1));
  CHECK(QueryRows(*bus, kEx + "SELECT ?t { <urn:typed> ex:title ?t }", false).size() == 1);
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:late> a ex:Artist ; ex:name \"late\" }").ok());
  auto rest = ReadRows(*streaming, /*typed=*/true);
  CHECK(first == expected.front()[1]);
  REQUIRE(rest.size() == expected.size() - 1);
  CHECK(rest.back() == expected.back());
  CHECK(rest.front() == expected[1]);

  // A connection closed with a cursor still streaming leaves the cursor whole.
  std::optional<Cursor> orphan;
  {
    auto short_lived = store.Bus();
    auto cursor = short_lived->Query(all);
    REQUIRE(cursor.ok());
    orphan.emplace(std::move(*cursor));
  }
  CHECK(ReadRows(*orphan, true).size() == expected.size() + 1);  // with <urn:late>
  // A cursor dropped halfway costs the store only that call.
  {
    auto dropped = bus->Query(all);
    REQUIRE(dropped.ok());
    REQUIRE(*dropped->Next());
  }
  CHECK(QueryRows(*bus, kEx + "SELECT ?t { <urn:typed> ex:title ?t }", false).size() == 1);
}

// The pipes this process holds open ("pipe:[inode]" in /proc/self/fd).
std::set<std::string> OpenPipes() {
  std::set<std::string> pipes;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    const std::string target = std::filesystem::read_symlink(entry.path(), error).string();
    if (!error && target.starts_with("pipe:")) pipes.insert(target);
  }
  return pipes;
}

TEST_CASE("Bus queries: one pipe carries stream after stream, a cut or failed one is replaced") {
  StoreFixture store;
  auto bus = store.Bus(QueryTransport::kFdStream);
  Populate(*bus);
  auto direct = store.Direct();
  const std::string one = kEx + "SELECT ?t { <urn:typed> ex:title ?t }";
  const std::string all = kEx + "SELECT ?a ?n { ?a a ex:Artist ; ex:name ?n } ORDER BY ?a";
  const auto expected_one = QueryRows(*direct, one, true);
  const auto expected_all = QueryRows(*direct, all, true);
  REQUIRE(expected_all.size() == 10001);

  const std::set<std::string> before = OpenPipes();
  CHECK(QueryRows(*bus, one, true) == expected_one);
  const std::set<std::string> kept = OpenPipes();
  CHECK(kept.size() == before.size() + 1);  // kept (both ends) for the next query
  // Small and large results, one after the other, through the same pipe.
  CHECK(QueryRows(*bus, all, true) == expected_all);
  CHECK(QueryRows(*bus, one, true) == expected_one);
  CHECK(OpenPipes() == kept);

  // A cursor dropped halfway closes its pipe (the store stops writing); the next query gets a
  // new pipe and none of the old stream's bytes.
  {
    auto dropped = bus->Query(all);
    REQUIRE(dropped.ok());
    REQUIRE(*dropped->Next());
  }
  CHECK(QueryRows(*bus, one, true) == expected_one);
  const std::set<std::string> replaced = OpenPipes();
  CHECK(replaced.size() == kept.size());
  CHECK(replaced != kept);
  // A failed query (the store replies with an error) does not hand its pipe on either.
  auto failed = bus->Query(kEx + "SELECT ?x WHERE { ?x ex:title");
  CHECK_FALSE(failed.ok());
  CHECK(QueryRows(*bus, all, true) == expected_all);
  CHECK(QueryRows(*bus, one, true) == expected_one);
  CHECK(OpenPipes().size() == kept.size());
}

TEST_CASE("Bus statements: ~parameters are sent as SPARQL terms") {
  StoreFixture store;
  auto bus = store.Bus();
  Populate(*bus);
  auto statement = bus->Prepare(kEx + "SELECT ?n { ~artist ex:name ?n }");
  REQUIRE(statement.ok());
  statement->BindIri("artist", "urn:many:42");
  auto cursor = statement->Execute();
  REQUIRE(cursor.ok());
  REQUIRE(*cursor->Next());
  CHECK(cursor->GetString(0) == "artist 42");
  auto by_name = bus->Prepare(kEx + "SELECT ?a { ?a ex:name ~name }");
  REQUIRE(by_name.ok());
  by_name->BindString("name", "artist \"7\"");  // quotes survive the trip as text
  auto none = by_name->Execute();
  REQUIRE(none.ok());
  CHECK_FALSE(*none->Next());
}

}  // namespace
}  // namespace quarry::testing
