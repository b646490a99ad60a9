// The pure core: deterministic IRIs, file URLs, registry choice, MIME detection.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "extract/core/iri.h"
#include "extract/core/mime.h"
#include "extract/core/module.h"
#include "store/common/unique_fd.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

TEST_CASE("DeterministicIri: one resource however the name is cased or composed") {
  CHECK(DeterministicIri("artist", {"ABBA"}) == DeterministicIri("artist", {"abba"}));
  // "é" precomposed (U+00E9) and decomposed (e + U+0301) are one name.
  CHECK(DeterministicIri("artist", {"Beyonc\xC3\xA9"}) ==
        DeterministicIri("artist", {"Beyonce\xCC\x81"}));
  CHECK(DeterministicIri("artist", {"Stra\xC3\x9F"
                                    "e"}) == DeterministicIri("artist", {"STRASSE"}));
  CHECK(DeterministicIri("artist", {"ABBA"}) != DeterministicIri("album", {"ABBA"}));
  CHECK(DeterministicIri("artist", {"ABBA"}) == "urn:quarry:artist:abba");
  // Non-ASCII goes through ICU (loaded at run time): folded, NFC, invalid UTF-8 as U+FFFD.
  CHECK(DeterministicIri("artist", {"BEYONCE\xCC\x81"}) == "urn:quarry:artist:beyonc%C3%A9");
  CHECK(DeterministicIri("artist", {"\xCE\xA3\xCE\x9F\xCE\xA6\xCE\x99\xCE\x91"}) ==
        "urn:quarry:artist:%CF%83%CE%BF%CF%86%CE%B9%CE%B1");  // ΣΟΦΙΑ → σοφια
  CHECK(DeterministicIri("tag", {"A\xFF" "B"}) == "urn:quarry:tag:a%EF%BF%BDb");
}

// ICU's own answer (the C++ API, linked into this test): fold, NFC, UTF-8.
std::string IcuFolded(std::string_view text) {
  icu::UnicodeString unicode =
      icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  unicode.foldCase();
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  REQUIRE(U_SUCCESS(status));
  const icu::UnicodeString normalized = nfc->normalize(unicode, status);
  REQUIRE(U_SUCCESS(status));
  std::string out;
  return normalized.toUTF8String(out);
}

TEST_CASE("DeterministicIri: ICU's folding and NFC, whether ICU runs or the Latin-1 path does") {
  std::vector<std::string> names = {"ABBA", "Stra\xC3\x9F" "e", "\xC2\xB5-Tron", "caf\xC3\xA9",
                                    "Beyonce\xCC\x81", "\xC3\x89" "e\xCC\x81", "\xE1\xBA\x9E",
                                    "\xCE\xA3\xCE\x9F\xCE\xA6", "bad \xC3 byte", "\xC0\xAF",
                                    "\xED\x9F\xBF", "\xEF\xAC\x80", "A\xC3\x97" "B"};
  for (unsigned code_point = 0x80; code_point <= 0xFF; ++code_point) {
    names.push_back(std::string("X") + static_cast<char>(0xC0 | code_point >> 6) +
                    static_cast<char>(0x80 | (code_point & 0x3F)) + "y");
  }
  for (const std::string& name : names) {
    INFO(name);
    std::string expected = "urn:quarry:artist:";
    AppendIriEncoded(IcuFolded(name), "", expected);
    CHECK(DeterministicIri("artist", {name}) == expected);
  }
}

TEST_CASE("DeterministicIri: parts are separated unambiguously and encoded") {
  CHECK(DeterministicIri("album", {"a b", "c"}) != DeterministicIri("album", {"a", "b c"}));
  CHECK(DeterministicIri("album", {"a/b", "c"}) != DeterministicIri("album", {"a", "b/c"}));
  CHECK(DeterministicIri("album", {"a b", "c"}) == "urn:quarry:album:a%20b/c");
  CHECK(DeterministicIri("tag", {"<x> \"y\""}) == "urn:quarry:tag:%3Cx%3E%20%22y%22");
}

