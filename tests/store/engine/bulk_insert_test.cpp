// The bulk insert path's shortcuts (issue 2, import rate): the flat sets behind the
// TripleWriter's per-transaction caches, Resource rows inserted before any look-up (an existing
// IRI must still resolve to its own ID), and full text of resources created in bulk.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <optional>
#include <random>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <sqlite3.h>

#include "store/engine/flat_set.h"
#include "store/engine/triple_writer.h"
#include "store/engine/triple_writer_ids.h"
#include "tests/store/engine/store_test_util.h"
#include "tests/store/engine/writer_session.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

// Every key lands in the same slot: probe runs wrap around the table and erase must shift.
struct CollidingHash {
  size_t operator()(int64_t) const { return 13; }
};

template <typename Hash>
void CheckAgainstStd(uint32_t seed, int64_t key_range) {
  engine::FlatSet<int64_t, Hash> flat;
  std::unordered_set<int64_t> reference;
  std::mt19937 random(seed);
  std::uniform_int_distribution<int64_t> key(1, key_range);
  for (int step = 0; step < 20000; ++step) {
    const int64_t k = key(random);
    switch (random() % 4) {
      case 0:
      case 1:
        REQUIRE(flat.insert(k) == reference.insert(k).second);
        break;
      case 2:
        REQUIRE(flat.erase(k) == reference.erase(k));
        break;
      default:
        REQUIRE(flat.count(k) == reference.count(k));
    }
    REQUIRE(flat.size() == reference.size());
  }
  for (int64_t k = 1; k <= key_range; ++k) REQUIRE(flat.count(k) == reference.count(k));
  flat.clear();
  CHECK(flat.empty());
  CHECK(flat.count(1) == 0);
  CHECK(flat.insert(1));
  CHECK(flat.count(1) == 1);
}

TEST_CASE("FlatSet: same answers as std::unordered_set through inserts, erases and clears") {
  SUBCASE("mixed hash, growing to thousands of keys") { CheckAgainstStd<engine::IdHash>(7, 5000); }
  SUBCASE("every key colliding, runs wrapping around the table") { CheckAgainstStd<CollidingHash>(11, 40); }
  SUBCASE("pair keys") {
    struct PairHash {
      size_t operator()(const std::pair<int64_t, const void*>& key) const {
        return engine::MixBits(static_cast<uint64_t>(key.first) ^ reinterpret_cast<uintptr_t>(key.second));
      }
    };
    engine::FlatSet<std::pair<int64_t, const void*>, PairHash> set;
    const int a = 0, b = 0;
    CHECK(set.insert({1, &a}));
    CHECK_FALSE(set.insert({1, &a}));
    CHECK(set.insert({1, &b}));
    CHECK(set.count({1, &b}) == 1);
    CHECK(set.erase({1, &a}) == 1);
    CHECK(set.count({1, &a}) == 0);
    CHECK(set.count({1, &b}) == 1);
  }
}

// Every IRI hashes alike: probe runs wrap around the table and every look-up compares bytes.
struct SameHash {
  size_t operator()(std::string_view) const { return 5; }
};

template <typename Hash>
void CheckIdMapAgainstStd(uint32_t seed, int key_range) {
  engine::IriIdMap<Hash> map;
  std::unordered_map<std::string, int64_t> reference;
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> key(1, key_range);
  for (int step = 0; step < 5000; ++step) {
    // Prefixes of one another and long IRIs (no small-string storage) alike.
    const std::string iri = fmt::format("urn:x:{}{}", key(random), std::string(random() % 40, 'p'));
    if (random() % 2) {
      const int64_t id = step + 1;
      map.emplace(iri, id);
      reference.emplace(iri, id);  // an IRI present keeps its first ID in both
    }
    const auto found = reference.find(iri);
    const std::optional<int64_t> expected =
        found == reference.end() ? std::nullopt : std::optional<int64_t>(found->second);
    REQUIRE(map.find(iri) == expected);
    REQUIRE(map.size() == reference.size());
  }
  for (const auto& [iri, id] : reference) REQUIRE(map.find(iri) == std::optional<int64_t>(id));
  CHECK(!map.find("urn:x:").has_value());
  map.clear();
  CHECK(map.empty());
  CHECK(!map.find(reference.begin()->first).has_value());
  map.emplace("urn:again", 7);
  CHECK(map.find("urn:again") == std::optional<int64_t>(7));
}

