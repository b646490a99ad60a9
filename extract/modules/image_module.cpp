#include "extract/modules/image_module.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/image_exiv2.h"
#include "extract/modules/image_facts.h"
#include "extract/modules/png_text.h"
#include "extract/modules/related.h"

namespace quarry::extract {
namespace {

// Exif orientation 1-8 → Nepomuk individual (Tracker's mapping).
constexpr std::array<std::string_view, 8> kOrientations = {
    "orientation-top",       "orientation-top-mirror",   "orientation-bottom",
    "orientation-bottom-mirror", "orientation-left-mirror", "orientation-right",
    "orientation-right-mirror",  "orientation-left"};

// "2020-05-13T23:29:09" as gen-corpus and most tools write it, or Exif's "2020:05:13 23:29:09".
std::string PngDate(std::string text) {
  if (text.size() >= 19 && text[4] == ':' && text[7] == ':') {
    text[4] = '-';
    text[7] = '-';
    text[10] = 'T';
  }
  return text;
}

// PNG text chunks fill what Exif and XMP left empty.
void MergePngText(const std::vector<PngTextChunk>& chunks, PhotoFacts& facts) {
  for (const PngTextChunk& chunk : chunks) {
    if (chunk.text.empty()) continue;
    if (chunk.keyword == "Title" && facts.title.empty()) facts.title = chunk.text;
    if (chunk.keyword == "Author" && facts.creator.empty()) facts.creator = chunk.text;
    if (chunk.keyword == "Description" && facts.description.empty()) {
      facts.description = chunk.text;
    }
    if (chunk.keyword == "Copyright" && facts.copyright.empty()) facts.copyright = chunk.text;
    if (chunk.keyword == "Creation Time" && facts.taken.empty()) facts.taken = PngDate(chunk.text);
  }
}

std::string FormatCoordinate(double degrees) { return fmt::format("{:.6f}", degrees); }

void AddCamera(PhotoFacts& facts, Extraction& out) {
  Description& element = out.element;
  if (facts.exposure_time) element.Add(vocab::Nmm("exposureTime"), *facts.exposure_time);
  if (facts.f_number) element.Add(vocab::Nmm("fnumber"), *facts.f_number);
  if (facts.iso) element.Add(vocab::Nmm("isoSpeed"), *facts.iso);
  if (facts.focal_length) element.Add(vocab::Nmm("focalLength"), *facts.focal_length);
  if (facts.flash_fired) {
    element.Add(vocab::Nmm("flash"), Iri{vocab::Nmm(*facts.flash_fired ? "flash-on" : "flash-off")});
  }
  if (facts.orientation >= 1 && facts.orientation <= 8) {
    element.Add(vocab::Nfo("orientation"),
                Iri{vocab::Nfo(kOrientations[static_cast<size_t>(facts.orientation - 1)])});
  }
  if (!facts.make.empty() || !facts.model.empty()) {
    Description equipment;
    equipment.iri = DeterministicIri("equipment", {facts.make, facts.model});
    equipment.AddType(vocab::Nfo("Equipment"));
    if (!facts.make.empty()) equipment.Add(vocab::Nfo("manufacturer"), facts.make);
    if (!facts.model.empty()) equipment.Add(vocab::Nfo("model"), facts.model);
    AddRelated(out, vocab::Nfo("equipment"), std::move(equipment));
  }
  if (facts.gps) {
    const GpsPosition& gps = *facts.gps;
    // Rounded to ~0.1 m so the same spot from two photos is one place.
    const std::string altitude = gps.altitude ? fmt::format("{:.1f}", *gps.altitude) : "";
    Description place;
    place.iri = DeterministicIri(
        "location", {FormatCoordinate(gps.latitude), FormatCoordinate(gps.longitude), altitude});
    place.AddType(vocab::Slo("GeoLocation"));
    place.Add(vocab::Slo("latitude"), gps.latitude);
    place.Add(vocab::Slo("longitude"), gps.longitude);
    if (gps.altitude) place.Add(vocab::Slo("altitude"), *gps.altitude);
    AddRelated(out, vocab::Slo("location"), std::move(place));
  }
}

void AddFacts(PhotoFacts& facts, Extraction& out) {
  Description& element = out.element;
  // Tracker types every picture nfo:Image and nmm:Photo; the camera properties need the latter.
  element.AddType(vocab::Nfo("Image"));
  element.AddType(vocab::Nmm("Photo"));
  if (facts.width > 0) element.Add(vocab::Nfo("width"), facts.width);
  if (facts.height > 0) element.Add(vocab::Nfo("height"), facts.height);
  if (!facts.title.empty()) element.Add(vocab::Nie("title"), facts.title);
  if (!facts.description.empty()) element.Add(vocab::Nie("description"), facts.description);
  if (!facts.copyright.empty()) element.Add(vocab::Nie("copyright"), facts.copyright);
  if (const auto taken = CheckedDateTime(facts.taken)) {
    element.Add(vocab::Nie("contentCreated"), *taken);
  }
  AddCamera(facts, out);
  if (!facts.creator.empty()) AddRelated(out, vocab::Nco("creator"), MakeContact(facts.creator));
  std::vector<std::string> keywords;
  for (std::string& keyword : facts.keywords) {
    if (std::find(keywords.begin(), keywords.end(), keyword) == keywords.end()) {
      keywords.push_back(std::move(keyword));
    }
  }
  for (const std::string& keyword : keywords) {
    out.element.Add(vocab::Nie("keyword"), keyword);
    AddRelated(out, vocab::Nao("hasTag"), MakeTag(keyword));
  }
}

class ImageModule final : public Module {
 public:
  ImageModule() { InitExiv2(); }

  std::string_view name() const override { return "image"; }
  std::vector<std::string> mime_types() const override { return {"image/*"}; }
  std::vector<std::string> extensions() const override {
    return {"jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "gif", "bmp", "psd", "jp2",
            "cr2", "nef", "orf", "arw", "rw2", "pef", "srw", "dng", "raf", "crw", "mrw", "exv"};
  }

  Result<void> Extract(const FileInput& file, const Limits&, Extraction& out) const override {
    // Exiv2 opens the path itself, and opening a FIFO would block forever.
    struct stat info {};
    if (::stat(file.path.c_str(), &info) != 0) {
      return Error(errno == ENOENT ? Errc::kNotFound : Errc::kIo,
                   fmt::format("{}: cannot stat: {}", file.path, std::strerror(errno)));
    }
    if (!S_ISREG(info.st_mode)) {
      return Error(Errc::kUnsupported, fmt::format("{}: not a regular file", file.path));
    }
    PhotoFacts facts;
    QUARRY_TRY(ReadExiv2Facts(file.path, facts));
    if (file.mime_type == "image/png") {
      // Text chunks are a bonus: a PNG whose chunks are damaged still has its size.
      if (auto chunks = ReadPngText(file.path)) MergePngText(*chunks, facts);
    }
    AddFacts(facts, out);
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakeImageModule() { return std::make_unique<ImageModule>(); }

}  // namespace quarry::extract
