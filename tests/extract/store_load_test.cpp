// The SPARQL update of extracted files loads into a real store with the project's ontology,
// and queries written for Tracker 3 find what was stored: the file/element links, one row per
// artist however many files name it, and re-extraction replaces instead of adding.
#include <doctest/doctest.h>

#include <set>

#include "extract/core/iri.h"
#include "store/engine/store.h"
#include "tests/extract/extract_test_util.h"
#include "tests/store/engine/store_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

std::vector<std::string> Rows(engine::Store& store, const std::string& sparql) {
  return testing::RequireRows(store.Query(sparql), sparql, [](engine::Cursor& cursor, int i) {
    return std::string(cursor.GetString(i));
  });
}

class ExtractStore {
 public:
  ExtractStore() {
    auto opened = engine::Store::Open({dir_.path() / "db", engine::DefaultOntologyDir()});
    INFO((opened ? std::string() : opened.error().ToString()));
    REQUIRE(opened.ok());
    store_ = std::move(*opened);
  }
  engine::Store& store() { return *store_; }

  FileResult Load(const std::string& path) {
    auto result = ExtractFile(registry_, path, Limits{});
    INFO(path);
    REQUIRE(result.ok());
    const std::string update = ToSparqlUpdate(*result);
    const auto done = store_->Update(update);
    INFO((done ? std::string() : done.error().ToString()));
    REQUIRE(done.ok());
    return std::move(*result);
  }

 private:
  testing::TempDir dir_;
  Registry registry_ = BuiltinRegistry();
  std::unique_ptr<engine::Store> store_;
};

TEST_CASE("Extracted SPARQL loads and answers Tracker-style queries") {
  ExtractStore fixture;
  const auto audio = testing::Entries({"mp3", "flac", "ogg", "opus"});
  const auto pdfs = testing::Entries({"pdf"});
  std::set<std::string> artists;
  for (const auto& entry : audio) {
    fixture.Load(testing::CorpusPath(entry));
    artists.insert(entry["artist"].get<std::string>());
    artists.insert(entry["albumartist"].get<std::string>());
  }
  for (const auto& entry : pdfs) fixture.Load(testing::CorpusPath(entry));
  engine::Store& store = fixture.store();

  SUBCASE("all artists: one row each") {
    const auto rows = Rows(store, "SELECT ?name { ?a a nmm:Artist ; nmm:artistName ?name }");
    CHECK(rows.size() == artists.size());
    CHECK(std::set<std::string>(rows.begin(), rows.end()) == artists);
  }
  SUBCASE("songs through nie:isStoredAs, files through nie:interpretedAs") {
    const auto songs = Rows(store,
                            "SELECT ?url ?title { ?song a nmm:MusicPiece ; nie:title ?title ; "
                            "nie:isStoredAs ?file . ?file nie:url ?url }");
    CHECK(songs.size() == audio.size());
    const auto files = Rows(store,
                            "SELECT ?file { ?file a nfo:FileDataObject ; nie:interpretedAs ?ie . "
                            "?ie a nfo:PaginatedTextDocument }");
    CHECK(files.size() == pdfs.size());
  }
  SUBCASE("the text is searchable, every word of it") {
    for (const auto& entry : pdfs) {
      const auto rows = Rows(
          store, "SELECT ?ie { ?ie fts:match \"" + entry["needle"].get<std::string>() + "\" }");
      CHECK(rows.size() == 1);
    }
  }
  SUBCASE("re-extraction replaces the element's values") {
    fixture.Load(testing::CorpusPath(audio.front()));
    fixture.Load(testing::CorpusPath(pdfs.front()));
    CHECK(Rows(store, "SELECT ?s { ?s a nmm:MusicPiece }").size() == audio.size());
    const auto keywords =
        Rows(store, "SELECT ?k { ?ie nie:isStoredAs ?f ; nie:keyword ?k . ?f nie:url \"" +
                        FileUrl(testing::CorpusPath(pdfs.front())) + "\" }");
    CHECK(keywords.size() == pdfs.front()["keywords"].size());
  }
}

}  // namespace
}  // namespace quarry::extract
