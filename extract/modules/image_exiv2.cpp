#include "extract/modules/image_exiv2.h"

// Exiv2 0.27's API hands out std::auto_ptr, deprecated since C++11; the warnings are Exiv2's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <exiv2/exiv2.hpp>
#pragma GCC diagnostic pop

#include <cmath>
#include <exception>
#include <mutex>
#include <string_view>

#include <fmt/format.h>

#include "extract/modules/text_reader.h"

namespace quarry::extract {
namespace {

// Exif and IPTC strings are NUL-padded and usually ASCII, sometimes a legacy code page.
std::string CleanString(std::string raw) {
  if (const size_t nul = raw.find('\0'); nul != std::string::npos) raw.resize(nul);
  const size_t first = raw.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  raw = raw.substr(first, raw.find_last_not_of(" \t\r\n") - first + 1);
  auto decoded = DecodeText(raw, true, raw.size() * 3, "metadata string");
  return decoded ? std::move(decoded->utf8) : std::string();
}

std::optional<double> RationalAt(const Exiv2::Exifdatum& datum, long index) {
  if (datum.count() <= index) return std::nullopt;
  const Exiv2::Rational value = datum.toRational(index);
  if (value.second == 0) return std::nullopt;
  const double result = static_cast<double>(value.first) / value.second;
  return std::isfinite(result) ? std::optional<double>(result) : std::nullopt;
}

const Exiv2::Exifdatum* FindExif(const Exiv2::ExifData& exif, const char* key) {
  const auto found = exif.findKey(Exiv2::ExifKey(key));
  return found == exif.end() || found->count() == 0 ? nullptr : &*found;
}

std::string ExifString(const Exiv2::ExifData& exif, const char* key) {
  const Exiv2::Exifdatum* datum = FindExif(exif, key);
  return datum == nullptr ? std::string() : CleanString(datum->toString());
}

std::optional<double> ExifRational(const Exiv2::ExifData& exif, const char* key) {
  const Exiv2::Exifdatum* datum = FindExif(exif, key);
  return datum == nullptr ? std::nullopt : RationalAt(*datum, 0);
}

// "2018:03:20 08:57:14" (+ OffsetTime "+02:00") → "2018-03-20T08:57:14+02:00".
std::string ExifDate(std::string_view exif_date, std::string_view offset) {
  if (exif_date.size() < 19 || exif_date[4] != ':' || exif_date[7] != ':') return {};
  std::string lexical(exif_date.substr(0, 19));
  lexical[4] = '-';
  lexical[7] = '-';
  lexical[10] = 'T';
  if (offset.size() == 6 && (offset[0] == '+' || offset[0] == '-')) lexical.append(offset);
  return lexical;
}

// Degrees, minutes, seconds as three rationals; `ref` S or W makes it negative.
std::optional<double> GpsCoordinate(const Exiv2::ExifData& exif, const char* key,
                                    const char* ref_key, char negative_ref) {
  const Exiv2::Exifdatum* datum = FindExif(exif, key);
  if (datum == nullptr || datum->count() < 3) return std::nullopt;
  const auto degrees = RationalAt(*datum, 0);
  const auto minutes = RationalAt(*datum, 1);
  const auto seconds = RationalAt(*datum, 2);
  if (!degrees || !minutes || !seconds) return std::nullopt;
  double value = *degrees + *minutes / 60 + *seconds / 3600;
  const std::string ref = ExifString(exif, ref_key);
  if (!ref.empty() && ref[0] == negative_ref) value = -value;
  return value;
}

void ReadExif(const Exiv2::ExifData& exif, PhotoFacts& facts) {
  facts.make = ExifString(exif, "Exif.Image.Make");
  facts.model = ExifString(exif, "Exif.Image.Model");
  std::string taken = ExifString(exif, "Exif.Photo.DateTimeOriginal");
  std::string offset = ExifString(exif, "Exif.Photo.OffsetTimeOriginal");
  if (taken.empty()) {
    taken = ExifString(exif, "Exif.Image.DateTime");
    offset = ExifString(exif, "Exif.Photo.OffsetTime");
  }
  facts.taken = ExifDate(taken, offset);
  if (const auto* orientation = FindExif(exif, "Exif.Image.Orientation")) {
    facts.orientation = orientation->toLong(0);
  }
  facts.exposure_time = ExifRational(exif, "Exif.Photo.ExposureTime");
  facts.f_number = ExifRational(exif, "Exif.Photo.FNumber");
  facts.focal_length = ExifRational(exif, "Exif.Photo.FocalLength");
  if (const auto* iso = FindExif(exif, "Exif.Photo.ISOSpeedRatings")) {
    facts.iso = static_cast<double>(iso->toLong(0));
  }
  if (const auto* flash = FindExif(exif, "Exif.Photo.Flash")) {
    facts.flash_fired = (flash->toLong(0) & 1) != 0;
  }
  facts.description = ExifString(exif, "Exif.Image.ImageDescription");
  facts.creator = ExifString(exif, "Exif.Image.Artist");
  facts.copyright = ExifString(exif, "Exif.Image.Copyright");
  const auto latitude = GpsCoordinate(exif, "Exif.GPSInfo.GPSLatitude",
                                      "Exif.GPSInfo.GPSLatitudeRef", 'S');
  const auto longitude = GpsCoordinate(exif, "Exif.GPSInfo.GPSLongitude",
                                       "Exif.GPSInfo.GPSLongitudeRef", 'W');
  if (latitude && longitude) {
    GpsPosition gps{*latitude, *longitude, ExifRational(exif, "Exif.GPSInfo.GPSAltitude")};
    const auto* below = FindExif(exif, "Exif.GPSInfo.GPSAltitudeRef");
    if (gps.altitude && below != nullptr && below->toLong(0) == 1) gps.altitude = -*gps.altitude;
    facts.gps = gps;
  }
  if (const auto* width = FindExif(exif, "Exif.Photo.PixelXDimension")) {
    facts.width = width->toLong(0);
  }
  if (const auto* height = FindExif(exif, "Exif.Photo.PixelYDimension")) {
    facts.height = height->toLong(0);
  }
}

// A language alternative's x-default text (else its first), or an array's items.
std::vector<std::string> XmpTexts(const Exiv2::XmpData& xmp, const char* key) {
  const auto found = xmp.findKey(Exiv2::XmpKey(key));
  if (found == xmp.end()) return {};
  std::vector<std::string> texts;
  if (const auto* alt = dynamic_cast<const Exiv2::LangAltValue*>(&found->value())) {
    const auto preferred = alt->value_.find("x-default");
    const auto chosen = preferred != alt->value_.end() ? preferred : alt->value_.begin();
    if (chosen != alt->value_.end()) texts.push_back(CleanString(chosen->second));
  } else {
    for (long i = 0; i < found->count(); ++i) texts.push_back(CleanString(found->toString(i)));
  }
  std::erase(texts, std::string());
  return texts;
}

void SetIfEmpty(std::string& field, std::vector<std::string> candidates) {
  if (field.empty() && !candidates.empty()) field = std::move(candidates.front());
}

void ReadXmp(const Exiv2::XmpData& xmp, PhotoFacts& facts) {
  SetIfEmpty(facts.title, XmpTexts(xmp, "Xmp.dc.title"));
  SetIfEmpty(facts.description, XmpTexts(xmp, "Xmp.dc.description"));
  SetIfEmpty(facts.creator, XmpTexts(xmp, "Xmp.dc.creator"));
  SetIfEmpty(facts.copyright, XmpTexts(xmp, "Xmp.dc.rights"));
  SetIfEmpty(facts.make, XmpTexts(xmp, "Xmp.tiff.Make"));
  SetIfEmpty(facts.model, XmpTexts(xmp, "Xmp.tiff.Model"));
  SetIfEmpty(facts.taken, XmpTexts(xmp, "Xmp.exif.DateTimeOriginal"));
  SetIfEmpty(facts.taken, XmpTexts(xmp, "Xmp.xmp.CreateDate"));
  for (std::string& keyword : XmpTexts(xmp, "Xmp.dc.subject")) {
    facts.keywords.push_back(std::move(keyword));
  }
}

void ReadIptc(const Exiv2::IptcData& iptc, PhotoFacts& facts) {
  for (const Exiv2::Iptcdatum& datum : iptc) {
    const std::string key = datum.key();
    std::string value = CleanString(datum.toString());
    if (value.empty()) continue;
    if (key == "Iptc.Application2.Keywords") facts.keywords.push_back(std::move(value));
    if (key == "Iptc.Application2.ObjectName") SetIfEmpty(facts.title, {value});
    if (key == "Iptc.Application2.Caption") SetIfEmpty(facts.description, {value});
    if (key == "Iptc.Application2.Byline") SetIfEmpty(facts.creator, {value});
    if (key == "Iptc.Application2.Copyright") SetIfEmpty(facts.copyright, {value});
  }
}

}  // namespace

void InitExiv2() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Modules return errors; Exiv2's own warnings on stderr would only be noise.
    Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
    Exiv2::XmpParser::initialize();
  });
}

Result<void> ReadExiv2Facts(const std::string& path, PhotoFacts& facts) {
  InitExiv2();
  try {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
#pragma GCC diagnostic pop
    if (image.get() == nullptr) {
      return Error(Errc::kUnsupported, fmt::format("{}: Exiv2 cannot open it", path));
    }
    image->readMetadata();
    ReadExif(image->exifData(), facts);
    ReadXmp(image->xmpData(), facts);
    ReadIptc(image->iptcData(), facts);
    // The frame header beats Exif's PixelX/YDimension, which editors often leave stale.
    if (image->pixelWidth() > 0) facts.width = image->pixelWidth();
    if (image->pixelHeight() > 0) facts.height = image->pixelHeight();
  } catch (const std::exception& error) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("{}: unreadable image metadata: {}", path, error.what()));
  }
  return Ok();
}

}  // namespace quarry::extract
