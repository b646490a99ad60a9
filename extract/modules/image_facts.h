// What the image module learns about a picture, from whichever metadata block had it
// (Exif, XMP, IPTC, PNG text), before it becomes Nepomuk properties. Split from the module so
// the Exiv2 reading (image_exiv2.cpp) and the mapping (image_module.cpp) stay small.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace quarry::extract {

struct GpsPosition {
  double latitude = 0;   // degrees, negative south
  double longitude = 0;  // degrees, negative west
  std::optional<double> altitude;  // metres, negative below sea level
};

struct PhotoFacts {
  int64_t width = 0;
  int64_t height = 0;
  std::string make, model;
  std::string taken;  // xsd:dateTime lexical form, unchecked
  int64_t orientation = 0;  // Exif 1-8, 0 when absent
  std::optional<double> exposure_time, f_number, iso, focal_length;
  std::optional<bool> flash_fired;
  std::optional<GpsPosition> gps;
  std::string title, description, creator, copyright;
  std::vector<std::string> keywords;
};

}  // namespace quarry::extract
