#include "extract/modules/audio_file.h"

#include <fmt/format.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4file.h>
#include <taglib/mp4properties.h>
#include <taglib/mp4tag.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavproperties.h>
#include <taglib/xiphcomment.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace quarry::extract {
namespace {

enum class Format { kUnknown, kMpeg, kFlac, kOgg, kMp4, kWav };

Format FormatOf(std::string_view mime_type, std::string_view path) {
  if (mime_type == "audio/mpeg" || mime_type == "audio/mp3" || mime_type == "audio/x-mp3") {
    return Format::kMpeg;
  }
  if (mime_type == "audio/flac" || mime_type == "audio/x-flac") return Format::kFlac;
  if (mime_type == "audio/ogg" || mime_type == "application/ogg" || mime_type == "audio/opus" ||
      mime_type == "audio/x-vorbis+ogg" || mime_type == "audio/vorbis" ||
      mime_type == "audio/x-opus+ogg" || mime_type == "audio/x-flac+ogg" ||
      mime_type == "audio/x-speex+ogg") {
    return Format::kOgg;
  }
  if (mime_type == "audio/mp4" || mime_type == "audio/x-m4a" || mime_type == "audio/m4a") {
    return Format::kMp4;
  }
  if (mime_type == "audio/x-wav" || mime_type == "audio/wav" || mime_type == "audio/vnd.wave") {
    return Format::kWav;
  }
  // libmagic could not tell (empty, unknown bytes): the registry chose us by extension.
  const size_t dot = path.rfind('.');
  std::string extension(dot == std::string_view::npos ? "" : path.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == "mp3") return Format::kMpeg;
  if (extension == "flac") return Format::kFlac;
  if (extension == "ogg" || extension == "oga" || extension == "opus") return Format::kOgg;
  if (extension == "m4a" || extension == "mp4") return Format::kMp4;
  if (extension == "wav") return Format::kWav;
  return Format::kUnknown;
}

// TagLib calls an empty or frameless MP3 "valid"; a file is only worth a result when it has an
// audio stream or at least tags (a damaged stream after good tags still names the song).
bool IsUsable(const TagLib::File& file) {
  if (!file.isValid() || file.audioProperties() == nullptr) return false;
  const TagLib::Tag* tag = file.tag();
  return file.audioProperties()->sampleRate() > 0 || (tag != nullptr && !tag->isEmpty());
}

AudioFile OpenMpeg(const char* path) {
  auto file = std::make_unique<TagLib::MPEG::File>(path, true, TagLib::AudioProperties::Average);
  AudioFile audio{nullptr, "MP3", false};
  if (TagLib::ID3v2::Tag* tag = file->ID3v2Tag(false)) {
    audio.has_artwork = !tag->frameListMap()["APIC"].isEmpty();
  }
  audio.file = std::move(file);
  return audio;
}

AudioFile OpenFlac(const char* path) {
  auto file = std::make_unique<TagLib::FLAC::File>(path, true, TagLib::AudioProperties::Average);
  AudioFile audio{nullptr, "FLAC", false};
  if (file->isValid()) audio.has_artwork = !file->pictureList().isEmpty();
  audio.file = std::move(file);
  return audio;
}

// Ogg holds Vorbis or Opus; libmagic says audio/ogg for both, so try Vorbis, then Opus.
AudioFile OpenOgg(const char* path) {
  auto vorbis =
      std::make_unique<TagLib::Ogg::Vorbis::File>(path, true, TagLib::AudioProperties::Average);
  if (IsUsable(*vorbis)) {
    const bool artwork = vorbis->tag() && !vorbis->tag()->pictureList().isEmpty();
    return {std::move(vorbis), "Vorbis", artwork};
  }
  auto opus =
      std::make_unique<TagLib::Ogg::Opus::File>(path, true, TagLib::AudioProperties::Average);
  const bool artwork = opus->isValid() && opus->tag() && !opus->tag()->pictureList().isEmpty();
  return {std::move(opus), "Opus", artwork};
}

AudioFile OpenMp4(const char* path) {
  auto file = std::make_unique<TagLib::MP4::File>(path, true, TagLib::AudioProperties::Average);
  AudioFile audio{nullptr, "AAC", false};
  if (file->isValid()) {
    if (const TagLib::MP4::Properties* properties = file->audioProperties()) {
      if (properties->codec() == TagLib::MP4::Properties::ALAC) audio.codec = "ALAC";
    }
    if (TagLib::MP4::Tag* tag = file->tag()) audio.has_artwork = tag->contains("covr");
  }
  audio.file = std::move(file);
  return audio;
}

AudioFile OpenWav(const char* path) {
  auto file =
      std::make_unique<TagLib::RIFF::WAV::File>(path, true, TagLib::AudioProperties::Average);
  AudioFile audio{nullptr, "PCM", false};
  if (file->isValid() && file->audioProperties() && file->audioProperties()->format() != 1) {
    audio.codec = "WAV";  // a compressed WAVE format tag (ADPCM, μ-law …)
  }
  audio.file = std::move(file);
  return audio;
}

}  // namespace

Result<AudioFile> OpenAudioFile(const FileInput& input) {
  const char* path = input.path.c_str();
  AudioFile audio;
  switch (FormatOf(input.mime_type, input.path)) {
    case Format::kMpeg:
      audio = OpenMpeg(path);
      break;
    case Format::kFlac:
      audio = OpenFlac(path);
      break;
    case Format::kOgg:
      audio = OpenOgg(path);
      break;
    case Format::kMp4:
      audio = OpenMp4(path);
      break;
    case Format::kWav:
      audio = OpenWav(path);
      break;
    case Format::kUnknown:
      return Error(Errc::kUnsupported, fmt::format("{}: audio format {} is not supported",
                                                   input.path, input.mime_type));
  }
  if (!audio.file || !IsUsable(*audio.file)) {
    return Error(Errc::kCorrupt, fmt::format("{}: not a readable {} file (damaged or truncated)",
                                             input.path, audio.codec));
  }
  return audio;
}

}  // namespace quarry::extract
