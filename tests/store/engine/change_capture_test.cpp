// Change capture (issue 4): what a committed transaction reports to the change sink — triples
// of nrl:notify classes as resource IDs, deletes with their objects, net effects, writeback.
#include "store/engine/change_capture.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "tests/store/engine/store_test_util.h"

namespace quarry::engine {
// Printed by doctest when a comparison fails.
inline std::ostream& operator<<(std::ostream& out, const ChangedQuad& quad) {
  return out << "(" << quad.graph << " " << quad.subject << " " << quad.predicate << " "
             << quad.object << ")";
}
}  // namespace quarry::engine

namespace quarry::testing {
namespace {

using engine::ChangedQuad;
using engine::CommittedChanges;
using Quads = std::vector<ChangedQuad>;

// A writeback property and a multi-valued link between elements, beside the test ontology.
const std::string kSignalsOntology = kTestPrefixes + R"(
ex:comment a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:string ;
  nrl:maxCardinality 1 ; nrl:writeback true .
ex:partOf a rdf:Property ; rdfs:domain ex:Element ; rdfs:range ex:Element .
)";
const std::string kSong = "http://example.org/ex#Song";

class CaptureStore {
 public:
  CaptureStore() {
    store_.dir().Write("ontology/30-signals.ontology", kSignalsOntology);
    store_.Reopen();
    Listen();
  }
  void Listen() {
    const auto set = store_->SetChangeSink(
        [this](CommittedChanges&& changes) { reports_.push_back(std::move(changes)); });
    REQUIRE_MESSAGE(set.ok(), (set ? std::string() : set.error().ToString()));
  }
  // The Resource ID of an IRI (prefixed names with ex: or rdf:).
  int64_t Id(const std::string& name) {
    std::string iri = name;
    if (name.rfind("ex:", 0) == 0) iri = "http://example.org/ex#" + name.substr(3);
    if (name.rfind("rdf:", 0) == 0) iri = "http://www.w3.org/1999/02/22-rdf-syntax-ns#" + name.substr(4);
    if (name.rfind("rdfs:", 0) == 0) iri = "http://www.w3.org/2000/01/rdf-schema#" + name.substr(5);
    auto select = store_->database().Prepare("SELECT ID FROM Resource WHERE Uri = ?1");
    REQUIRE(select.ok());
    REQUIRE(select->Bind(1, std::string_view(iri)).ok());
    auto found = select->Step();
    REQUIRE_MESSAGE((found.ok() && *found), iri);
    return select->ColumnInt64(0);
  }
  // The rdf:type quads of a new ex:Song (the class and its superclasses).
  Quads SongTypes(int64_t subject, int64_t graph = 0) {
    Quads quads;
    for (const char* cls : {"ex:Song", "ex:Media", "ex:Element", "rdfs:Resource"}) {
      quads.push_back({graph, subject, Id("rdf:type"), Id(cls)});
    }
    return quads;
  }
  TestStore& store() { return store_; }
  std::vector<CommittedChanges>& reports() { return reports_; }