TEST_CASE("IriIdMap: same answers as std::unordered_map, through growth, collisions and clear") {
  CheckIdMapAgainstStd<std::hash<std::string_view>>(1, 3000);
  CheckIdMapAgainstStd<std::hash<std::string_view>>(2, 50);
  CheckIdMapAgainstStd<SameHash>(3, 200);
}

TEST_CASE("IriIdMap: past its bound it starts over, every kept IRI keeps its own ID") {
  // Bounded by entries, then by text: the size never passes the bound, an IRI found always
  // has the ID it was added with, and the last IRI added is always found.
  for (const auto& [max_entries, max_text] : {std::pair<size_t, size_t>{100, 1 << 20},
                                             std::pair<size_t, size_t>{1 << 20, 2000}}) {
    engine::IriIdMap<> map(max_entries, max_text);
    std::unordered_map<std::string, int64_t> added;
    size_t peak_memory = 0;
    bool started_over = false;
    for (int64_t id = 1; id <= 5000; ++id) {
      const std::string iri = fmt::format("urn:bound:{}", id % 700);  // some added twice
      const size_t before = map.size();
      map.emplace(iri, id);
      added.emplace(iri, id);  // the first ID, as the map keeps it
      started_over = started_over || map.size() < before;
      REQUIRE(map.size() <= max_entries);
      REQUIRE(map.find(iri).has_value());
      peak_memory = std::max(peak_memory, map.MemoryBytes());
    }
    CHECK(started_over);
    size_t found = 0;
    for (const auto& [iri, id] : added) {
      const std::optional<int64_t> in_map = map.find(iri);
      if (!in_map) continue;
      ++found;
      // Started over: an IRI added again after the reset holds its later ID.
      CHECK(*in_map % 700 == id % 700);
    }
    CHECK(found == map.size());
    // Its memory stays that of the bound: under half of an unbounded map's with the 700 IRIs.
    engine::IriIdMap<> unbounded;
    for (int64_t id = 0; id < 700; ++id) unbounded.emplace(fmt::format("urn:bound:{}", id), id);
    CHECK(peak_memory < unbounded.MemoryBytes() / 2);
  }
  // An IRI longer than the text bound is not kept; the others are.
  engine::IriIdMap<> map(10, 16);
  map.emplace(std::string(17, 'x'), 1);
  CHECK(map.empty());
  map.emplace("urn:short", 2);
  CHECK(map.find("urn:short") == std::optional<int64_t>(2));
}

TEST_CASE("ResourceMarks: same flags as a std::unordered_map through growth, removals and clear") {
  engine::ResourceMarks marks;
  std::unordered_map<int64_t, uint8_t> reference;
  std::mt19937 random(7);
  std::uniform_int_distribution<int64_t> id(1, 3000);  // grows to 8,192 slots
  const auto of = [&](int64_t key) {
    const auto found = reference.find(key);
    return found == reference.end() ? uint8_t{0} : found->second;
  };
  for (int step = 0; step < 30000; ++step) {
    const int64_t key = id(random);
    const auto mark = static_cast<uint8_t>(1u << (random() % 4));
    switch (random() % 5) {
      case 0:
      case 1:
        marks.Add(key, mark);
        reference[key] |= mark;
        break;
      case 2:
        marks.Remove(key, mark);
        if (reference.count(key)) reference[key] &= static_cast<uint8_t>(~mark);
        break;
      case 3:
        if (step % 1000 == 3) {  // RollbackTo's: one flag off every resource
          marks.RemoveAll(mark);
          for (auto& [k, flags] : reference) flags &= static_cast<uint8_t>(~mark);
        }
        break;
      default:
        REQUIRE(marks.Of(key) == of(key));
    }
  }
  for (int64_t key = 1; key <= 3000; ++key) REQUIRE(marks.Of(key) == of(key));
  CHECK(marks.size() == reference.size());  // removed flags leave the resource in the table
  CHECK(marks.Count(2) == static_cast<size_t>(std::count_if(
                              reference.begin(), reference.end(),
                              [](const auto& entry) { return (entry.second & 2) != 0; })));
  CHECK(marks.MemoryBytes() == 8192 * (sizeof(int64_t) + 1));
  marks.clear();
  CHECK(marks.MemoryBytes() == 0);  // a large table is released
  CHECK(marks.Of(5) == 0);
  engine::FlatSet<int64_t, engine::IdHash> set;  // the same for FlatSet::clear
  for (int64_t key = 0; key < 3000; ++key) set.insert(key);
  CHECK(set.MemoryBytes() == 8192 * (sizeof(int64_t) + 1));
  set.clear();
  CHECK(set.MemoryBytes() == 0);
  marks.Add(5, 4);
  CHECK(marks.Has(5, 4));
  CHECK_FALSE(marks.Has(5, 1));
}

