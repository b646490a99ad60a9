// The image module against the corpus JPEG/PNG files (MANIFEST.json, field by field), a JPEG
// given GPS, orientation, flash, XMP and IPTC here with Exiv2, and the hostile images.
#include <doctest/doctest.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <exiv2/exiv2.hpp>
#pragma GCC diagnostic pop

#include <cmath>
#include <filesystem>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/image_module.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

using testing::One;
using testing::Values;

Result<Extraction> RunImage(const std::string& path, const std::string& mime) {
  Extraction out;
  out.extractor = "image";
  QUARRY_TRY(MakeImageModule()->Extract({path, mime}, Limits{}, out));
  return out;
}

// "2018:03:20 08:57:14" → "2018-03-20T08:57:14"
std::string IsoDate(std::string exif) {
  exif[4] = '-';
  exif[7] = '-';
  exif[10] = 'T';
  return exif;
}

void CheckOptionalString(const Description& element, const nlohmann::json& entry,
                         const char* field, const std::string& property) {
  if (entry.contains(field)) {
    CHECK(One<std::string>(element, property) == entry[field].get<std::string>());
  } else {
    CHECK(Values(element, property).empty());
  }
}

void CheckCreator(const Extraction& extraction, const nlohmann::json& entry, const char* field) {
  if (!entry.contains(field)) {
    CHECK(Values(extraction.element, vocab::Nco("creator")).empty());
    return;
  }
  const std::string name = entry[field];
  const std::string iri = DeterministicIri("contact", {name});
  CHECK(One<Iri>(extraction.element, vocab::Nco("creator")) == Iri{iri});
  const Description* contact = testing::Related(extraction, iri);
  REQUIRE(contact != nullptr);
  CHECK(One<std::string>(*contact, vocab::Nco("fullname")) == name);
}

void CheckGps(const Extraction& extraction, const nlohmann::json& gps) {
  if (gps.is_null()) {
    CHECK(Values(extraction.element, vocab::Slo("location")).empty());
    return;
  }
  const auto place_iri = One<Iri>(extraction.element, vocab::Slo("location"));
  REQUIRE(place_iri.has_value());
  const Description* place = testing::Related(extraction, place_iri->value);
  REQUIRE(place != nullptr);
  CHECK(place->types == std::vector<std::string>{vocab::Slo("GeoLocation")});
  CHECK(One<double>(*place, vocab::Slo("latitude")).value_or(999) ==
        doctest::Approx(gps[0].get<double>()).epsilon(1e-6));
  CHECK(One<double>(*place, vocab::Slo("longitude")).value_or(999) ==
        doctest::Approx(gps[1].get<double>()).epsilon(1e-6));
  if (gps.size() > 2 && !gps[2].is_null()) {
    CHECK(One<double>(*place, vocab::Slo("altitude")).value_or(-9999) ==
          doctest::Approx(gps[2].get<double>()).epsilon(1e-3));
  }
}

TEST_CASE("image: corpus JPEG and PNG files, field by field against MANIFEST.json") {
  const Registry registry = BuiltinRegistry();
  const auto entries = testing::Entries({"jpeg", "png"});
  REQUIRE(!entries.empty());
  for (const auto& entry : entries) {
    const std::string path = testing::CorpusPath(entry);
    CAPTURE(path);
    auto result = ExtractFile(registry, path, Limits{});
    REQUIRE_MESSAGE(result.ok(), result.error().ToString());
    const Extraction& extraction = result->extraction;
    CHECK(extraction.extractor == "image");
    const Description& element = extraction.element;
    CHECK(One<int64_t>(element, vocab::Nfo("width")) == entry["width"].get<int64_t>());
    CHECK(One<int64_t>(element, vocab::Nfo("height")) == entry["height"].get<int64_t>());
    CHECK(One<DateTime>(element, vocab::Nie("contentCreated")) ==
          DateTime{IsoDate(entry["datetime"])});
    CheckOptionalString(element, entry, "description", vocab::Nie("description"));
    if (entry["kind"] == "png") {
      CHECK(One<std::string>(element, vocab::Nie("title")) == entry["title"].get<std::string>());
      CheckCreator(extraction, entry, "author");
      continue;
    }
    CheckCreator(extraction, entry, "artist");
    CheckOptionalString(element, entry, "copyright", vocab::Nie("copyright"));
    const std::string make = entry["make"], model = entry["model"];
    const std::string equipment_iri = DeterministicIri("equipment", {make, model});
    CHECK(One<Iri>(element, vocab::Nfo("equipment")) == Iri{equipment_iri});
    const Description* equipment = testing::Related(extraction, equipment_iri);
    REQUIRE(equipment != nullptr);
    CHECK(One<std::string>(*equipment, vocab::Nfo("manufacturer")) == make);
    CHECK(One<std::string>(*equipment, vocab::Nfo("model")) == model);
    CHECK(One<double>(element, vocab::Nmm("exposureTime")).has_value());
    CHECK(One<double>(element, vocab::Nmm("fnumber")).has_value());
    CHECK(One<double>(element, vocab::Nmm("isoSpeed")).has_value());
    CHECK(One<double>(element, vocab::Nmm("focalLength")).has_value());
    CHECK(One<Iri>(element, vocab::Nmm("flash")).has_value());
    CheckGps(extraction, entry["gps"]);
  }
}

