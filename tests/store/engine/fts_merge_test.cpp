// The full-text index's segment merging (issue 5, schema/fts.h): FTS5 does not merge while
// writes stream in (automerge 0), a transaction's terms stay in memory up to 4 MiB (hashsize),
// Store::MergeFullText does it in small steps when asked, and a database made before these
// settings gets them when a writer opens it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "tests/store/engine/function_test_util.h"

namespace quarry::testing {
namespace {

using Rows = std::vector<std::string>;

int64_t ReadInt(TestStore& store, const std::string& sql) {
  auto statement = store->database().Prepare(sql);
  REQUIRE(statement.ok());
  auto has_row = statement->Step();
  REQUIRE(has_row.ok());
  REQUIRE(*has_row);
  return statement->ColumnInt64(0);
}

// FTS5 segments in the index: the segment ID is the top bits of a %_data row ID (segid << 37;
// rows of segment 0 are the structure and averages records).
int64_t Segments(TestStore& store) {
  return ReadInt(store, "SELECT count(DISTINCT id >> 37) FROM fts5_data WHERE id >> 37 > 0");
}

int64_t Automerge(TestStore& store) {
  return ReadInt(store, "SELECT coalesce((SELECT v FROM fts5_config WHERE k = 'automerge'), -1)");
}

int64_t Hashsize(TestStore& store) {
  return ReadInt(store, "SELECT coalesce((SELECT v FROM fts5_config WHERE k = 'hashsize'), -1)");
}

Rows Search(TestStore& store, const std::string& search) {
  return store.Rows(kFunctionPrefixes + "SELECT ?r { ?r fts:match \"" + search +
                    "\" } ORDER BY ?r");
}

// `count` single-resource transactions: each one flushes one FTS5 segment.
void AddSongs(TestStore& store, int first, int count) {
  for (int i = first; i < first + count; ++i) {
    store.Update(
        kFunctionPrefixes +
        fmt::format("INSERT DATA {{ <urn:s{0}> a ex:Song ; ex:title \"song{0} blue {1}\" ; "
                    "ex:content \"verse{0} of the {2} river\" }}",
                    i, i % 2 == 0 ? "even" : "odd", i % 3 == 0 ? "wide" : "deep"));
  }
}

const std::vector<std::string> kSearches = {
    "blue",    "even",      "song7",         "odd wide", "\\\"the deep\\\"",
    "verse1*", "odd -wide", "river OR song3"};

std::vector<Rows> SearchAll(TestStore& store) {
  std::vector<Rows> results;
  for (const std::string& search : kSearches) results.push_back(Search(store, search));
  return results;
}

// Runs merge steps of `pages` until none is left; the number of steps that merged something.
int MergeAll(TestStore& store, int pages) {
  int steps = 0;
  for (;;) {
    auto merged = store->MergeFullText(pages);
    REQUIRE(merged.ok());
    if (!*merged) return steps;
    ++steps;
    REQUIRE(steps < 10000);  // a step that always reports work would loop forever
  }
}

// A text of `words` distinct words: its segment has about words / 600 leaf pages.
std::string ManyWords(int words) {
  std::string text;
  for (int i = 0; i < words; ++i) text += fmt::format("w{} ", i);
  return text;
}

TEST_CASE("FTS5 merge settings: a new index does not merge while it is written") {
  TestStore store;
  CHECK(Automerge(store) == 0);
  // Each transaction's segment has more than FTS5's work unit (64 leaf pages): with its default
  // automerge (4) the 4th one would merge the first level; here they stay until merged when
  // idle (or FTS5's crisismerge, 16 a level).
  const std::string text = ManyWords(50000);
  for (int i = 0; i < 5; ++i) {
    store.Update(kFunctionPrefixes +
                 fmt::format("INSERT DATA {{ <urn:b{}> a ex:Song ; ex:content \"{}\" }}", i, text));
  }
  CHECK(Segments(store) == 5);
  CHECK(Search(store, "w49999").size() == 5);
}

TEST_CASE("FTS5 merge settings: a database made before them gets them when a writer opens it") {
  TestStore store;
  SUBCASE("before all of them") {
    REQUIRE(store->database().Exec("DELETE FROM fts5_config WHERE k = 'automerge'").ok());
    REQUIRE(store->database().Exec("DELETE FROM fts5_config WHERE k = 'hashsize'").ok());
    REQUIRE(Automerge(store) == -1);
  }
  SUBCASE("before hashsize (issue 5, session 25)") {
    REQUIRE(store->database().Exec("DELETE FROM fts5_config WHERE k = 'hashsize'").ok());
    REQUIRE(Automerge(store) == 0);
  }
  REQUIRE(Hashsize(store) == -1);
  store.Reopen();
  CHECK(Automerge(store) == 0);
  CHECK(Hashsize(store) == 4 << 20);
}

TEST_CASE("FTS5 hashsize: a transaction's texts beyond FTS5's default 1 MiB flush one segment") {
  TestStore store;
  CHECK(Hashsize(store) == 4 << 20);
  // 20,000 distinct words are a little over 1 MiB of FTS5's pending terms: with its default
  // hashsize each resource's row would be flushed as a segment of its own (3).
  std::string update = kFunctionPrefixes + "INSERT DATA { ";
  for (int i = 0; i < 3; ++i) {
    std::string text;
    for (int word = 0; word < 20000; ++word) text += fmt::format("r{}w{} ", i, word);
    update += fmt::format("<urn:h{}> a ex:Song ; ex:content \"{}\" . ", i, text);
  }
  store.Update(update + "}");
  CHECK(Segments(store) == 1);
  CHECK(Search(store, "r2w19999").size() == 1);
}

TEST_CASE("MergeFullText: idle merging leaves fewer segments and the same answers") {
  TestStore store;
  AddSongs(store, 0, 15);
  const std::vector<Rows> before = SearchAll(store);
  REQUIRE(before[0].size() == 15);
  REQUIRE(Segments(store) == 15);
  SUBCASE("one-page steps") { CHECK(MergeAll(store, 1) >= 1); }
  SUBCASE("large steps") { CHECK(MergeAll(store, 1000) == 1); }
  // 15 segments of one level (FTS5's usermerge: 4 or more) become one.
  CHECK(Segments(store) == 1);
  CHECK(SearchAll(store) == before);
  CHECK(store->database().Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')").ok());
  // Nothing left: a step merges nothing; new writes add segments again, merged the same way.
  CHECK(MergeAll(store, 64) == 0);
  AddSongs(store, 15, 5);
  CHECK(Segments(store) == 6);
  CHECK(MergeAll(store, 64) >= 1);
  CHECK(Segments(store) < 6);
  CHECK(Search(store, "blue").size() == 20);
  CHECK(Search(store, "song17") == Rows{"urn:s17"});
}

}  // namespace
}  // namespace quarry::testing
