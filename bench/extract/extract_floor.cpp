// quarry_extract_floor KIND --list FILE: the least work a library needs for the facts the
// extract modules take from it, over every file of the list in one process, for the per-format
// "floor" of bench/extract/README.md. No MIME detection, no RDF, no error reports.
//   pdf    poppler-cpp: the file read into memory, every page's text (the pdf module's layout
//          mode), one document kept open so poppler's globals are built once;
//   audio  TagLib FileRef: the tag and the audio properties (Average, as the audio module);
//   image  Exiv2: open and readMetadata;
//   read   the whole file read (the floor of any text-like format).
// Prints: floor kind=K files=N failed=F seconds=S units=U (text units or bytes seen).
#include <exiv2/exiv2.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>
#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "extract/modules/pdf_keeper.h"

namespace {

bool ReadAll(const std::string& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}


size_t Pdf(const std::string& path, std::string& bytes) {
  if (!ReadAll(path, bytes)) return 0;
  const std::unique_ptr<poppler::document> document(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
  if (!document) return 0;
  size_t units = 0;
  for (int index = 0; index < document->pages(); ++index) {
    const std::unique_ptr<poppler::page> page(document->create_page(index));
    if (page) {
      units += page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout).size();
    }
  }
  return units + 1;
}

size_t Audio(const std::string& path) {
  const TagLib::FileRef file(path.c_str(), true, TagLib::AudioProperties::Average);
  if (file.isNull() || file.tag() == nullptr) return 0;
  const TagLib::Tag* tag = file.tag();
  return tag->title().size() + tag->artist().size() + tag->album().size() +
         (file.audioProperties() != nullptr ? 1 : 0) + 1;
}

size_t Image(const std::string& path) {
  try {
    const auto image = Exiv2::ImageFactory::open(path);
    if (image.get() == nullptr) return 0;
    image->readMetadata();
    return image->exifData().count() + image->xmpData().count() + image->iptcData().count() + 1;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[2]) != "--list") {
    std::cerr << "usage: quarry_extract_floor pdf|audio|image|read --list FILE\n";
    return 2;
  }
  const std::string kind = argv[1];
  std::vector<std::string> files;
  std::ifstream list(argv[3]);
  for (std::string line; std::getline(list, line);) {
    if (!line.empty()) files.push_back(line);
  }
  poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr);
  Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
  std::unique_ptr<poppler::document> keeper;
  if (kind == "pdf") {
    const std::string_view pdf = quarry::extract::kKeeperPdf;
    keeper.reset(poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size())));
  } else if (kind != "audio" && kind != "image" && kind != "read") {
    std::cerr << "quarry_extract_floor: unknown kind " << kind << '\n';
    return 2;
  }
  size_t failed = 0;
  size_t units = 0;
  std::string bytes;
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& path : files) {
    size_t got = 0;
    if (kind == "pdf") {
      got = Pdf(path, bytes);
    } else if (kind == "audio") {
      got = Audio(path);
    } else if (kind == "image") {
      got = Image(path);
    } else {
      got = ReadAll(path, bytes) ? bytes.size() + 1 : 0;
    }
    if (got == 0) ++failed;
    units += got;
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  std::cout << fmt::format("floor kind={} files={} failed={} seconds={:.4f} units={}\n", kind,
                           files.size(), failed, seconds.count(), units);
  return 0;
}
