// quarry-extract end to end (label functional), the fixes of issue 6's review: GetMetadata runs
// on the worker slots and answers asynchronously (GetStatus is not held up behind it); results
// made while quarry-store is down are kept and written once it is back, and past the bound the
// files go back to the queue instead of being lost; the [throttle] section of quarry.toml sets
// the workers' CPU budget and a bad value is reported with its key; the [extract] section's
// text_allowlist reaches the workers (issue 5).
#include <doctest/doctest.h>
#include <signal.h>

#include <fmt/format.h>

#include <condition_variable>
#include <mutex>

#include "extract/core/iri.h"
#include "tests/extract/service_fixture.h"

namespace quarry::testing {
namespace {

using extract::FileUrl;
using Strings = std::vector<std::string>;

// A u key of GetStatus; a service without the key reads as kMissing (the check fails, not throws).
constexpr uint32_t kMissing = 0xFFFFFFFF;
uint32_t U32(const ExtractStatus& status, const std::string& key) {
  const auto found = status.find(key);
  return found == status.end() ? kMissing : found->second.get<uint32_t>();
}
Strings Current(const ExtractStatus& status) { return status.at("current").get<Strings>(); }

TEST_CASE("quarry-extract: GetStatus answers while a GetMetadata waits for its worker") {
  ExtractServiceFixture fixture;
  fixture.StartExtract({"--workers", "1", "--timeout", "120", "--cpu-percent", "100"});
  const std::string file = fixture.files().Write("slow.txt", "golf hotel\n").string();
  const int32_t worker = fixture.ReadyWorker();
  REQUIRE(::kill(worker, SIGSTOP) == 0);  // the extraction cannot finish until SIGCONT

  // One connection whose event loop thread handles the replies in the order they arrive.
  auto connection = sdbus::createSessionBusConnectionWithAddress(fixture.bus_address());
  auto proxy = sdbus::createProxy(*connection, kExtractName, kExtractPath);
  connection->enterEventLoopAsync();
  std::mutex mutex;
  std::condition_variable changed;
  Strings events;
  std::string sparql;
  proxy->callMethodAsync("GetMetadata").onInterface(kExtractName)
      .withArguments(FileUrl(file), std::string()).withTimeout(std::chrono::seconds(120))
      .uponReplyInvoke([&](const sdbus::Error* error, const std::string& result) {
        const std::lock_guard lock(mutex);
        events.push_back(error ? "metadata error: " + error->getMessage() : "metadata");
        sparql = result;
        changed.notify_all();
      });
  // Sent after GetMetadata on the same connection, so the service sees it second.
  proxy->callMethodAsync("GetStatus").onInterface(kExtractName)
      .uponReplyInvoke([&](const sdbus::Error* error, const ExtractStatus&) {
        const std::lock_guard lock(mutex);
        events.push_back(error ? "status error" : "status");
        changed.notify_all();
      });
  const auto wait_events = [&](size_t count) {
    std::unique_lock lock(mutex);
    REQUIRE(changed.wait_for(lock, std::chrono::seconds(120), [&] { return events.size() >= count; }));
    return events;
  };
  CHECK(wait_events(1) == Strings{"status"});  // answered while GetMetadata is still running
  // The worker pool has the file: GetStatus shows it in progress.
  ExtractServiceFixture::WaitFor([&] { return Current(fixture.Status()) == Strings{FileUrl(file)}; },
                                 "GetMetadata's file never reached the worker");
  REQUIRE(::kill(worker, SIGCONT) == 0);
  CHECK(wait_events(2) == Strings{"status", "metadata"});
  CHECK(sparql.find("golf hotel") != std::string::npos);
  connection->leaveEventLoop();
  // On demand only: nothing was counted or stored.
  const auto status = fixture.Status();
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 0);
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"golf\" }").empty());
}

