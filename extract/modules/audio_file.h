// Opening an audio file with the TagLib class its format needs, chosen from the MIME type (the
// extension only when libmagic could not tell), and reading what depends on that class: the
// codec name and whether cover art is embedded. Thread-safety: reentrant.
#pragma once

#include <taglib/tfile.h>

#include <memory>
#include <string>

#include "extract/core/module.h"
#include "store/common/result.h"

namespace quarry::extract {

struct AudioFile {
  std::unique_ptr<TagLib::File> file;  // valid (isValid()) and with audio properties
  std::string codec;                   // "MP3", "FLAC", "Vorbis", "Opus", "AAC", "ALAC", "PCM"
  bool has_artwork = false;
};

// Errors: kUnsupported for an audio format TagLib is not asked to read, kCorrupt when TagLib
// cannot make sense of the file; both name the file.
Result<AudioFile> OpenAudioFile(const FileInput& input);

}  // namespace quarry::extract