TEST_CASE("bulk path: a batch save's resources share one table of flags, freed at Finish (issue 7)") {
  // created / flushed / full-text touched were three sets of every new resource, 9 bytes a
  // slot each at load <= 1/2 (a 12,800-contact save: 7 MiB of quarry-store's peak); one now.
  TestStore store;
  WriterSession session(store);
  std::string text = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 3000; ++i) {
    text += fmt::format("<urn:m{0}> a ex:Song ; ex:title \"title {0}\" .\n", i);
  }
  session.Execute(text + "}");
  REQUIRE(session.writer().Flush().ok());  // every song created, flushed and touched
  // 3,000 resources at load <= 1/2: 8,192 slots of an ID and a flag byte.
  CHECK(session.writer().resource_marks_bytes() == 8192 * (sizeof(int64_t) + 1));
  REQUIRE(session.writer().Finish().ok());
  CHECK(session.writer().resource_marks_bytes() == 0);
  session.Commit();
  CHECK(store.Rows(kPrefixes + "SELECT count(?s) { ?s a ex:Song }") == Rows{"3000"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s { ?s ex:title \"title 2999\" }") == Rows{"urn:m2999"});
}

const std::string kFirst = kPrefixes + R"(INSERT DATA {
  <urn:old-song> a ex:Song ; ex:track 1 .
  <urn:old-artist> a ex:Artist ; ex:name "Old Artist" .
})";
// A new IRI first (the last inserted row ID is then not the old resource's), then old ones as
// subject and as object, then new ones again.
const std::string kSecond = kPrefixes + R"(INSERT DATA {
  <urn:new-song> a ex:Song ; ex:title "Brand new" ; ex:performer <urn:old-artist> .
  <urn:old-song> ex:title "Old, titled now" ; ex:performer <urn:new-artist> .
  <urn:new-artist> a ex:Artist ; ex:name "New Artist" ; ex:member <urn:old-artist> .
})";
const std::string kRead = kPrefixes + R"(SELECT ?s ?title ?performer ?name {
  ?s a ex:Song . OPTIONAL { ?s ex:title ?title } OPTIONAL { ?s ex:performer ?performer .
  ?performer ex:name ?name } } ORDER BY ?s)";

Rows ReadAll(TestStore& store) {
  Rows rows = store.Rows(kRead);
  for (const std::string& row : store.Rows(kPrefixes + "SELECT ?a ?m { ?a ex:member ?m } ORDER BY ?a")) {
    rows.push_back("member " + row);
  }
  // One Resource row per IRI: an existing IRI was not inserted a second time.
  auto count = store->database().Prepare("SELECT count(*) FROM Resource WHERE Uri LIKE 'urn:%'");
  REQUIRE(count.ok());
  REQUIRE(*count->Step());
  rows.push_back(fmt::format("resources {}", count->ColumnInt64(0)));
  return rows;
}

TEST_CASE("bulk path: a batch mixing new and existing resources keeps each IRI's own ID") {
  // `cached`: one writer for both updates, the old IRIs come from its cache. `reopened`: a new
  // writer, the old IRIs are found in the database after the insert attempt.
  TestStore cached;
  cached.Update(kFirst);
  cached.Update(kSecond);
  TestStore reopened;
  reopened.Update(kFirst);
  reopened.Reopen();
  reopened.Update(kSecond);
  const Rows expected{
      "urn:new-song|Brand new|urn:old-artist|Old Artist",
      "urn:old-song|Old, titled now|urn:new-artist|New Artist",
      "member urn:new-artist|urn:old-artist",
      "resources 4",
  };
  CHECK(ReadAll(cached) == expected);
  CHECK(ReadAll(reopened) == expected);
  // The mirror of the domain index follows the title given to the old song.
  CHECK(reopened.Rows(kPrefixes + "SELECT ?s { ?s a ex:Song ; ex:title \"Old, titled now\" }") ==
        Rows{"urn:old-song"});
}

