// quarry-miner-fs against quarry-store on a private bus, on a gen-corpus tree (issue 5 "Tests").
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "miner-fs/config.h"
#include "miner-fs/ignore_rules.h"
#include "store/common/unique_fd.h"
#include "tests/miner-fs/miner_fixture.h"

namespace quarry::miner {
namespace {

using testing::MinerFixture;

const std::string kCountFiles = "SELECT (COUNT(?f) AS ?c) { ?f a nfo:FileDataObject ; nie:mimeType ?m }";

// The manifest's files that the default rules index, plus MANIFEST.json itself.
size_t ExpectedFiles(const std::filesystem::path& corpus) {
  const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(corpus / "MANIFEST.json"));
  const IgnoreRules rules(DefaultConfig(UserDirs{"/nonexistent", {}}));
  size_t expected = 1;
  for (const auto& file : manifest["files"]) {
    const std::filesystem::path relative = file["path"].get<std::string>();
    std::filesystem::path folder = corpus;
    bool is_ignored = false;
    for (const auto& segment : relative.parent_path()) {
      folder /= segment;
      is_ignored |= rules.IgnoresFolder(segment.string(), folder.string());
    }
    is_ignored |= rules.IgnoresFile(relative.filename().string(), (corpus / relative).string());
    if (!is_ignored) ++expected;
  }
  return expected;
}

TEST_CASE("miner-fs: the corpus is indexed as the manifest says, a restart writes nothing") {
  MinerFixture fixture;
  fixture.StartMiner();
  fixture.WaitUntilIdle();
  const size_t expected = ExpectedFiles(fixture.corpus());
  CHECK(expected > 80);  // the corpus has ~2 % hidden files
  CHECK(fixture.Value(kCountFiles) == std::to_string(expected));
  const auto first = fixture.Counts();
  CHECK(first.at("found") == expected);
  CHECK(first.at("failed") == 0);
  // No quarry-extract on this bus: every file is left for it to find when it starts.
  CHECK(first.at("waiting") + first.at("deferred") == expected);
  CHECK(first.at("handed_off") == 0);

  const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(fixture.corpus() / "MANIFEST.json"));
  for (const auto& file : manifest["files"]) {
    if (file["hidden"].get<bool>()) continue;
    const std::string uri = FileUri((fixture.corpus() / file["path"].get<std::string>()).string());
    CHECK(fixture.Value(fmt::format("SELECT ?s {{ ?f nie:url {} ; nfo:fileSize ?s }}", SparqlString(uri))) ==
          std::to_string(file["size"].get<int64_t>()));
  }
  const std::string resources_before = fixture.Value("SELECT (MAX(tracker:id(?f)) AS ?m) { ?f a nfo:FileDataObject }");

  fixture.StopMiner();
  fixture.StartMiner();
  fixture.WaitUntilIdle();
  const auto second = fixture.Counts();
  CHECK(second.at("found") == expected);
  CHECK(second.at("indexed") == 0);  // no update was sent
  CHECK(second.at("waiting") + second.at("deferred") == 0);
  CHECK(fixture.Value(kCountFiles) == std::to_string(expected));
  CHECK(fixture.Value("SELECT (MAX(tracker:id(?f)) AS ?m) { ?f a nfo:FileDataObject }") == resources_before);
}