TEST_CASE("FileUrl and ElementIri keep the case and encode every odd byte") {
  CHECK(FileUrl("/home/u/A b#1.pdf") == "file:///home/u/A%20b%231.pdf");
  CHECK(FileUrl("/x/bad-\xFF.txt") == "file:///x/bad-%FF.txt");
  CHECK(ElementIri(FileUrl("/a/A.pdf")) != ElementIri(FileUrl("/a/a.pdf")));
  CHECK(ElementIri("file:///a.pdf") == "urn:quarry:ie:file:///a.pdf");
}

class FakeModule final : public Module {
 public:
  FakeModule(std::string name, std::vector<std::string> types, std::vector<std::string> exts)
      : name_(std::move(name)), types_(std::move(types)), extensions_(std::move(exts)) {}
  std::string_view name() const override { return name_; }
  std::vector<std::string> mime_types() const override { return types_; }
  std::vector<std::string> extensions() const override { return extensions_; }
  Result<void> Extract(const FileInput&, const Limits&, Extraction&) const override { return Ok(); }

 private:
  std::string name_;
  std::vector<std::string> types_;
  std::vector<std::string> extensions_;
};

TEST_CASE("Registry: exact MIME type, then wildcard, then extension for vague types only") {
  Registry registry;
  registry.Register(std::make_unique<FakeModule>("audio", std::vector<std::string>{"audio/*"},
                                                 std::vector<std::string>{"mp3"}));
  registry.Register(std::make_unique<FakeModule>(
      "playlist", std::vector<std::string>{"audio/x-mpegurl"}, std::vector<std::string>{"m3u"}));
  registry.Register(std::make_unique<FakeModule>("pdf", std::vector<std::string>{"application/pdf"},
                                                 std::vector<std::string>{"pdf"}));
  const auto name_of = [&](std::string_view mime, std::string_view file) -> std::string {
    const Module* module = registry.Find(mime, file);
    return module ? std::string(module->name()) : "none";
  };
  CHECK(name_of("audio/x-mpegurl", "a.m3u") == "playlist");  // exact beats an earlier wildcard
  CHECK(name_of("audio/flac", "a.flac") == "audio");
  CHECK(name_of("application/pdf", "really-a-pdf.mp3") == "pdf");  // content beats the name
  CHECK(name_of("application/octet-stream", "x/A.PDF") == "pdf");
  CHECK(name_of("inode/x-empty", "empty.mp3") == "audio");
  CHECK(name_of("image/png", "a.pdf") == "none");  // a known other type keeps its type
  CHECK(name_of("application/octet-stream", "noext") == "none");
}

TEST_CASE("DetectMimeType: content first, the extension breaks ties") {
  testing::TempDir dir;
  const auto type_of = [&](const std::string& name, const std::string& bytes) {
    const auto path = dir.Write(name, bytes);
    const UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(fd.valid());
    auto mime = DetectMimeType(fd.get(), path.string());
    REQUIRE(mime.ok());
    return *mime;
  };
  CHECK(type_of("a.mp3", "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n") ==
        "application/pdf");
  CHECK(type_of("notes.md", "# Title\n\nSome text.\n") == "text/markdown");
  CHECK(type_of("plain.txt", "Some text.\n") == "text/plain");
  CHECK(type_of("empty.pdf", "") == "inode/x-empty");
  // The text fast path leaves what libmagic names specifically to libmagic.
  CHECK(type_of("page.txt", "<!DOCTYPE html>\n<html><body>Hi</body></html>\n") == "text/html");
  CHECK(type_of("run.txt", "#!/bin/sh\necho hi\n") == "text/x-shellscript");
  CHECK(type_of("data.csv", "a,b\n1,2\n3,4\n") == "text/csv");
}

}  // namespace
}  // namespace quarry::extract