TEST_CASE("bulk path: full-text search finds text of resources created in bulk") {
  TestStore store;
  std::string request = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 700; ++i) {  // several multi-row INSERTs
    request += fmt::format("<urn:b{0}> a ex:Song ; ex:title \"bulk{0} Déjà\" ; ex:keyword \"kw{0}\" .\n", i);
  }
  request += "<urn:singer> a ex:Artist ; ex:name \"Zanzibar Choir\" .\n}";
  store.Update(request);
  const auto search = [&](const std::string& words) {
    return store.Rows("PREFIX fts: <http://tracker.api.gnome.org/ontology/v3/fts#>\n"
                      "SELECT ?r { ?r fts:match \"" + words + "\" } ORDER BY ?r");
  };
  CHECK(search("bulk0") == Rows{"urn:b0"});
  CHECK(search("bulk699") == Rows{"urn:b699"});
  CHECK(search("kw350") == Rows{"urn:b350"});  // a multi-valued full-text property
  CHECK(search("zanzibar") == Rows{"urn:singer"});
  CHECK(search("deja").size() == 700);
  auto check = store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')");
  CHECK(check.ok());
  // Text changed in a later transaction: the old row is deleted with the values read back from
  // the tables, which must be the text the row was indexed with.
  store.Update(kPrefixes + "DELETE { <urn:b5> ex:title ?t ; ex:keyword ?k }\n"
               "INSERT { <urn:b5> ex:title \"renamed\" } WHERE { <urn:b5> ex:title ?t ; ex:keyword ?k }");
  CHECK(search("bulk5").empty());
  CHECK(search("kw5").empty());
  CHECK(search("renamed") == Rows{"urn:b5"});
  CHECK(search("deja").size() == 699);
  CHECK(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());
}

int64_t CountSql(TestStore& store, const std::string& sql) {
  auto select = store->database().Prepare(sql);
  INFO(sql);
  REQUIRE(select.ok());
  REQUIRE(*select->Step());
  return select->ColumnInt64(0);
}

// Issue 7: values of multi-valued properties of new resources wait with the resources' class
// rows and go in with multi-row INSERTs at the flush; the rows, duplicates, full text and the
// order of effects must be those of one INSERT per value.
TEST_CASE("bulk path: multi-valued values of new resources are written with their rows") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:old> a ex:Artist, ex:Song ; ex:name \"Old\" }");
  std::string request = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 450; ++i) {  // 900 members: several multi-row INSERTs
    request += fmt::format(
        "<urn:a{0}> a ex:Artist ; ex:member <urn:a{1}>, <urn:old> ; ex:member <urn:old> .\n"
        "<urn:s{0}> a ex:Song ; ex:keyword \"kw{0}\", \"shared\" ; ex:genre \"g{2}\" .\n",
        i, (i + 1) % 450, i % 3);
  }
  // An existing resource's values in the same request take the row-by-row path.
  request += "<urn:old> ex:member <urn:a7> ; ex:keyword \"oldkw\" .\n}";
  store.Update(request);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Artist_ex:member\"") == 901);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Element_ex:keyword\"") == 901);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song_ex:genre\"") == 450);
  CHECK(store.Rows(kPrefixes + "SELECT ?m { <urn:a449> ex:member ?m } ORDER BY ?m") ==
        Rows{"urn:a0", "urn:old"});
  CHECK(store.Rows(kPrefixes + "SELECT ?k { <urn:s3> ex:keyword ?k } ORDER BY ?k") ==
        Rows{"kw3", "shared"});
  const auto search = [&](const std::string& words) {
    return store.Rows("PREFIX fts: <http://tracker.api.gnome.org/ontology/v3/fts#>\n"
                      "SELECT ?r { ?r fts:match \"" + words + "\" } ORDER BY ?r");
  };
  CHECK(search("kw449") == Rows{"urn:s449"});
  CHECK(search("oldkw") == Rows{"urn:old"});
  CHECK(search("shared").size() == 450);
  CHECK(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());

  SUBCASE("a delete later in the request sees the held values") {
    store.Update(kPrefixes + "INSERT DATA { <urn:n> a ex:Artist ; ex:member <urn:old>, <urn:a1> } ;\n"
                 "DELETE DATA { <urn:n> ex:member <urn:old> }");
    CHECK(store.Rows(kPrefixes + "SELECT ?m { <urn:n> ex:member ?m }") == Rows{"urn:a1"});
  }
  SUBCASE("a failed request leaves none of its held values behind") {
    store.UpdateError(kPrefixes + "INSERT DATA { <urn:f> a ex:Artist ; ex:member <urn:old> .\n"
                      "<urn:f2> a ex:Song ; ex:track \"not a number\" }");
    store.Update(kPrefixes + "INSERT DATA { <urn:g> a ex:Artist ; ex:member <urn:a2> }");
    CHECK(store.Rows(kPrefixes + "SELECT ?s ?m { ?s ex:member ?m FILTER(?s IN (<urn:f>, <urn:g>)) }") ==
          Rows{"urn:g|urn:a2"});
    CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Artist_ex:member\"") == 902);
  }
}

