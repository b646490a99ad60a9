// The audio module (TagLib): MP3 (ID3v1/ID3v2), FLAC, Ogg Vorbis, Opus, MP4/M4A and WAV. Tags
// become a nmm:MusicPiece with deterministic nmm:Artist, nmm:MusicAlbum and
// nmm:MusicAlbumDisc resources; the stream gives duration, bitrate, sample rate, channels
// and codec. Thread-safety: Extract() is reentrant.
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakeAudioModule();

}  // namespace quarry::extract