TEST_CASE("miner-fs: changes while running are reflected in queries") {
  MinerFixture fixture;
  const std::filesystem::path work = fixture.corpus() / "Documents" / "Work area";
  fixture.dir.Write("corpus/Documents/Work area/keep.txt", "kept");
  fixture.dir.Write("corpus/Documents/Work area/inner/deep.txt", "deep");
  fixture.StartMiner();
  fixture.WaitUntilIdle();
  const std::string deep_id = fixture.Value(fmt::format(
      "SELECT (tracker:id(?f) AS ?id) {{ ?f nie:url {} }}", SparqlString(FileUri((work / "inner/deep.txt").string()))));
  REQUIRE(!deep_id.empty());

  SUBCASE("create and modify a file") {
    fixture.dir.Write("corpus/Documents/Work area/new note.txt", "hello");
    fixture.WaitForValue(fmt::format("SELECT ?s {{ ?f nie:url {} ; nfo:fileSize ?s }}",
                                     SparqlString(FileUri((work / "new note.txt").string()))), "5");
    fixture.dir.Write("corpus/Documents/Work area/new note.txt", "hello, world");
    fixture.WaitForValue(fmt::format("SELECT ?s {{ ?f nie:url {} ; nfo:fileSize ?s }}",
                                     SparqlString(FileUri((work / "new note.txt").string()))), "12");
  }
  SUBCASE("delete a file") {
    std::filesystem::remove(work / "keep.txt");
    fixture.WaitForValue(fixture.CountUrl(work / "keep.txt"), "0");
  }
  SUBCASE("rename a file") {
    std::filesystem::rename(work / "keep.txt", work / "renamed.txt");
    fixture.WaitForValue(fixture.CountUrl(work / "renamed.txt"), "1");
    CHECK(fixture.Value(fixture.CountUrl(work / "keep.txt")) == "0");
  }
  SUBCASE("move a folder: its resources stay, their URIs change") {
    std::filesystem::rename(work, fixture.corpus() / "Desktop" / "Moved here");
    const std::filesystem::path moved = fixture.corpus() / "Desktop" / "Moved here" / "inner/deep.txt";
    fixture.WaitForValue(fmt::format("SELECT (tracker:id(?f) AS ?id) {{ ?f nie:url {} }}",
                                     SparqlString(FileUri(moved.string()))), deep_id);
    CHECK(fixture.Value(fixture.CountUrl(work / "inner/deep.txt")) == "0");
    // The monitor follows the folder to its new place.
    fixture.dir.Write("corpus/Desktop/Moved here/inner/later.txt", "later");
    fixture.WaitForValue(fixture.CountUrl(fixture.corpus() / "Desktop/Moved here/inner/later.txt"), "1");
  }
  SUBCASE("delete a folder: every descendant goes") {
    std::filesystem::remove_all(work);
    fixture.WaitForValue(fixture.CountUrl(work), "0");
    fixture.WaitForValue(fixture.CountUrl(work / "inner/deep.txt"), "0");
  }
  SUBCASE("a new folder with content") {
    fixture.dir.Write("corpus/Documents/Work area/fresh/one.txt", "1");
    fixture.WaitForValue(fixture.CountUrl(work / "fresh/one.txt"), "1");
  }
}

TEST_CASE("miner-fs: hostile names get correct URIs or are skipped") {
  MinerFixture fixture;
  const std::filesystem::path hostile = fixture.corpus() / "Documents" / "hostile";
  fixture.dir.Write("corpus/Documents/hostile/quote\" back\\slash.txt", "q");
  fixture.dir.Write("corpus/Documents/hostile/line\nbreak.txt", "n");
  fixture.dir.Write("corpus/Documents/hostile/100% #1 ?.txt", "p");
  fixture.dir.Write("corpus/Documents/hostile/日本語 🎵.txt", "u");
  fixture.dir.Write(std::string("corpus/Documents/hostile/latin1-\xe9.txt"), "not utf-8");
  fixture.StartMiner();
  fixture.WaitUntilIdle();
  for (const char* name : {"quote\" back\\slash.txt", "line\nbreak.txt", "100% #1 ?.txt", "日本語 🎵.txt"}) {
    CAPTURE(name);
    CHECK(fixture.Value(fmt::format("SELECT ?n {{ ?f nie:url {} ; nfo:fileName ?n }}",
                                    SparqlString(FileUri((hostile / name).string())))) == name);
  }
  CHECK(fixture.Value(fixture.CountUrl(hostile / "latin1-\xe9.txt")) == "0");
  CHECK(fixture.Value(fmt::format("SELECT ?u {{ ?f nfo:fileName \"100% #1 ?.txt\" ; nie:url ?u }}"))
            .ends_with("/hostile/100%25%20%231%20%3F.txt"));
}

}  // namespace
}  // namespace quarry::miner