// Issue 7: resources in the fresh buffer are not listed in the writer's (resource, class) set,
// and their full-text rows take their class signature from the buffer. A resource written by
// one flush and typed again later in the same transaction must get only its missing class rows
// (the others exist: a second INSERT would break their primary key), and its full-text row must
// hold the new class's text too.
TEST_CASE("bulk path: a resource flushed and typed again in one transaction") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:old> a ex:Artist ; ex:name \"Old\" }");
  // DELETE DATA makes the writer flush its buffer first.
  store.Update(kPrefixes +
               "INSERT DATA { <urn:t1> a ex:Song ; ex:title \"firstword\" ; ex:keyword \"kwa\" .\n"
               "              <urn:t2> a ex:Song, ex:Artist ; ex:title \"keepword\" ; ex:name \"dropword\" } ;\n"
               "DELETE DATA { <urn:t1> ex:keyword \"kwa\" } ;\n"
               "INSERT DATA { <urn:t1> a ex:Song, ex:Artist ; ex:name \"secondword\" ;\n"
               "                 ex:member <urn:old> ; ex:track 7 } ;\n"
               "DELETE DATA { <urn:t2> a ex:Artist }");
  CHECK(store.Rows(kPrefixes + "SELECT ?t ?n ?m ?k { <urn:t1> a ex:Song, ex:Artist ; ex:title ?t ;"
                               " ex:name ?n ; ex:member ?m ; ex:track ?k }") ==
        Rows{"firstword|secondword|urn:old|7"});
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\"") == 2);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Artist\"") == 2);  // urn:old, urn:t1
  const auto search = [&](const std::string& words) {
    return store.Rows("PREFIX fts: <http://tracker.api.gnome.org/ontology/v3/fts#>\n"
                      "SELECT ?r { ?r fts:match \"" + words + "\" } ORDER BY ?r");
  };
  CHECK(search("firstword") == Rows{"urn:t1"});
  CHECK(search("secondword") == Rows{"urn:t1"});  // the class typed after the flush
  CHECK(search("kwa").empty());
  CHECK(search("keepword") == Rows{"urn:t2"});
  CHECK(search("dropword").empty());  // its class was removed after the flush
  CHECK(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());

  SUBCASE("a multi-valued full-text value twice, in two graphs, is indexed twice") {
    // Two rows of ex:keyword: the index holds the word twice, as the content view reads it.
    store.Update(kPrefixes + "INSERT DATA { GRAPH <urn:g1> { <urn:m> a ex:Song ; ex:keyword \"dup\" }\n"
                             "              GRAPH <urn:g2> { <urn:m> ex:keyword \"dup\" } }");
    CHECK(search("dup") == Rows{"urn:m"});
    CHECK(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());
    store.Update(kPrefixes + "DELETE DATA { GRAPH <urn:g2> { <urn:m> ex:keyword \"dup\" } }");
    CHECK(search("dup") == Rows{"urn:m"});
    CHECK(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());
  }
}

// Issue 7: a transaction of many requests (a streamed batch save) must not keep every new
// resource buffered until COMMIT; after an operation the buffer is written once it holds 4,096.
TEST_CASE("bulk path: an operation that leaves thousands of new resources buffered writes them") {
  TestStore store;
  WriterSession session(store);
  const auto insert_songs = [&](int first, int count) {
    std::string text = kPrefixes + "INSERT DATA {\n";
    for (int i = first; i < first + count; ++i) {
      text += fmt::format("<urn:b{0}> a ex:Song ; ex:title \"title {0}\" .\n", i);
    }
    session.Execute(text + "}");
  };
  // Read through the writing connection: rows the transaction has written so far.
  const auto songs = [&] { return CountSql(store, "SELECT count(*) FROM \"ex:Song\""); };
  insert_songs(0, 100);
  CHECK(songs() == 0);  // a few: kept for the next operations
  insert_songs(100, 4000);
  CHECK(songs() == 4100);
  insert_songs(4100, 10);
  CHECK(songs() == 4100);
  session.Commit();
  CHECK(songs() == 4110);
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:b4099> ex:title ?t }") == Rows{"title 4099"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:b4109> ex:title ?t }") == Rows{"title 4109"});
}