// Three files dispatched to one stopped worker; the store is killed before the worker goes on,
// so every result is made while the store is down.
struct StoreDownRun {
  ExtractServiceFixture fixture;
  Strings urls;
  explicit StoreDownRun(const std::string& max_unwritten, const std::string& max_unwritten_kib = "4096",
                        size_t padding = 0) {
    fixture.StartExtract({"--workers", "1", "--cpu-percent", "100", "--max-unwritten", max_unwritten,
                          "--max-unwritten-kib", max_unwritten_kib});
    std::string pad;
    while (pad.size() < padding) pad += "padding words ";
    for (const char* word : {"india", "juliett", "kilo"}) {
      urls.push_back(FileUrl(fixture.files().Write(std::string(word) + ".txt", std::string(word) + " text\n" + pad).string()));
    }
    const int32_t worker = fixture.ReadyWorker();
    REQUIRE(::kill(worker, SIGSTOP) == 0);
    fixture.Queue(urls);  // one Take: all three are looked up in one batch while the store runs
    ExtractServiceFixture::WaitFor([&] { return Current(fixture.Status()) == Strings{urls[0]}; },
                                   "the first file never reached the worker");
    fixture.KillStore();
    REQUIRE(::kill(worker, SIGCONT) == 0);
  }
  void CheckAllWrittenAfterRestart() {
    fixture.RestartStore();
    const ExtractStatus status = fixture.WaitDone(3);
    CHECK(ExtractServiceFixture::Count(status, "extracted") == 3);
    CHECK(U32(status, "unwritten") == 0);
    for (const char* word : {"india", "juliett", "kilo"}) {
      INFO(word);
      CHECK(fixture.Rows(std::string("SELECT ?ie { ?ie fts:match \"") + word + "\" }").size() == 1);
    }
    CHECK(fixture.ExtractRunning());
  }
};

TEST_CASE("quarry-extract: results made while the store is down are written once it is back") {
  StoreDownRun run("256");
  ExtractServiceFixture::WaitFor([&] {  // the worker is through all three files
    const auto status = run.fixture.Status();
    return Current(status).empty() && U32(status, "queued") == 0;
  }, "the worker did not get through the files");
  const auto status = run.fixture.Status();
  CHECK(U32(status, "unwritten") == 3);  // kept, not dropped
  CHECK(status.at("state").get<std::string>() == "extracting");  // not idle: work is pending
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 0);
  run.CheckAllWrittenAfterRestart();
}

TEST_CASE("quarry-extract: past the bound of kept results, files go back to the queue") {
  StoreDownRun run("1");
  // One result kept; the two others dropped and their files queued again (the dispatcher
  // holds them, waiting for the store to look them up).
  ExtractServiceFixture::WaitFor([&] {
    const auto status = run.fixture.Status();
    return Current(status).empty() && U32(status, "unwritten") == 1 && U32(status, "queued") == 2;
  }, "the overflow did not go back to the queue");
  run.CheckAllWrittenAfterRestart();  // re-extracted: each file counted once
}

TEST_CASE("quarry-extract: past the bound of kept bytes, large results go back to the queue") {
  // Three results of ~100 KB of text each, 150 KiB kept at most: the first is kept (one
  // result always fits), the two others do not fit and their files go back to the queue,
  // although the count bound (256) has room. Nothing is lost once the store is back.
  StoreDownRun run("256", "150", 100'000);
  ExtractServiceFixture::WaitFor([&] {
    const auto status = run.fixture.Status();
    return Current(status).empty() && U32(status, "unwritten") == 1 && U32(status, "queued") == 2;
  }, "the results past the byte bound did not go back to the queue");
  run.CheckAllWrittenAfterRestart();
}

TEST_CASE("quarry-extract: with the store up, a full bound waits for the writer, no file extracted twice") {
  ExtractServiceFixture fixture;
  // One kept result at most: every result after the first finds the bound full while the
  // writer writes. The store is there, so the worker waits instead of sending files back.
  fixture.StartExtract({"--workers", "1", "--cpu-percent", "100", "--max-unwritten", "1"},
                       /*capture_stderr=*/true);
  Strings urls;
  for (int i = 0; i < 8; ++i) {
    urls.push_back(FileUrl(fixture.files().Write(fmt::format("busy{}.txt", i), fmt::format("busy text {}\n", i)).string()));
  }
  fixture.Queue(urls);
  const auto status = fixture.WaitDone(urls.size());
  CHECK(ExtractServiceFixture::Count(status, "extracted") == urls.size());
  CHECK(U32(status, "unwritten") == 0);
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"busy\" }").size() == urls.size());
  CHECK(fixture.ExtractLog().find("go back to the queue") == std::string::npos);
}