// Copies a corpus JPEG and gives it GPS (south-west, below sea level), orientation, flash, XMP
// title/keywords and IPTC keywords with Exiv2.
std::string TaggedJpeg(const testing::TempDir& dir) {
  const auto jpegs = testing::Entries({"jpeg"});
  REQUIRE(!jpegs.empty());
  const std::string path = (dir / "tagged.jpg").string();
  std::filesystem::copy_file(testing::CorpusPath(jpegs.front()), path);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
  image->readMetadata();
  Exiv2::ExifData& exif = image->exifData();
  exif["Exif.Image.Orientation"] = uint16_t{6};
  exif["Exif.Photo.Flash"] = uint16_t{0x19};
  exif["Exif.GPSInfo.GPSLatitudeRef"] = "S";
  exif["Exif.GPSInfo.GPSLatitude"] = "33/1 52/1 3000/100";
  exif["Exif.GPSInfo.GPSLongitudeRef"] = "W";
  exif["Exif.GPSInfo.GPSLongitude"] = "151/1 12/1 36/1";
  exif["Exif.GPSInfo.GPSAltitude"] = "50/1";
  Exiv2::Value::AutoPtr below = Exiv2::Value::create(Exiv2::unsignedByte);
  below->read("1");
  exif.add(Exiv2::ExifKey("Exif.GPSInfo.GPSAltitudeRef"), below.get());
  Exiv2::XmpData& xmp = image->xmpData();
  xmp["Xmp.dc.title"] = "lang=x-default Harbour at dusk";
  Exiv2::Value::AutoPtr subjects = Exiv2::Value::create(Exiv2::xmpBag);
  subjects->read("sea");
  subjects->read("Sydney");
  xmp.add(Exiv2::XmpKey("Xmp.dc.subject"), subjects.get());
  Exiv2::IptcData& iptc = image->iptcData();
  Exiv2::StringValue boats("boats");
  iptc.add(Exiv2::IptcKey("Iptc.Application2.Keywords"), &boats);
  Exiv2::StringValue sea("sea");  // also in XMP: one tag
  iptc.add(Exiv2::IptcKey("Iptc.Application2.Keywords"), &sea);
  image->writeMetadata();
#pragma GCC diagnostic pop
  return path;
}

TEST_CASE("image: GPS, orientation, flash, XMP title and XMP/IPTC keywords as tags") {
  const testing::TempDir dir;
  auto extraction = RunImage(TaggedJpeg(dir), "image/jpeg");
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  const Description& element = extraction->element;
  CHECK(One<std::string>(element, vocab::Nie("title")) == "Harbour at dusk");
  CHECK(One<Iri>(element, vocab::Nfo("orientation")) == Iri{vocab::Nfo("orientation-right")});
  CHECK(One<Iri>(element, vocab::Nmm("flash")) == Iri{vocab::Nmm("flash-on")});
  CheckGps(*extraction, nlohmann::json::array({-33.875, -151.21, -50.0}));
  std::vector<Value> tags;
  for (const char* keyword : {"sea", "Sydney", "boats"}) {
    const std::string iri = DeterministicIri("tag", {keyword});
    tags.emplace_back(Iri{iri});
    const Description* tag = testing::Related(*extraction, iri);
    REQUIRE(tag != nullptr);
    CHECK(tag->types == std::vector<std::string>{vocab::Nao("Tag")});
    CHECK(One<std::string>(*tag, vocab::Nao("prefLabel")) == keyword);
  }
  CHECK(Values(element, vocab::Nao("hasTag")) == tags);
  CHECK(Values(element, vocab::Nie("keyword")).size() == 3);
}

TEST_CASE("image: hostile images give an error or their size, never a crash") {
  const std::string hostile = testing::kCorpusDir + "/hostile/";
  for (const auto& [name, mime] : std::vector<std::pair<std::string, std::string>>{
           {"image/truncated.jpg", "image/jpeg"},  {"image/exif-ifd-loop.jpg", "image/jpeg"},
           {"image/exif-garbage.jpg", "image/jpeg"}, {"image/huge-dims.png", "image/png"},
           {"image/bad-crc.png", "image/png"},       {"empty/empty.jpg", "image/jpeg"},
           {"empty/empty.png", "image/png"},         {"wrong-ext/really-text.jpg", "image/jpeg"}}) {
    CAPTURE(name);
    auto extraction = RunImage(hostile + name, mime);
    if (extraction.ok()) continue;
    CHECK(extraction.error().message().find(name) != std::string::npos);
  }
  auto huge = RunImage(hostile + "image/huge-dims.png", "image/png");
  REQUIRE(huge.ok());
  CHECK(One<int64_t>(huge->element, vocab::Nfo("width")) == 65535);
  auto empty = RunImage(hostile + "empty/empty.jpg", "image/jpeg");
  CHECK_FALSE(empty.ok());
  auto fifo = RunImage(hostile + "special/named-pipe.txt", "image/jpeg");
  REQUIRE_FALSE(fifo.ok());
  CHECK(fifo.error().message().find("not a regular file") != std::string::npos);
}

}  // namespace
}  // namespace quarry::extract
