// The playlist module: M3U/M3U8 and PLS files become an nmm:Playlist with one
// nfo:MediaFileListEntry per entry (nfo:entryUrl, nfo:listPosition), nfo:entryCounter and,
// when every entry gives its length, nfo:listDuration. Relative entries are resolved against
// the playlist's folder into file:// URLs, as Tracker stores them.
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakePlaylistModule();

}  // namespace quarry::extract