// The bulk path's multi-row INSERTs are kept per shape (class, columns, row count) up to
// kMaxBulkStatements, the least recently used finalized: many shapes write every row still.
TEST_CASE("bulk path: past its bound of prepared shapes the writer finalizes old ones and writes every row") {
  TestStore store;
  WriterSession session(store);
  constexpr size_t kBound = 16;  // fewer than the shapes below (the default is more)
  session.writer().set_bulk_statement_bounds(kBound, engine::TripleWriter::kMaxBulkStatementBytes);
  session.Execute(kPrefixes + "INSERT DATA { <urn:artist> a ex:Artist }");
  // 3 column sets of ex:Song rows (the columns written so far) x 4 row counts (1, 2, 4, 8), and
  // the rows of its superclasses and types: more than 16 shapes.
  const std::vector<std::string> columns = {"ex:title \"t{0}\"", "ex:track {0}",
                                            "ex:performer <urn:artist>"};
  int song = 0;
  size_t peak = 0;
  for (int set = 1; set < 8; ++set) {
    for (int count = 1; count <= 15; ++count) {
      std::string text = kPrefixes + "INSERT DATA {\n";
      for (int i = 0; i < count; ++i, ++song) {
        text += fmt::format("<urn:s{}> a ex:Song", song);
        for (size_t c = 0; c < columns.size(); ++c) {
          if (set & (1 << c)) text += " ; " + fmt::format(fmt::runtime(columns[c]), song);
        }
        text += " .\n";
      }
      session.Execute(text + "}");
      // Writes the buffered rows: one statement of this shape.
      REQUIRE(session.writer().Finish().ok());
      peak = std::max(peak, session.writer().bulk_statement_count());
    }
  }
  session.Commit();
  CHECK(peak == kBound);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\"") == song);
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:s0> ex:title ?t }") == Rows{"t0"});
  CHECK(store.Rows(kPrefixes + "SELECT count(?t) { ?s ex:track ?t }") == Rows{"480"});
  CHECK(store.Rows(kPrefixes + "SELECT count(?s) { ?s ex:performer <urn:artist> }") == Rows{"480"});
}

// The same on the text path of a streamed batch (Store::UpdateStream, ExecuteText): the rows of
// the first requests are in the tables while the later ones are still being produced.
TEST_CASE("bulk path: a streamed batch writes its new resources before COMMIT once thousands wait") {
  TestStore store;
  const auto songs = [&] { return CountSql(store, "SELECT count(*) FROM \"ex:Song\""); };
  const std::vector<std::pair<int, int>> requests = {{0, 100}, {100, 4000}, {4100, 10}};
  std::vector<int64_t> seen;  // songs in the tables as each request is asked for
  std::string text;
  size_t next = 0;
  auto done = store->UpdateStream([&]() -> Result<std::optional<std::string_view>> {
    seen.push_back(songs());
    if (next == requests.size()) return std::optional<std::string_view>();
    const auto [first, count] = requests[next++];
    text = kPrefixes + "INSERT DATA {\n";
    for (int i = first; i < first + count; ++i) {
      text += fmt::format("<urn:b{0}> a ex:Song ; ex:title \"title {0}\" .\n", i);
    }
    text += "}";
    return std::optional<std::string_view>(text);
  });
  INFO((done ? std::string() : done.error().ToString()));
  REQUIRE(done.ok());
  CHECK(seen == std::vector<int64_t>{0, 0, 4100, 4100});
  CHECK(songs() == 4110);
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:b4099> ex:title ?t }") == Rows{"title 4099"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:b4109> ex:title ?t }") == Rows{"title 4109"});
}

// Issue 7: a flush's last multi-row INSERT of a class is not compiled once per remainder size
// (a new prepare of up to 200 rows at almost every flush of a streamed batch save): remainders
// are written as powers of two. 60 transactions of 17..76 new songs each used 60 statement
// sizes before; 16, 32, 64 and 1..15 at most in s23, 1, 2, 4, ..., 64 since s24 (issue 5).
TEST_CASE("bulk path: flushes of many sizes write every row with a bounded set of statements") {
  TestStore store;
  int64_t written = 0;
  for (int size = 17; size <= 76; ++size) {
    std::string request = kPrefixes + "INSERT DATA {\n";
    for (int i = 0; i < size; ++i) {
      request += fmt::format(
          "<urn:f{0}-{1}> a ex:Song ; ex:title \"t{0}-{1}\" ; ex:keyword \"k{1}\" .\n", size, i);
    }
    store.Update(request + "}");
    written += size;
  }
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\"") == written);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Element_ex:keyword\"") == written);
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:f76-75> ex:title ?t }") == Rows{"t76-75"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:f47-46> ex:title ?t }") == Rows{"t47-46"});
  // The class table's multi-row INSERTs the connection holds prepared.
  std::set<std::string> song_inserts;
  sqlite3* db = store->database().handle();
  for (sqlite3_stmt* statement = sqlite3_next_stmt(db, nullptr); statement;
       statement = sqlite3_next_stmt(db, statement)) {
    const std::string sql = sqlite3_sql(statement);
    if (sql.rfind("INSERT INTO \"ex:Song\" (", 0) == 0) song_inserts.insert(sql);
  }
  CHECK(!song_inserts.empty());
  CHECK(song_inserts.size() <= 7);
}

