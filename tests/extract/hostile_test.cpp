// The hostile set (gen-corpus --hostile) through the pipeline with the PDF and audio modules:
// each file is extracted or refused with an error that names it and says why; nothing crashes
// or blocks (the FIFO), and content wins over a lying extension.
#include <doctest/doctest.h>

#include "extract/core/vocab.h"
#include "extract/modules/audio_module.h"
#include "extract/modules/pdf_module.h"
#include "tests/extract/extract_test_util.h"

namespace quarry::extract {
namespace {

Registry PdfAndAudio() {
  Registry registry;
  registry.Register(MakePdfModule());
  registry.Register(MakeAudioModule());
  return registry;
}

Result<FileResult> ExtractCorpusFile(const Registry& registry, const std::string& relative) {
  return ExtractFile(registry, testing::kCorpusDir + "/" + relative, Limits{});
}

TEST_CASE("Hostile files: extracted or refused with the file's name and a reason") {
  const Registry registry = PdfAndAudio();
  int refused = 0;
  for (const auto& entry : testing::Entries({"hostile", "symlink", "fifo"})) {
    if (!entry.contains("path") || entry["path"].get<std::string>().back() == '/') continue;
    const std::string path = testing::CorpusPath(entry);
    INFO(path << " (" << entry.value("desc", "") << ")");
    const auto result = ExtractFile(registry, path, Limits{});
    if (result) continue;
    ++refused;
    const std::string message = result.error().ToString();
    INFO(message);
    CHECK(message.find(path) != std::string::npos);
    CHECK(message.size() > path.size() + 10);  // a reason, not just the name
  }
  CHECK(refused >= 10);
}

TEST_CASE("Hostile files: the specific verdicts") {
  const Registry registry = PdfAndAudio();
  const auto error_of = [&](const std::string& relative) {
    const auto result = ExtractCorpusFile(registry, relative);
    REQUIRE_FALSE(result.ok());
    return result.error();
  };
  SUBCASE("zero-byte files") {
    CHECK(error_of("hostile/empty/empty.pdf").ToString().find("empty file") != std::string::npos);
    CHECK(error_of("hostile/empty/empty.mp3").code() == Errc::kCorrupt);
    CHECK(error_of("hostile/empty/empty.flac").code() == Errc::kCorrupt);
  }
  SUBCASE("broken PDFs and audio") {
    CHECK(error_of("hostile/pdf/garbage-body.pdf").code() == Errc::kCorrupt);
    CHECK(error_of("hostile/pdf/truncated-half.pdf").code() == Errc::kCorrupt);
  }
  SUBCASE("not regular files") {
    CHECK(error_of("hostile/special/named-pipe.txt").ToString().find("not a regular file") !=
          std::string::npos);
    CHECK(error_of("hostile/links/self-loop").code() == Errc::kIo);
    CHECK(error_of("hostile/links/dangling.txt").code() == Errc::kNotFound);
  }
  SUBCASE("no module for the type") {
    CHECK(error_of("hostile/huge/sparse-256MiB.bin").code() == Errc::kUnsupported);
  }
  SUBCASE("a lying extension decides the type, as in GIO, and fails cleanly") {
    // shared-mime-info typing (core/mime.h): one glob decides without reading, so a PDF named
    // .mp3 is audio/mpeg (what GIO and Tracker 3 say) and the audio module refuses it.
    const auto pdf = ExtractCorpusFile(registry, "hostile/wrong-ext/really-a-pdf.mp3");
    REQUIRE_FALSE(pdf.ok());
    CHECK(pdf.error().ToString().find("extractor audio") != std::string::npos);
    const auto mp3 = ExtractCorpusFile(registry, "hostile/wrong-ext/really-an-mp3.pdf");
    REQUIRE_FALSE(mp3.ok());
    CHECK(mp3.error().ToString().find("extractor pdf") != std::string::npos);
  }
  SUBCASE("3000 empty pages") {
    const auto pages = ExtractCorpusFile(registry, "hostile/pdf/many-pages-empty.pdf");
    REQUIRE(pages.ok());
    CHECK(testing::One<int64_t>(pages->extraction.element, vocab::Nfo("pageCount")) == 3000);
  }
}

}  // namespace
}  // namespace quarry::extract