 private:
  TestStore store_;
  std::vector<CommittedChanges> reports_;
};

Quads Sorted(Quads quads) {
  std::sort(quads.begin(), quads.end(), [](const ChangedQuad& a, const ChangedQuad& b) {
    return std::tie(a.graph, a.subject, a.predicate, a.object) <
           std::tie(b.graph, b.subject, b.predicate, b.object);
  });
  return quads;
}

Quads Concat(Quads first, const Quads& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

TEST_CASE("ChangeCapture: an insert reports the subject's triples under its notify class") {
  CaptureStore capture;
  capture.store().Update(kPrefixes + R"(INSERT DATA {
    <urn:art> a ex:Artist ; ex:name "Band" .
    <urn:s1> a ex:Song ; ex:title "One" ; ex:performer <urn:art> ; ex:genre "rock" .
  })");
  REQUIRE(capture.reports().size() == 1);
  const CommittedChanges& changes = capture.reports().front();
  REQUIRE(changes.classes.size() == 1);  // ex:Artist has no nrl:notify
  CHECK(changes.classes[0].class_iri == kSong);
  CHECK(changes.classes[0].deletes.empty());
  const int64_t s1 = capture.Id("urn:s1");
  const Quads expected = Concat(capture.SongTypes(s1),
                                {{0, s1, capture.Id("ex:title"), 0},
                                 {0, s1, capture.Id("ex:performer"), capture.Id("urn:art")},
                                 {0, s1, capture.Id("ex:genre"), 0}});
  CHECK(Sorted(changes.classes[0].inserts) == Sorted(expected));
  CHECK(changes.writeback.empty());
}

TEST_CASE("ChangeCapture: INSERT OR REPLACE and a rename report the old value and the new") {
  CaptureStore capture;
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title \"Old\" ; ex:size 1 }");
  const int64_t s1 = capture.Id("urn:s1");
  SUBCASE("INSERT OR REPLACE") {
    capture.store().Update(kPrefixes + "INSERT OR REPLACE { <urn:s1> ex:size 2 } WHERE {}");
    REQUIRE(capture.reports().size() == 2);
    const auto& song = capture.reports().back().classes.at(0);
    CHECK(song.deletes == Quads{{0, s1, capture.Id("ex:size"), 0}});
    CHECK(song.inserts == Quads{{0, s1, capture.Id("ex:size"), 0}});
  }
  SUBCASE("DELETE/INSERT in one request") {
    capture.store().Update(kPrefixes +
                           "DELETE { <urn:s1> ex:title ?t } INSERT { <urn:s1> ex:title \"New\" } "
                           "WHERE { <urn:s1> ex:title ?t }");
    REQUIRE(capture.reports().size() == 2);
    const auto& song = capture.reports().back().classes.at(0);
    CHECK(song.deletes == Quads{{0, s1, capture.Id("ex:title"), 0}});
    CHECK(song.inserts == Quads{{0, s1, capture.Id("ex:title"), 0}});
  }
  SUBCASE("the same value again changes nothing") {
    capture.store().Update(kPrefixes + "INSERT OR REPLACE { <urn:s1> ex:size 1 } WHERE {}");
    CHECK(capture.reports().size() == 1);
  }
}

TEST_CASE("ChangeCapture: deleting a resource wholesale carries its objects' IDs") {
  CaptureStore capture;
  capture.store().Update(kPrefixes + R"(INSERT DATA {
    <urn:folder> a ex:Song . <urn:art> a ex:Artist .
    <urn:a> a ex:Song ; ex:title "A" ; ex:partOf <urn:folder> ; ex:performer <urn:art> .
  })");
  capture.store().Update("DELETE DATA { <urn:a> a <http://www.w3.org/2000/01/rdf-schema#Resource> }");
  REQUIRE(capture.reports().size() == 2);
  const CommittedChanges& changes = capture.reports().back();
  REQUIRE(changes.classes.size() == 1);
  const int64_t a = capture.Id("urn:a");
  const Quads expected = Concat(capture.SongTypes(a),
                                {{0, a, capture.Id("ex:title"), 0},
                                 {0, a, capture.Id("ex:partOf"), capture.Id("urn:folder")},
                                 {0, a, capture.Id("ex:performer"), capture.Id("urn:art")}});
  CHECK(Sorted(changes.classes[0].deletes) == Sorted(expected));
  CHECK(changes.classes[0].inserts.empty());
}

TEST_CASE("ChangeCapture: named graphs carry their ID") {
  CaptureStore capture;
  capture.store().Update(kPrefixes + "INSERT DATA { GRAPH <urn:g> { <urn:s1> a ex:Song ; ex:title \"T\" } }");
  REQUIRE(capture.reports().size() == 1);
  const int64_t g = capture.Id("urn:g");
  const int64_t s1 = capture.Id("urn:s1");
  CHECK(Sorted(capture.reports()[0].classes.at(0).inserts) ==
        Sorted(Concat(capture.SongTypes(s1, g), {{g, s1, capture.Id("ex:title"), 0}})));
}