// Issue 7: the prepared multi-row INSERTs are bounded by the SQLite heap they hold too, not
// only by their count (a 200-row INSERT of a wide class holds ~280 KiB).
TEST_CASE("bulk path: the prepared shapes stay within their byte bound and write every row") {
  TestStore store;
  WriterSession session(store);
  constexpr size_t kBytes = 48 << 10;
  session.writer().set_bulk_statement_bounds(1000, kBytes);
  int song = 0;
  size_t peak_count = 0;
  for (int count = 1; count <= 40; ++count) {
    std::string text = kPrefixes + "INSERT DATA {\n";
    for (int i = 0; i < count; ++i, ++song) {
      text += fmt::format("<urn:s{0}> a ex:Song ; ex:title \"t{0}\" ; ex:track {0} .\n", song);
    }
    session.Execute(text + "}");
    REQUIRE(session.writer().Finish().ok());
    CHECK(session.writer().bulk_statement_bytes() <= kBytes);
    peak_count = std::max(peak_count, session.writer().bulk_statement_count());
  }
  CHECK(peak_count > 1);
  CHECK(peak_count < 40);  // the byte bound finalized some
  session.Commit();
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\"") == song);
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:s819> ex:title ?t }") == Rows{"t819"});
}

// Issue 7: a batch save's later request states a resource an earlier flush wrote again (a
// contact's tag): its value goes to the written row, and the buffer of the request's other new
// resources stays (writing it there made ~40 small flushes of a 3,200-contact save).
TEST_CASE("bulk path: a value of a flushed resource typed again leaves the other new resources buffered") {
  TestStore store;
  {
    WriterSession session(store);
    session.Execute(kPrefixes + "INSERT DATA { <urn:tag> a ex:Artist ; ex:name \"Tag\" }");
    REQUIRE(session.writer().Flush().ok());
    session.Execute(kPrefixes +
                    "INSERT DATA { <urn:new> a ex:Song ; ex:title \"new\" .\n"
                    "              <urn:tag> a ex:Artist ; ex:name \"Tag\" }");
    const auto id = session.writer().FindId("urn:new");
    REQUIRE(id.ok());
    REQUIRE(id->has_value());
    CHECK(session.writer().Buffered(**id));
    session.Commit();
  }
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:tag> ex:name ?n }") == Rows{"Tag"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:new> ex:title ?t }") == Rows{"new"});
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Artist\"") == 1);
  // A different value is a second value still (DELETE DATA flushes the buffer first).
  const std::string error = store.UpdateError(
      kPrefixes +
      "INSERT DATA { <urn:a> a ex:Artist ; ex:name \"A\" } ;\n"
      "DELETE DATA { <urn:none> ex:name \"x\" } ;\n"
      "INSERT DATA { <urn:b> a ex:Song ; ex:title \"b\" . <urn:a> a ex:Artist ; ex:name \"B\" }");
  CHECK(error.find("ex:name") != std::string::npos);
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:a> ex:name ?n }").empty());
}

// The class table's multi-row INSERTs the connection holds prepared.
std::set<std::string> PreparedInserts(TestStore& store, std::string_view table) {
  std::set<std::string> inserts;
  const std::string prefix = fmt::format("INSERT INTO \"{}\" (", table);
  sqlite3* db = store->database().handle();
  for (sqlite3_stmt* statement = sqlite3_next_stmt(db, nullptr); statement;
       statement = sqlite3_next_stmt(db, statement)) {
    const std::string sql = sqlite3_sql(statement);
    if (sql.starts_with(prefix)) inserts.insert(sql);
  }
  return inserts;
}