TEST_CASE("quarry-extract: the workers' CPU budget comes from quarry.toml [throttle]") {
  ExtractServiceFixture fixture;
  SUBCASE("cpu_percent is applied, and files are extracted under it") {
    fixture.WriteConfig("[throttle]\ncpu_percent = 35\n");
    fixture.StartExtract();
    CHECK(U32(fixture.Status(), "cpu_percent") == 35);
    const std::string file = fixture.files().Write("lima.txt", "lima mike\n").string();
    fixture.Queue({FileUrl(file)});
    CHECK(ExtractServiceFixture::Count(fixture.WaitDone(1), "extracted") == 1);
  }
  SUBCASE("Tracker's level, when cpu_percent is absent (the miner's reading)") {
    fixture.WriteConfig("[throttle]\nlevel = 5\n");
    fixture.StartExtract();
    CHECK(U32(fixture.Status(), "cpu_percent") == 80);
  }
  SUBCASE("a bad value is reported with its key and the default is used") {
    fixture.WriteConfig("[throttle]\ncpu_percent = 250\n[index]\nindex_hidden = 3\n");
    fixture.StartExtract({}, /*capture_stderr=*/true);
    CHECK(U32(fixture.Status(), "cpu_percent") == 60);
    const std::string log = fixture.ExtractLog();
    CHECK(log.find("throttle.cpu_percent: 250 is outside 1..100; using default 60") !=
          std::string::npos);
    CHECK(log.find("index_hidden") == std::string::npos);  // the miner reports its own keys
  }
  SUBCASE("--cpu-percent overrides the file") {
    fixture.WriteConfig("[throttle]\ncpu_percent = 35\n");
    fixture.StartExtract({"--cpu-percent", "100"});
    CHECK(U32(fixture.Status(), "cpu_percent") == 100);
  }
}

TEST_CASE("quarry-extract: the workers store text by quarry.toml [extract] text_allowlist") {
  ExtractServiceFixture fixture;
  const std::string notes = fixture.files().Write("notes.md", "# Plan\nnovember papa\n").string();
  const std::string code = fixture.files().Write("tool.py", "quebec = 'romeo'\n").string();
  const auto extract_both = [&] {
    fixture.Queue({FileUrl(notes), FileUrl(code)});
    CHECK(ExtractServiceFixture::Count(fixture.WaitDone(2), "extracted") == 2);
  };
  const auto searchable = [&](const std::string& word) {
    return fixture.Rows("SELECT ?ie { ?ie fts:match \"" + word + "\" }").size() == 1;
  };
  SUBCASE("no config: the default list keeps the notes' text, not the code's") {
    fixture.StartExtract();
    extract_both();
    CHECK(searchable("november"));
    CHECK_FALSE(searchable("quebec"));
    // The code file keeps its other facts.
    const auto facts = fixture.Rows(
        "SELECT ?language ?words { ?ie nfo:programmingLanguage ?language ; nfo:wordCount ?words }");
    CHECK(facts == std::vector<Strings>{{"Python", "3"}});
  }
  SUBCASE("[\"*\"]: every text file, as before") {
    fixture.WriteConfig("[extract]\ntext_allowlist = [\"*\"]\n");
    fixture.StartExtract();
    extract_both();
    CHECK(searchable("november"));
    CHECK(searchable("quebec"));
  }
  SUBCASE("--text-allowlist overrides the file") {
    fixture.WriteConfig("[extract]\ntext_allowlist = [\"*\"]\n");
    fixture.StartExtract({"--text-allowlist", "*.PY"});
    extract_both();
    CHECK_FALSE(searchable("november"));
    CHECK(searchable("quebec"));
  }
  SUBCASE("[]: no text at all") {
    fixture.WriteConfig("[extract]\ntext_allowlist = []\n");
    fixture.StartExtract();
    extract_both();
    CHECK_FALSE(searchable("november"));
    CHECK_FALSE(searchable("quebec"));
  }
  SUBCASE("a bad value is reported with its key and the default is used") {
    fixture.WriteConfig("[extract]\ntext_allowlist = \"*\"\n");
    fixture.StartExtract({}, /*capture_stderr=*/true);
    extract_both();
    CHECK(searchable("november"));
    CHECK_FALSE(searchable("quebec"));
    CHECK(fixture.ExtractLog().find("extract.text_allowlist: expected an array of strings; using "
                                    "default [*.txt, *.text, *.md") != std::string::npos);
  }
}

}  // namespace
}  // namespace quarry::testing
