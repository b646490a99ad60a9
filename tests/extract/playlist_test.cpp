// The playlist module on built M3U/M3U8/PLS files: entries in order with resolved URLs,
// positions, count and total duration.
#include <doctest/doctest.h>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/playlist_module.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

using testing::One;

Result<Extraction> RunPlaylist(const std::string& path, const std::string& mime) {
  Extraction out;
  out.extractor = "playlist";
  QUARRY_TRY(MakePlaylistModule()->Extract({path, mime}, Limits{}, out));
  return out;
}

// The entry URLs in list order, checked against their positions.
std::vector<std::string> EntryUrls(const Extraction& extraction) {
  std::vector<std::string> urls;
  for (const Value& value : testing::Values(extraction.element, vocab::Nfo("hasMediaFileListEntry"))) {
    const Description* entry = testing::Related(extraction, std::get<Iri>(value).value);
    REQUIRE(entry != nullptr);
    CHECK(entry->types == std::vector<std::string>{vocab::Nfo("MediaFileListEntry")});
    CHECK(One<double>(*entry, vocab::Nfo("listPosition")) == static_cast<double>(urls.size()));
    urls.push_back(One<std::string>(*entry, vocab::Nfo("entryUrl")).value_or("?"));
  }
  return urls;
}

TEST_CASE("playlist: extended M3U with relative, absolute and remote entries") {
  const testing::TempDir dir;
  const auto path = dir.Write("mix.m3u8",
                              "#EXTM3U\r\n#EXTINF:123,Artist - One\r\nMusic/01 one.mp3\r\n"
                              "\r\n# a comment\r\n#EXTINF:60,Two\r\n/srv/m\xC3\xBAsica/two.flac\r\n"
                              "#EXTINF:-1,Radio\r\nhttp://radio.example/stream\r\n");
  auto extraction = RunPlaylist(path.string(), "audio/x-mpegurl");
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  CHECK(extraction->element.types == std::vector<std::string>{vocab::Nmm("Playlist")});
  CHECK(EntryUrls(*extraction) ==
        std::vector<std::string>{FileUrl(dir.path().string() + "/Music/01 one.mp3"),
                                 "file:///srv/m%C3%BAsica/two.flac",
                                 "http://radio.example/stream"});
  CHECK(One<int64_t>(extraction->element, vocab::Nfo("entryCounter")) == 3);
  // The stream has no length (-1), so there is no total.
  CHECK(testing::Values(extraction->element, vocab::Nfo("listDuration")).empty());
}

TEST_CASE("playlist: PLS entries follow their numbers, with the total duration") {
  const testing::TempDir dir;
  const auto path = dir.Write("list.pls",
                              "[playlist]\nFile2=b.ogg\nLength2=30\nFile1=a.ogg\nTitle1=A\n"
                              "Length1=45\nNumberOfEntries=2\nVersion=2\n");
  auto extraction = RunPlaylist(path.string(), "audio/x-scpls");
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  CHECK(EntryUrls(*extraction) ==
        std::vector<std::string>{FileUrl(dir.path().string() + "/a.ogg"),
                                 FileUrl(dir.path().string() + "/b.ogg")});
  CHECK(One<int64_t>(extraction->element, vocab::Nfo("entryCounter")) == 2);
  CHECK(One<int64_t>(extraction->element, vocab::Nfo("listDuration")) == 75);
}

TEST_CASE("playlist: entry IRIs are stable per playlist and position") {
  const testing::TempDir dir;
  const auto path = dir.Write("a.m3u", "x.mp3\ny.mp3\n");
  auto first = RunPlaylist(path.string(), "audio/x-mpegurl");
  auto second = RunPlaylist(path.string(), "audio/x-mpegurl");
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  REQUIRE(first->related.size() == 2);
  CHECK(first->related[0].iri == second->related[0].iri);
  CHECK(first->related[0].iri != first->related[1].iri);
  CHECK(first->related[0].iri.starts_with(ElementIri(FileUrl(path.string()))));
}

TEST_CASE("playlist: an empty playlist has zero entries, a FIFO is refused") {
  const testing::TempDir dir;
  auto empty = RunPlaylist(dir.Write("e.m3u", "#EXTM3U\n").string(), "audio/x-mpegurl");
  REQUIRE(empty.ok());
  CHECK(One<int64_t>(empty->element, vocab::Nfo("entryCounter")) == 0);
  auto fifo = RunPlaylist(testing::kCorpusDir + "/hostile/special/named-pipe.txt", "audio/x-mpegurl");
  CHECK_FALSE(fifo.ok());
}

}  // namespace
}  // namespace quarry::extract