TEST_CASE("ChangeCapture: net effect of one transaction, nothing for a rolled back one") {
  CaptureStore capture;
  SUBCASE("inserted then deleted in one batch") {
    const std::vector<std::string> batch{
        kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title \"Gone\" ; ex:track 4 }",
        kPrefixes + "DELETE DATA { <urn:s1> ex:title \"Gone\" }"};
    REQUIRE(capture.store()->UpdateBatch(batch).ok());
    REQUIRE(capture.reports().size() == 1);
    const int64_t s1 = capture.Id("urn:s1");
    CHECK(Sorted(capture.reports()[0].classes.at(0).inserts) ==
          Sorted(Concat(capture.SongTypes(s1), {{0, s1, capture.Id("ex:track"), 0}})));
    CHECK(capture.reports()[0].classes.at(0).deletes.empty());
  }
  SUBCASE("only the triples a delete touched are netted, the rest are reported once each") {
    // Issue 7: rows no delete shares skip the netting map. Here a new song's triples (plain
    // inserts) sit beside a title removed and restored, a genre added and removed, and a title
    // replaced, all in one transaction.
    capture.store().Update(kPrefixes + "INSERT DATA { <urn:old> a ex:Song ; ex:title \"Kept\" . "
                                       "<urn:re> a ex:Song ; ex:title \"Before\" }");
    const std::vector<std::string> batch{
        kPrefixes + "INSERT DATA { <urn:new> a ex:Song ; ex:title \"New\" ; ex:genre \"a\", \"b\" }",
        kPrefixes + "DELETE DATA { <urn:old> ex:title \"Kept\" }",
        kPrefixes + "INSERT DATA { <urn:old> ex:title \"Kept\" ; ex:genre \"brief\" }",
        kPrefixes + "DELETE DATA { <urn:old> ex:genre \"brief\" }",
        kPrefixes + "INSERT OR REPLACE { <urn:re> ex:title \"After\" } WHERE { }"};
    REQUIRE(capture.store()->UpdateBatch(batch).ok());
    REQUIRE(capture.reports().size() == 2);
    const auto& set = capture.reports()[1].classes.at(0);
    const int64_t fresh = capture.Id("urn:new"), old = capture.Id("urn:old"), re = capture.Id("urn:re");
    const int64_t title = capture.Id("ex:title"), genre = capture.Id("ex:genre");
    CHECK(Sorted(set.inserts) ==
          Sorted(Concat(capture.SongTypes(fresh), {{0, fresh, title, 0}, {0, fresh, genre, 0},
                                                   {0, fresh, genre, 0}, {0, old, title, 0},
                                                   {0, re, title, 0}})));
    CHECK(Sorted(set.deletes) == Sorted({{0, old, title, 0}, {0, re, title, 0}}));
  }
  SUBCASE("a failed update reports nothing, the next one only its own changes") {
    capture.store().Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title \"T\" }");
    const std::vector<std::string> failing{
        kPrefixes + "INSERT DATA { <urn:s2> a ex:Song }",
        kPrefixes + "INSERT DATA { <urn:s1> ex:title \"Second\" }"};  // single-valued: refused
    CHECK_FALSE(capture.store()->UpdateBatch(failing).ok());
    CHECK(capture.reports().size() == 1);
    capture.store().Update(kPrefixes + "INSERT DATA { <urn:s3> a ex:Song }");
    REQUIRE(capture.reports().size() == 2);
    CHECK(Sorted(capture.reports()[1].classes.at(0).inserts) ==
          Sorted(capture.SongTypes(capture.Id("urn:s3"))));
  }
  SUBCASE("a LOAD SILENT that fails halfway leaves no rows behind") {
    const auto half = capture.store().dir().Write(
        "half.ttl", "@prefix ex: <http://example.org/ex#> .\n"
                    "<urn:h1> a ex:Song ; ex:title \"Half\" .\n<urn:h2> ex:nope 1 .\n");
    capture.store().Update(kPrefixes + "INSERT DATA { <urn:s4> a ex:Song }; LOAD SILENT <file://" +
                           half.string() + ">");
    REQUIRE(capture.reports().size() == 1);
    CHECK(Sorted(capture.reports()[0].classes.at(0).inserts) ==
          Sorted(capture.SongTypes(capture.Id("urn:s4"))));
  }
}

