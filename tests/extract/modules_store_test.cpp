// The text, HTML, image, office and playlist modules' output loads into a real store with the
// project's ontology (every property and class they use exists, with the right ranges), and
// Tracker-style queries find it: full text, photo facts, tags, equipment, playlist entries.
#include <doctest/doctest.h>
#include <zip.h>

#include "extract/core/iri.h"
#include "store/engine/store.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

size_t CountRows(engine::Store& store, const std::string& sparql) {
  INFO(sparql);
  auto cursor = store.Query(sparql);
  REQUIRE_MESSAGE(cursor.ok(), cursor.error().ToString());
  size_t rows = 0;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    ++rows;
  }
  return rows;
}

void Load(engine::Store& store, const Registry& registry, const std::string& path) {
  INFO(path);
  auto result = ExtractFile(registry, path, Limits{});
  REQUIRE_MESSAGE(result.ok(), result.error().ToString());
  const auto done = store.Update(ToSparqlUpdate(*result));
  REQUIRE_MESSAGE(done.ok(), done.error().ToString());
}

std::string WriteOdt(const testing::TempDir& dir) {
  static const std::string meta =
      R"(<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta><dc:title>Stored Doc</dc:title><meta:initial-creator>Ana Souza</meta:initial-creator><meta:creation-date>2023-04-05T10:11:12</meta:creation-date><meta:document-statistic meta:page-count="1"/></office:meta></office:document-meta>)";
  static const std::string content =
      R"(<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>zqxstodt body</text:p></office:text></office:body></office:document-content>)";
  const std::string path = (dir / "stored.odt").string();
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(archive != nullptr);
  for (const auto* member : {&meta, &content}) {
    zip_source_t* source = zip_source_buffer(archive, member->data(), member->size(), 0);
    REQUIRE(zip_file_add(archive, member == &meta ? "meta.xml" : "content.xml", source, 0) >= 0);
  }
  REQUIRE(zip_close(archive) == 0);
  return path;
}

TEST_CASE("text, HTML, image, office and playlist results load and answer queries") {
  const testing::TempDir dir;
  auto opened = engine::Store::Open({dir.path() / "db", engine::DefaultOntologyDir()});
  REQUIRE_MESSAGE(opened.ok(), opened.error().ToString());
  engine::Store& store = **opened;
  const Registry registry = BuiltinRegistry();
  const auto texts = testing::Entries({"txt", "md", "code", "data", "html"});
  const auto images = testing::Entries({"jpeg", "png"});
  for (const auto& entry : texts) Load(store, registry, testing::CorpusPath(entry));
  for (const auto& entry : images) Load(store, registry, testing::CorpusPath(entry));
  Load(store, registry, WriteOdt(dir));
  Load(store, registry, dir.Write("list.m3u", "#EXTM3U\n#EXTINF:10,a\na.mp3\n#EXTINF:5,b\nb.mp3\n").string());

  SUBCASE("every needle finds exactly its file") {
    for (const auto& entry : texts) {
      CHECK(CountRows(store, "SELECT ?ie { ?ie fts:match \"" + entry["needle"].get<std::string>() +
                                 "\" }") == 1);
    }
    CHECK(CountRows(store, "SELECT ?ie { ?ie fts:match \"zqxstodt\" }") == 1);
  }
  SUBCASE("photos with their size and equipment, Tracker style") {
    CHECK(CountRows(store, "SELECT ?ie ?w ?h { ?ie a nfo:Image ; nfo:width ?w ; nfo:height ?h }") ==
          images.size());
    size_t jpegs = 0;
    for (const auto& entry : images) jpegs += entry["kind"] == "jpeg" ? 1 : 0;
    CHECK(CountRows(store, "SELECT ?ie ?make { ?ie a nmm:Photo ; nfo:equipment ?e . "
                           "?e nfo:manufacturer ?make }") == jpegs);
  }
  SUBCASE("documents and their authors") {
    CHECK(CountRows(store, "SELECT ?ie { ?ie a nfo:HtmlDocument ; nco:creator ?c . "
                           "?c nco:fullname ?name }") == testing::Entries({"html"}).size());
    CHECK(CountRows(store, "SELECT ?ie { ?ie a nfo:PaginatedTextDocument ; nie:title \"Stored Doc\" ; "
                           "nco:creator ?c . ?c nco:fullname \"Ana Souza\" }") == 1);
  }
  SUBCASE("the playlist and its entries") {
    CHECK(CountRows(store, "SELECT ?url ?pos { ?p a nmm:Playlist ; nfo:entryCounter 2 ; "
                           "nfo:listDuration 15 ; nfo:hasMediaFileListEntry ?e . "
                           "?e nfo:entryUrl ?url ; nfo:listPosition ?pos }") == 2);
  }
}

}  // namespace
}  // namespace quarry::extract
