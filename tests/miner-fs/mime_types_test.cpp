// The miner's nie:mimeType (miner-fs/mime_types.h): shared-mime-info's names as GIO gives them,
// by name without a read when one glob decides, by content otherwise; the same answer the
// extractor's DetectMimeType gives, so the two writers of nie:mimeType agree.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "extract/core/mime.h"
#include "miner-fs/mime_types.h"
#include "store/common/unique_fd.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner {
namespace {

TEST_CASE("MimeDetector: shared-mime-info names, by name first, agreeing with the extractor") {
  REQUIRE_MESSAGE(!extract::MimeInfo().empty(),
                  "shared-mime-info is not installed (scripts/install-deps)");
  testing::TempDir dir;
  const std::string pdf = "%PDF-1.4\n1 0 obj\n<<>>\nendobj\n";
  struct Case {
    std::string name;
    std::string bytes;
    std::string_view expected;
  };
  const Case cases[] = {
      {"main.c", "int main(void) { return 0; }\n", "text/x-csrc"},
      {"lib.cpp", "int f();\n", "text/x-c++src"},
      {"NOTES.TXT", "words\n", "text/plain"},
      {"paper.txt", pdf, "text/plain"},  // the name decides, as in GIO
      {"paper", pdf, "application/pdf"},
      {"script", "#!/bin/sh\necho hi\n", "application/x-shellscript"},
      {"Makefile", "all:\n", "text/x-makefile"},
      {"song.MP3", "ID3\x04", "audio/mpeg"},
      {"song.flac", "fLaC", "audio/flac"},
      {"data.json", "[1, 2]\n", "application/json"},  // conflicting globs, text content
      {"empty", "", "application/x-zerosize"},
  };
  MimeDetector detector;
  for (const Case& file : cases) {
    INFO(file.name);
    const auto path = dir.Write(file.name, file.bytes);
    CHECK(detector.Detect(file.name, dir.path().string()) == file.expected);
    const UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(fd.get() >= 0);
    auto extracted = extract::DetectMimeType(fd.get(), path.string());
    REQUIRE(extracted.ok());
    CHECK(*extracted == file.expected);
  }
  // By name alone only when one glob decides.
  CHECK(GuessMimeType("a.c") == "text/x-csrc");
  CHECK(GuessMimeType("A.JPG") == "image/jpeg");
  CHECK(GuessMimeType("a.json").empty());  // application/json and application/schema+json
  CHECK(GuessMimeType("noextension").empty());
  // Content that cannot be read: the name's first glob, else octet-stream; never an error.
  CHECK(detector.Detect("gone.json", dir.path().string()) == "application/json");
  CHECK(detector.Detect("gone", dir.path().string()) == "application/octet-stream");
  const auto locked = dir.Write("locked", pdf);
  ::chmod(locked.c_str(), 0);
  if (::access(locked.c_str(), R_OK) != 0) {  // root reads it anyway
    CHECK(detector.Detect("locked", dir.path().string()) == "application/octet-stream");
  }
  const std::string fifo = (dir.path() / "pipe").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(detector.Detect("pipe", dir.path().string()) == "application/octet-stream");
}

}  // namespace
}  // namespace quarry::miner