// Issue 7: the rows live encoded (~8 bytes each here) in chunks of 256 KiB that Collect() hands
// back as it goes; a transaction of several chunks, with a savepoint rolled back across a chunk
// boundary to the middle of a chunk, must report exactly its rows.
TEST_CASE("ChangeCapture: a transaction of several row chunks, rolled back across one, reports its rows") {
  CaptureStore capture;
  const auto songs = [](int first, int count) {
    std::string text;
    for (int i = first; i < first + count; ++i) {
      text += fmt::format("<urn:c{0}> a ex:Song ; ex:title \"Title {0}\" .\n", i);
    }
    return text;
  };
  // 9,000 songs of 5 rows each: the LOAD crosses the first chunk boundary and is undone.
  const auto half = capture.store().dir().Write(
      "half.ttl", "@prefix ex: <http://example.org/ex#> .\n" + songs(100000, 9000) +
                      "<urn:h2> ex:nope 1 .\n");
  const size_t mapped = engine::ChangeCapture::RowChunksMapped();
  capture.store().Update(kPrefixes + "INSERT DATA {\n" + songs(0, 8000) + "}; LOAD SILENT <file://" +
                         half.string() + ">; INSERT DATA {\n" + songs(8000, 12000) + "}");
  CHECK(engine::ChangeCapture::RowChunksMapped() - mapped >= 3);
  REQUIRE(capture.reports().size() == 1);
  REQUIRE(capture.reports()[0].classes.size() == 1);
  const engine::ClassChangeSet& set = capture.reports()[0].classes[0];
  CHECK(set.deletes.empty());
  Quads expected;
  const int64_t title = capture.Id("ex:title");
  const Quads types = capture.SongTypes(0);
  for (int i = 0; i < 20000; ++i) {
    const int64_t song = capture.Id(fmt::format("urn:c{}", i));
    for (ChangedQuad type : types) {
      type.subject = ChangedQuad::WireId(song);
      expected.push_back(type);
    }
    expected.push_back({0, song, title, 0});
  }
  CHECK(set.inserts.size() == expected.size());
  CHECK(Sorted(set.inserts) == Sorted(expected));
  // In the order the rows changed: the songs of the first request before those of the last.
  const int64_t last_of_first = capture.Id("urn:c7999");
  const int64_t first_of_last_request = capture.Id("urn:c8000");
  const auto first_of_last = std::find_if(set.inserts.begin(), set.inserts.end(), [&](const ChangedQuad& quad) {
    return quad.subject == first_of_last_request;
  });
  REQUIRE(first_of_last != set.inserts.end());
  CHECK(std::none_of(first_of_last, set.inserts.end(),
                     [&](const ChangedQuad& quad) { return quad.subject == last_of_first; }));
}

// A writer's small transactions reuse one row chunk (the spare) instead of mapping and
// unmapping 1 MiB each; what they report is unchanged.
TEST_CASE("ChangeCapture: small transactions reuse one row chunk and report their own rows") {
  CaptureStore capture;
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:warm> a ex:Song }");
  const size_t mapped = engine::ChangeCapture::RowChunksMapped();
  constexpr int kTransactions = 30;
  for (int i = 0; i < kTransactions; ++i) {
    capture.store().Update(kPrefixes + fmt::format("INSERT DATA {{ <urn:small{}> a ex:Song }}", i));
  }
  // A rolled back one (an unknown property) drops its rows and keeps the chunk too.
  CHECK_FALSE(capture.store()->Update(kPrefixes + "INSERT DATA { <urn:bad> a ex:Song ; ex:nope 1 }").ok());
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:after> a ex:Song }");
  CHECK(engine::ChangeCapture::RowChunksMapped() - mapped == 0);
  REQUIRE(capture.reports().size() == kTransactions + 2);
  for (int i = 0; i < kTransactions; ++i) {
    const CommittedChanges& report = capture.reports()[static_cast<size_t>(i) + 1];
    REQUIRE(report.classes.size() == 1);
    CHECK(Sorted(report.classes[0].inserts) ==
          Sorted(capture.SongTypes(capture.Id(fmt::format("urn:small{}", i)))));
  }
  const CommittedChanges& last = capture.reports().back();
  REQUIRE(last.classes.size() == 1);
  CHECK(Sorted(last.classes[0].inserts) == Sorted(capture.SongTypes(capture.Id("urn:after"))));
}

TEST_CASE("ChangeCapture: writeback names the changed nrl:writeback properties per subject") {
  CaptureStore capture;
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:comment \"c\" ; ex:title \"t\" }");
  REQUIRE(capture.reports().size() == 1);
  const std::map<int64_t, std::vector<int64_t>> expected{
      {capture.Id("urn:s1"), {capture.Id("ex:comment")}}};
  CHECK(capture.reports()[0].writeback == expected);
  // Not a notify class, still written back.
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:e1> a ex:Element ; ex:comment \"d\" }");
  REQUIRE(capture.reports().size() == 2);
  CHECK(capture.reports()[1].classes.empty());
  CHECK(capture.reports()[1].writeback.count(capture.Id("urn:e1")) == 1);
}

