// The audio module against gen-corpus ground truth: every MP3, FLAC, Ogg Vorbis and Opus file.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "tests/extract/extract_test_util.h"

namespace quarry::extract {
namespace {

using testing::One;

const Description& RequireRelated(const Extraction& extraction, const std::optional<Iri>& iri) {
  REQUIRE(iri.has_value());
  const Description* related = testing::Related(extraction, iri->value);
  REQUIRE(related != nullptr);
  return *related;
}

void CheckAlbum(const nlohmann::json& entry, const Extraction& extraction) {
  const Description& element = extraction.element;
  const Description& album =
      RequireRelated(extraction, One<Iri>(element, vocab::Nmm("musicAlbum")));
  CHECK(album.types == std::vector<std::string>{vocab::Nmm("MusicAlbum")});
  CHECK(One<std::string>(album, vocab::Nie("title")) == entry["album"].get<std::string>());
  CHECK(One<int64_t>(album, vocab::Nmm("albumTrackCount")) == entry["tracktotal"].get<int64_t>());
  const Description& album_artist =
      RequireRelated(extraction, One<Iri>(album, vocab::Nmm("albumArtist")));
  CHECK(One<std::string>(album_artist, vocab::Nmm("artistName")) ==
        entry["albumartist"].get<std::string>());
  const Description& disc =
      RequireRelated(extraction, One<Iri>(element, vocab::Nmm("musicAlbumDisc")));
  CHECK(One<int64_t>(disc, vocab::Nmm("setNumber")) == entry["disc"].get<int64_t>());
  CHECK(One<Iri>(disc, vocab::Nmm("albumDiscAlbum")) == Iri{album.iri});
}

void CheckAudio(const nlohmann::json& entry, const Registry& registry) {
  static const std::map<std::string, std::string> kCodecs = {
      {"mp3", "MP3"}, {"flac", "FLAC"}, {"ogg", "Vorbis"}, {"opus", "Opus"}};
  const std::string path = testing::CorpusPath(entry);
  INFO(path);
  auto result = ExtractFile(registry, path, Limits{});
  INFO((result ? std::string() : result.error().ToString()));
  REQUIRE(result.ok());
  const Extraction& extraction = result->extraction;
  const Description& element = extraction.element;
  CHECK(extraction.extractor == "audio");
  CHECK(element.types == std::vector<std::string>{vocab::Nmm("MusicPiece"), vocab::Nfo("Audio")});
  CHECK(One<std::string>(element, vocab::Nie("title")) == entry["title"].get<std::string>());
  const auto performer = One<Iri>(element, vocab::Nmm("performer"));
  CHECK(performer == Iri{DeterministicIri("artist", {entry["artist"].get<std::string>()})});
  CHECK(One<std::string>(RequireRelated(extraction, performer), vocab::Nmm("artistName")) ==
        entry["artist"].get<std::string>());
  CHECK(One<int64_t>(element, vocab::Nmm("trackNumber")) == entry["track"].get<int64_t>());
  CHECK(One<std::string>(element, vocab::Nfo("genre")) == entry["genre"].get<std::string>());
  const auto created = One<DateTime>(element, vocab::Nie("contentCreated"));
  REQUIRE(created.has_value());
  CHECK(created->lexical.substr(0, 4) == entry["date"].get<std::string>().substr(0, 4));
  const auto duration = One<int64_t>(element, vocab::Nfo("duration"));
  REQUIRE(duration.has_value());
  CHECK(std::abs(static_cast<double>(*duration) - entry["duration_s"].get<double>()) <= 1.0);
  CHECK(One<int64_t>(element, vocab::Nfo("channels")) == 2);
  CHECK(One<double>(element, vocab::Nfo("sampleRate")).value_or(0) >= 44100);
  CHECK(One<double>(element, vocab::Nfo("averageAudioBitrate")).value_or(0) > 0);
  CHECK(One<std::string>(element, vocab::Nfo("codec")) == kCodecs.at(entry["kind"]));
  CHECK(One<bool>(element, vocab::Nmm("hasEmbeddedArtwork")).has_value());
  CheckAlbum(entry, extraction);
}

TEST_CASE("Audio module: every corpus MP3, FLAC, Ogg Vorbis and Opus file matches its manifest") {
  const Registry registry = BuiltinRegistry();
  const auto files = testing::Entries({"mp3", "flac", "ogg", "opus"});
  REQUIRE(files.size() >= 10);
  std::map<std::string, int> by_kind;
  for (const auto& entry : files) {
    CheckAudio(entry, registry);
    ++by_kind[entry["kind"].get<std::string>()];
  }
  CHECK(by_kind.size() == 4);  // each format was exercised
}

}  // namespace
}  // namespace quarry::extract
