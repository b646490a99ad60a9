// Audio tags → Tracker 3's music layout: the element is a nmm:MusicPiece and nfo:Audio, the
// track artist its nmm:performer, the album a nmm:MusicAlbum (nie:title, nmm:albumArtist,
// nmm:albumTrackCount) and the disc a nmm:MusicAlbumDisc (nmm:setNumber,
// nmm:albumDiscAlbum). Artist, album and disc IRIs are deterministic, so a library has one
// row per artist however many files name it.
#include "extract/modules/audio_module.h"

#include <taglib/audioproperties.h>
#include <taglib/tag.h>
#include <taglib/tdebuglistener.h>
#include <taglib/tpropertymap.h>

#include <charconv>
#include <cmath>
#include <mutex>
#include <optional>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/audio_file.h"

namespace quarry::extract {
namespace {

// TagLib reports oddities of broken files on stderr; the Error we return is the report.
class SilentTagLib final : public TagLib::DebugListener {
 public:
  void printMessage(const TagLib::String&) override {}
};

void SilenceTagLib() {
  static std::once_flag once;
  static SilentTagLib listener;
  std::call_once(once, [] { TagLib::setDebugListener(&listener); });
}

std::string Utf8(const TagLib::String& text) {
  std::string utf8 = text.to8Bit(true);
  while (!utf8.empty() && (utf8.back() == '\0' || utf8.back() == ' ')) utf8.pop_back();
  return utf8;
}

// The first value of a tag property ("ALBUMARTIST", "DISCNUMBER" …), or "".
std::string Property(const TagLib::PropertyMap& properties, const char* key) {
  const auto found = properties.find(key);
  if (found == properties.end() || found->second.isEmpty()) return {};
  return Utf8(found->second.front());
}

// "3/12" → {3, 12}; "3" → {3, nullopt}; a number that is not positive is absent.
struct Position {
  std::optional<int64_t> number;
  std::optional<int64_t> total;
};
Position ParsePosition(std::string_view text) {
  Position position;
  const auto parse = [](std::string_view digits) -> std::optional<int64_t> {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end == digits.data() || value <= 0) return std::nullopt;
    return value;
  };
  const size_t slash = text.find('/');
  position.number = parse(text.substr(0, slash));
  if (slash != std::string_view::npos) position.total = parse(text.substr(slash + 1));
  return position;
}

// "2016", "2016-05", "2016-05-01", "2016-05-01T10:00:00" → an xsd:dateTime (UTC midnight when
// only the day or year is known, as Tracker stores it); anything else is dropped.
std::optional<DateTime> ParseDate(std::string_view text) {
  const auto digits = [&](size_t at, size_t count) {
    if (text.size() < at + count) return false;
    for (size_t i = at; i < at + count; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
    }
    return true;
  };
  if (!digits(0, 4)) return std::nullopt;
  std::string lexical(text.substr(0, 4));
  const bool has_month = text.size() >= 7 && text[4] == '-' && digits(5, 2);
  const bool has_day = has_month && text.size() >= 10 && text[7] == '-' && digits(8, 2);
  lexical += has_month ? std::string(text.substr(4, 3)) : "-01";
  lexical += has_day ? std::string(text.substr(7, 3)) : "-01";
  const bool has_time = has_day && text.size() >= 19 && (text[10] == 'T' || text[10] == ' ') &&
                        digits(11, 2) && text[13] == ':' && digits(14, 2) && text[16] == ':' &&
                        digits(17, 2);
  lexical += has_time ? "T" + std::string(text.substr(11, 8)) + "Z" : "T00:00:00Z";
  return DateTime{lexical};
}

// Adds the resource once (an album artist is often the track artist too).
std::string AddRelated(Extraction& out, Description description) {
  for (const Description& existing : out.related) {
    if (existing.iri == description.iri) return existing.iri;
  }
  out.related.push_back(std::move(description));
  return out.related.back().iri;
}

std::string AddArtist(Extraction& out, const std::string& name) {
  Description artist;
  artist.iri = DeterministicIri("artist", {name});
  artist.AddType(vocab::Nmm("Artist"));
  artist.Add(vocab::Nmm("artistName"), name);
  return AddRelated(out, std::move(artist));
}

void AddAlbum(const TagLib::PropertyMap& properties, const std::string& album_title,
              const std::string& track_artist, std::optional<int64_t> track_total,
              Extraction& out) {
  const std::string album_artist_name = Property(properties, "ALBUMARTIST");
  // An album is named by its title and album artist ("Greatest Hits" exists many times);
  // without an album artist the track artist stands in, as Tracker does.
  const std::string& credited = album_artist_name.empty() ? track_artist : album_artist_name;
  Description album;
  album.iri = DeterministicIri("album", {album_title, credited});
  album.AddType(vocab::Nmm("MusicAlbum"));
  album.Add(vocab::Nie("title"), album_title);
  if (!album_artist_name.empty()) {
    album.Add(vocab::Nmm("albumArtist"), Iri{AddArtist(out, album_artist_name)});
  }
  if (track_total) album.Add(vocab::Nmm("albumTrackCount"), *track_total);
  const std::string album_iri = AddRelated(out, std::move(album));
  out.element.Add(vocab::Nmm("musicAlbum"), Iri{album_iri});

  const int64_t disc_number = ParsePosition(Property(properties, "DISCNUMBER")).number.value_or(1);
  Description disc;
  disc.iri = DeterministicIri("album-disc", {album_title, credited, std::to_string(disc_number)});
  disc.AddType(vocab::Nmm("MusicAlbumDisc"));
  disc.Add(vocab::Nmm("setNumber"), disc_number);
  disc.Add(vocab::Nmm("albumDiscAlbum"), Iri{album_iri});
  out.element.Add(vocab::Nmm("musicAlbumDisc"), Iri{AddRelated(out, std::move(disc))});
}

void AddTags(const TagLib::File& file, Extraction& out) {
  const TagLib::PropertyMap properties = file.properties();
  const TagLib::Tag* tag = file.tag();
  Description& element = out.element;
  const std::string title = tag ? Utf8(tag->title()) : std::string();
  if (!title.empty()) element.Add(vocab::Nie("title"), title);
  const std::string artist = tag ? Utf8(tag->artist()) : std::string();
  if (!artist.empty()) element.Add(vocab::Nmm("performer"), Iri{AddArtist(out, artist)});
  Position track = ParsePosition(Property(properties, "TRACKNUMBER"));
  // ID3 and MP4 write "3/12"; Vorbis comments keep the total in a field of its own.
  if (!track.total) track.total = ParsePosition(Property(properties, "TRACKTOTAL")).number;
  if (!track.total) track.total = ParsePosition(Property(properties, "TOTALTRACKS")).number;
  if (track.number) out.element.Add(vocab::Nmm("trackNumber"), *track.number);
  const std::string genre = tag ? Utf8(tag->genre()) : std::string();
  if (!genre.empty()) out.element.Add(vocab::Nfo("genre"), genre);
  std::string date = Property(properties, "DATE");
  if (date.empty() && tag && tag->year() > 0) date = std::to_string(tag->year());
  if (auto created = ParseDate(date)) out.element.Add(vocab::Nie("contentCreated"), *created);
  const std::string album = tag ? Utf8(tag->album()) : std::string();
  if (!album.empty()) AddAlbum(properties, album, artist, track.total, out);
}

void AddStream(const AudioFile& audio, Description& element) {
  const TagLib::AudioProperties* stream = audio.file->audioProperties();
  const int milliseconds = stream->lengthInMilliseconds();
  if (milliseconds > 0) {
    element.Add(vocab::Nfo("duration"), static_cast<int64_t>(std::lround(milliseconds / 1000.0)));
  }
  if (stream->bitrate() > 0)
    element.Add(vocab::Nfo("averageAudioBitrate"), stream->bitrate() * 1000.0);
  if (stream->sampleRate() > 0)
    element.Add(vocab::Nfo("sampleRate"), double{1.0 * stream->sampleRate()});
  if (stream->channels() > 0) element.Add(vocab::Nfo("channels"), int64_t{stream->channels()});
  element.Add(vocab::Nfo("codec"), audio.codec);
  element.Add(vocab::Nmm("hasEmbeddedArtwork"), audio.has_artwork);
}

class AudioModule final : public Module {
 public:
  std::string_view name() const override { return "audio"; }
  std::vector<std::string> mime_types() const override {
    return {"audio/mpeg",      "audio/flac", "audio/x-flac", "audio/ogg",
            "application/ogg", "audio/opus", "audio/mp4",    "audio/x-m4a",
            "audio/x-wav",     "audio/wav",  "audio/*"};
  }
  std::vector<std::string> extensions() const override {
    return {"mp3", "flac", "ogg", "oga", "opus", "m4a", "wav"};
  }

  Result<void> Extract(const FileInput& file, const Limits&, Extraction& out) const override {
    SilenceTagLib();
    QUARRY_ASSIGN_OR_RETURN(AudioFile audio, OpenAudioFile(file));
    out.element.AddType(vocab::Nmm("MusicPiece"));
    out.element.AddType(vocab::Nfo("Audio"));
    AddTags(*audio.file, out);
    AddStream(audio, out.element);
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakeAudioModule() { return std::make_unique<AudioModule>(); }

}  // namespace quarry::extract