// Issue 5: every flush size from 1 to 300 rows, each written by statements of 9 sizes at most
// (200 and the powers of two below), every row with its own values.
TEST_CASE("bulk path: flushes of 1 to 300 new resources write exactly their rows, 9 sizes") {
  TestStore store;
  WriterSession session(store);
  int64_t written = 0;
  int64_t tracks = 0;
  for (int size = 1; size <= 300; ++size) {
    std::string text = kPrefixes + "INSERT DATA {\n";
    for (int i = 0; i < size; ++i) {
      text += fmt::format("<urn:n{0}-{1}> a ex:Song ; ex:title \"n{0}-{1}\" ; ex:track {1} .\n",
                          size, i);
    }
    session.Execute(text + "}");
    REQUIRE(session.writer().Flush().ok());
    written += size;
    tracks += int64_t{size} * (size - 1) / 2;
    INFO("size " << size);
    REQUIRE(CountSql(store, "SELECT count(*) FROM \"ex:Song\"") == written);
    REQUIRE(CountSql(store, "SELECT count(*) FROM \"ex:Element\"") == written);
    REQUIRE(CountSql(store, "SELECT total(\"ex:track\") FROM \"ex:Song\"") == tracks);
  }
  // Each row under its own ID: the title names the IRI, the mirror copies the title.
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Element\" AS e JOIN Resource AS r "
                        "ON r.ID = e.ID WHERE r.Uri = 'urn:' || e.\"ex:title\"") == written);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\" AS s JOIN \"ex:Element\" AS e "
                        "ON e.ID = s.ID WHERE s.\"ex:title\" IS e.\"ex:title\"") == written);
  CHECK(PreparedInserts(store, "ex:Song").size() == 9);
  // Song, Media, Element and Resource rows: 9 sizes each; type rows, 4 per song: 7 (4 to 200).
  CHECK(session.writer().bulk_statement_count() == 4 * 9 + 7);
  session.Commit();
  CHECK(store.Rows(kPrefixes + "SELECT ?n { <urn:n300-299> ex:track ?n }") == Rows{"299"});
  CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:n17-16> ex:title ?t }") == Rows{"n17-16"});
}

// Issue 5: a class's multi-row INSERT keeps the columns earlier flushes wrote, NULL in rows
// without a value, instead of one statement per set of columns a flush happens to use.
TEST_CASE("bulk path: a class's INSERT keeps the columns earlier flushes wrote") {
  TestStore store;
  {
    WriterSession session(store);
    session.Execute(kPrefixes + "INSERT DATA { <urn:old> a ex:Element ; ex:title \"old\" }");
    REQUIRE(session.writer().Flush().ok());
    // Flushes of 3 songs each: title and track, track only, title only, neither.
    const std::vector<std::string> values = {" ; ex:title \"t{0}\" ; ex:track {0}",
                                             " ; ex:track {0}", " ; ex:title \"t{0}\"", ""};
    int song = 0;
    for (const std::string& value : values) {
      std::string text = kPrefixes + "INSERT DATA {\n";
      for (int i = 0; i < 3; ++i, ++song) {
        text += fmt::format("<urn:s{}> a ex:Song", song) +
                fmt::format(fmt::runtime(value), song) + " .\n";
      }
      session.Execute(text + "}");
      REQUIRE(session.writer().Flush().ok());
    }
    // A resource written before becomes a song without a title in this flush: its row's title
    // mirror is written NULL and the trigger copies the title it has.
    session.Execute(kPrefixes + "INSERT DATA { <urn:old> a ex:Song ; ex:track 99 .\n"
                                "<urn:s12> a ex:Song ; ex:track 12 . <urn:s13> a ex:Song }");
    session.Commit();
    // 5 flushes of 3 songs (2 + 1 rows) with the same columns: two statements.
    CHECK(PreparedInserts(store, "ex:Song").size() == 2);
  }
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\"") == 15);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\" AS s JOIN \"ex:Element\" AS e "
                        "ON e.ID = s.ID WHERE s.\"ex:title\" IS e.\"ex:title\"") == 15);
  CHECK(CountSql(store, "SELECT count(*) FROM \"ex:Song\" WHERE \"ex:title\" = 'old'") == 1);
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?t { ?s a ex:Song ; ex:title ?t } ORDER BY ?s") ==
        Rows{"urn:old|old", "urn:s0|t0", "urn:s1|t1", "urn:s2|t2", "urn:s6|t6", "urn:s7|t7",
             "urn:s8|t8"});
  CHECK(store.Rows(kPrefixes + "SELECT ?s ?n { ?s a ex:Song ; ex:track ?n } ORDER BY ?n") ==
        Rows{"urn:s0|0", "urn:s1|1", "urn:s2|2", "urn:s3|3", "urn:s4|4", "urn:s5|5",
             "urn:s12|12", "urn:old|99"});
}

}  // namespace
}  // namespace quarry::testing