// Issue 7: a ChangedQuad holds what GraphUpdated sends, four int32; an ID past INT32_MAX is
// its low 32 bits (two's complement), as the signal's narrowing always sent it.
TEST_CASE("ChangedQuad: packed to the signal's four int32, wide IDs wrap as the signal's") {
  static_assert(sizeof(ChangedQuad) == 16);
  constexpr int64_t kPast31 = (int64_t{1} << 31) + 10;
  constexpr int64_t kPast32 = (int64_t{1} << 32) + 5;
  const ChangedQuad quad(0, kPast31, kPast32, 7);
  CHECK(quad.graph == 0);
  CHECK(quad.subject == std::numeric_limits<int32_t>::min() + 10);
  CHECK(quad.predicate == 5);
  CHECK(quad.object == 7);
  CHECK(ChangedQuad(0, 1, 2, 3) == ChangedQuad(0, 1, 2, 3));
  CHECK_FALSE(ChangedQuad(0, 1, 2, 3) == ChangedQuad(4, 1, 2, 3));
  CHECK(ChangedQuad::WireId(std::numeric_limits<int64_t>::max()) == -1);
}

// The row log stores IDs as differences (subject from the row before's, object from the
// subject): IDs far apart and past 2^31 and 2^32 come back whole (writeback) and as the
// signal's int32 (class sets); a delete and an insert of one such triple net as ever.
TEST_CASE("ChangeCapture: IDs past 2^31 and 2^32 are reported exactly, inserts and deletes net") {
  CaptureStore capture;
  const auto add_resource = [&](int64_t id, const std::string& iri) {
    auto insert = capture.store()->database().Prepare("INSERT INTO Resource (ID, Uri) VALUES (?1, ?2)");
    REQUIRE(insert.ok());
    REQUIRE(insert->Bind(1, id).ok());
    REQUIRE(insert->Bind(2, std::string_view(iri)).ok());
    REQUIRE(insert->Step().ok());
  };
  constexpr int64_t kMid = (int64_t{1} << 31) + 10;
  constexpr int64_t kHigh = (int64_t{1} << 32) + 5;
  add_resource(kMid, "urn:mid");
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:mid> a ex:Song ; ex:comment \"c\" }");
  REQUIRE(capture.reports().size() == 1);
  CHECK(capture.reports()[0].writeback.count(kMid) == 1);
  const int64_t song_type = capture.Id("ex:Song"), rdf_type = capture.Id("rdf:type");
  const ChangedQuad mid_song(0, kMid, rdf_type, song_type);
  CHECK(mid_song.subject == std::numeric_limits<int32_t>::min() + 10);
  const auto& mid_inserts = capture.reports()[0].classes.at(0).inserts;
  CHECK(std::count(mid_inserts.begin(), mid_inserts.end(), mid_song) == 1);

  add_resource(kHigh, "urn:high");
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:high> a ex:Song ; ex:partOf <urn:mid> ; "
                                     "ex:comment \"h\" }");
  REQUIRE(capture.reports().size() == 2);
  const int64_t part_of = capture.Id("ex:partOf");
  const auto& high = capture.reports()[1];
  CHECK(high.writeback.count(kHigh) == 1);
  const Quads high_link{{0, 5, static_cast<int32_t>(part_of), std::numeric_limits<int32_t>::min() + 10}};
  CHECK(std::count(high.classes.at(0).inserts.begin(), high.classes.at(0).inserts.end(),
                   high_link[0]) == 1);
  CHECK(high.classes.at(0).deletes.empty());

  // Removed and restored in one transaction: reported both ways; added and removed: not at all.
  const std::vector<std::string> batch{
      kPrefixes + "DELETE DATA { <urn:high> ex:partOf <urn:mid> }",
      kPrefixes + "INSERT DATA { <urn:high> ex:partOf <urn:mid>, <urn:high> }",
      kPrefixes + "DELETE DATA { <urn:high> ex:partOf <urn:high> }"};
  REQUIRE(capture.store()->UpdateBatch(batch).ok());
  REQUIRE(capture.reports().size() == 3);
  const auto& netted = capture.reports()[2].classes.at(0);
  CHECK(netted.deletes == high_link);
  CHECK(netted.inserts == high_link);
}

TEST_CASE("ChangeCapture: without a sink nothing is reported, read-only stores refuse one") {
  CaptureStore capture;
  REQUIRE(capture.store()->SetChangeSink(nullptr).ok());
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song }");
  CHECK(capture.reports().empty());
  capture.Listen();
  capture.store().Update(kPrefixes + "INSERT DATA { <urn:s2> a ex:Song }");
  CHECK(capture.reports().size() == 1);

  auto reader = engine::Store::Open({capture.store().dir().path() / "db",
                                     capture.store().dir().path() / "ontology", true});
  REQUIRE(reader.ok());
  CHECK_FALSE((*reader)->SetChangeSink([](CommittedChanges&&) {}).ok());
}

}  // namespace
}  // namespace quarry::testing
