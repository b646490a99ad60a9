// The image module (Exiv2): width and height of any picture Exiv2 reads (JPEG, PNG, TIFF,
// WebP, camera raw …), and from Exif/XMP/IPTC (and PNG text chunks) camera make and model
// (nfo:Equipment), date taken, orientation, exposure time, f-number, ISO, focal length, flash,
// GPS position (slo:GeoLocation), title, description, creator, copyright and keywords
// (nao:Tag). Equipment, places, contacts and tags get deterministic IRIs.
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakeImageModule();

}  // namespace quarry::extract
