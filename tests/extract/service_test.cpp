// quarry-extract end to end (label functional): a private bus, quarry-store and the service.
// Hostile files never take it down and each failure is recorded; a worker killed mid-file or
// hung past the time limit is replaced and the queue goes on; a restart picks up unextracted
// files; a file extracted at its current mtime is not extracted again; results land on the
// miner's file resource; every word of a long text is searchable.
#include <doctest/doctest.h>
#include <signal.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "extract/core/iri.h"
#include "extract/service/extract_state.h"
#include "extract/service/worker_main.h"
#include "tests/extract/extract_test_util.h"
#include "tests/extract/service_fixture.h"

namespace quarry::testing {
namespace {

using extract::FileUrl;

// What the store recorded per URL: (extractedMtime, failure, failed extractor).
std::map<std::string, std::vector<std::string>> Recorded(ExtractServiceFixture& fixture) {
  std::map<std::string, std::vector<std::string>> recorded;
  for (auto& row : fixture.Rows(
           "SELECT ?u ?m ?f ?e { ?r nie:url ?u ; qxo:extractedMtime ?m . "
           "OPTIONAL { ?r qxo:extractionFailure ?f } OPTIONAL { ?r qxo:failedExtractor ?e } }")) {
    recorded[row[0]] = {row[1], row[2], row[3]};
  }
  return recorded;
}

// A miner-fs style file resource (urn:quarry:file:…, nie:url, nfo:fileLastModified).
void InsertMinerFile(ExtractServiceFixture& fixture, const std::string& iri, const std::string& path) {
  const std::string update = fmt::format(
      "INSERT DATA {{ <{}> a nfo:FileDataObject, nie:InformationElement ; nie:url \"{}\" ; "
      "nfo:fileName \"f\" ; nfo:fileSize 1 ; "
      "nfo:fileLastModified \"{}\"^^xsd:dateTime }}",
      iri, FileUrl(path), extract::service::MtimeLiteral(MtimeMicros(path)));
  REQUIRE(fixture.Store().Update(update).ok());
}

TEST_CASE("quarry-extract: the hostile set never takes it down and each failure is recorded") {
  ExtractServiceFixture fixture;
  fixture.StartExtract({"--timeout", "60"});
  std::vector<std::string> urls;
  for (const auto& entry : Entries({"hostile", "fifo"})) {
    const std::string path = CorpusPath(entry);
    if (path.back() == '/' || !std::filesystem::is_regular_file(path)) continue;
    urls.push_back(FileUrl(path));
  }
  const std::string fifo = kCorpusDir + "/hostile/special/named-pipe.txt";
  urls.push_back(FileUrl(fifo));  // not a regular file: dropped, not opened
  fixture.Queue(urls);
  const ExtractStatus status = fixture.WaitDone(urls.size() - 1);
  CHECK(ExtractServiceFixture::Count(status, "failed") >= 10);
  const auto recorded = Recorded(fixture);
  for (size_t i = 0; i + 1 < urls.size(); ++i) {
    INFO(urls[i]);
    CHECK(recorded.count(urls[i]) == 1);
  }
  CHECK(recorded.count(FileUrl(fifo)) == 0);
  size_t failures = 0;
  for (const auto& [url, values] : recorded) failures += values[1].empty() ? 0 : 1;
  CHECK(failures == ExtractServiceFixture::Count(status, "failed"));
  const auto& empty_pdf = recorded.at(FileUrl(kCorpusDir + "/hostile/empty/empty.pdf"));
  CHECK(empty_pdf[1].find("empty file") != std::string::npos);
  CHECK(empty_pdf[2] == "pdf");
  CHECK(recorded.at(FileUrl(kCorpusDir + "/hostile/pdf/garbage-body.pdf"))[2] == "pdf");
  CHECK(fixture.ExtractRunning());
}

TEST_CASE("quarry-extract: workers start with the service's glibc tcache count") {
  ExtractServiceFixture fixture;
  fixture.StartExtract({"--workers", "1"});
  const int32_t worker = fixture.ReadyWorker();
  std::ifstream environ(fmt::format("/proc/{}/environ", worker), std::ios::binary);
  REQUIRE(environ);
  std::string tunables;
  for (std::string item; std::getline(environ, item, '\0');) {
    if (item.starts_with("GLIBC_TUNABLES=")) tunables = item.substr(15);
  }
  // The service inherited this test's environment and adds its count to it.
  CHECK(tunables == extract::service::WorkerGlibcTunables(std::getenv("GLIBC_TUNABLES")));
  CHECK(tunables.find("glibc.malloc.tcache_count=") != std::string::npos);
}

TEST_CASE("quarry-extract: a worker SIGKILLed mid-file is replaced and the queue goes on") {
  ExtractServiceFixture fixture;
  fixture.StartExtract({"--workers", "1"});
  const std::string a = fixture.files().Write("a.txt", "alpha words here\n").string();
  const std::string b = fixture.files().Write("b.txt", "bravo words here\n").string();
  const int32_t first = fixture.ReadyWorker();
  REQUIRE(::kill(first, SIGSTOP) == 0);  // the worker cannot finish a.txt …
  fixture.Queue({FileUrl(a)});
  ExtractServiceFixture::WaitFor([&] {
    const auto current = fixture.Status().at("current").get<std::vector<std::string>>();
    return current == std::vector<std::string>{FileUrl(a)};
  }, "a.txt never reached the worker");
  REQUIRE(::kill(first, SIGKILL) == 0);  // … and dies in the middle of it
  fixture.WaitDone(1);
  fixture.ReadyWorker(/*other_than=*/first);  // replaced
  const auto failure = Recorded(fixture).at(FileUrl(a));
  CHECK(failure[1].find("SIGKILL") != std::string::npos);
  // Stopped before it read the request, the worker never named a module: none is blamed.
  CHECK(failure[2].empty());
  fixture.Queue({FileUrl(b)});
  const auto status = fixture.WaitDone(2);
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 1);
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"bravo\" }").size() == 1);
}

TEST_CASE("quarry-extract: a recorded failure is cleared by the file's next result") {
  ExtractServiceFixture fixture;
  const std::string a = fixture.files().Write("a.txt", std::string("bin\0ary\n", 8)).string();
  const std::string b = fixture.files().Write("b.txt", "golf words here\n").string();
  InsertMinerFile(fixture, "urn:quarry:file:0a", a);
  InsertMinerFile(fixture, "urn:quarry:file:0b", b);
  fixture.StartExtract({"--workers", "1"});
  fixture.WaitDone(2);  // the backlog: a fails (binary data), b is extracted
  REQUIRE(Recorded(fixture).at(FileUrl(a))[1].find("binary data") != std::string::npos);
  CHECK(Recorded(fixture).at(FileUrl(b))[1].empty());

  // a.txt fixed: its lookup finds it tried before, and its result removes the failure.
  fixture.files().Write("a.txt", "hotel words here\n");
  const auto later = std::filesystem::last_write_time(a) + std::chrono::seconds(5);
  std::filesystem::last_write_time(a, later);
  fixture.Queue({FileUrl(a)});
  fixture.WaitDone(3);
  const auto fixed = Recorded(fixture).at(FileUrl(a));
  CHECK(fixed[0] == extract::service::MtimeLiteral(MtimeMicros(a)));
  CHECK(fixed[1].empty());
  CHECK(fixed[2].empty());
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"hotel\" }").size() == 1);

  // c.txt, never tried, queued again while the worker holds it: its second lookup runs before
  // the first result is written, so it cannot see the failure that result records (the worker
  // killed); the second result clears it all the same.
  const std::string c = fixture.files().Write("c.txt", "india words here\n").string();
  InsertMinerFile(fixture, "urn:quarry:file:0c", c);
  const int32_t first = fixture.ReadyWorker();
  REQUIRE(::kill(first, SIGSTOP) == 0);
  fixture.Queue({FileUrl(c)});
  ExtractServiceFixture::WaitFor([&] {
    const auto current = fixture.Status().at("current").get<std::vector<std::string>>();
    return current == std::vector<std::string>{FileUrl(c)};
  }, "c.txt never reached the worker");
  fixture.Queue({FileUrl(c)});
  // Let the dispatcher look the second c.txt up (it waits for exactly this in Take) before the
  // first result exists; had it looked later it would see the failure itself, and the checks
  // below would hold without the writer's memory of failures.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  REQUIRE(::kill(first, SIGKILL) == 0);
  const auto status = fixture.WaitDone(5);
  CHECK(ExtractServiceFixture::Count(status, "failed") == 2);  // a.txt at first, c.txt's first
  fixture.ReadyWorker(/*other_than=*/first);
  const auto again = Recorded(fixture).at(FileUrl(c));
  CHECK(again[0] == extract::service::MtimeLiteral(MtimeMicros(c)));
  CHECK(again[1].empty());
  CHECK(again[2].empty());
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"india\" }").size() == 1);
}

TEST_CASE("quarry-extract: a file past the time limit is recorded as a timeout") {
  ExtractServiceFixture fixture;
  fixture.StartExtract({"--workers", "1", "--timeout", "1.5"});
  const std::string slow = fixture.files().Write("slow.txt", "hung\n").string();
  const std::string next = fixture.files().Write("next.txt", "charlie\n").string();
  // GetStatus lists a worker once it is ready, so the stop below hits it waiting for a file.
  const int32_t first = fixture.ReadyWorker();
  REQUIRE(::kill(first, SIGSTOP) == 0);  // a worker that never answers: a hang
  fixture.Queue({FileUrl(slow), FileUrl(next)});
  const auto status = fixture.WaitDone(2);
  CHECK(ExtractServiceFixture::Count(status, "failed") == 1);
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 1);
  CHECK(Recorded(fixture).at(FileUrl(slow))[1] == "timed out after 1500 ms");
  fixture.ReadyWorker(/*other_than=*/first);  // replaced
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"charlie\" }").size() == 1);
}

TEST_CASE("quarry-extract: writes onto the miner's resource, resumes after a restart, skips "
          "files extracted at their mtime") {
  ExtractServiceFixture fixture;
  const std::string one = fixture.files().Write("one.txt", "first delta file\n").string();
  const std::string two = fixture.files().Write("two.txt", "second echo file\n").string();
  InsertMinerFile(fixture, "urn:quarry:file:01", one);
  fixture.StartExtract();
  fixture.WaitDone(1);  // the backlog: one.txt, never queued by anyone
  const auto element = fixture.Rows(
      "SELECT ?ie ?m { <urn:quarry:file:01> nie:interpretedAs ?ie ; qxo:extractedMtime ?m . "
      "?ie nie:isStoredAs <urn:quarry:file:01> ; nie:plainTextContent ?t }");
  REQUIRE(element.size() == 1);
  CHECK(element[0][1] == extract::service::MtimeLiteral(MtimeMicros(one)));
  CHECK(fixture.Rows("SELECT ?r { ?r nie:url \"" + FileUrl(one) + "\" }").size() == 1);
  fixture.StopExtract();

  InsertMinerFile(fixture, "urn:quarry:file:02", two);
  fixture.StartExtract();
  auto status = fixture.WaitDone(1);  // only two.txt: one.txt is extracted at its mtime
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 1);
  CHECK(fixture.Rows("SELECT ?ie { <urn:quarry:file:02> nie:interpretedAs ?ie . "
                     "?ie fts:match \"echo\" }").size() == 1);
  fixture.Queue({FileUrl(one)});
  status = fixture.WaitDone(2);
  CHECK(ExtractServiceFixture::Count(status, "skipped") == 1);
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 1);
}

TEST_CASE("quarry-extract: every word of a long text is searchable and GetMetadata stores nothing") {
  ExtractServiceFixture fixture;
  fixture.StartExtract();
  std::string text;
  for (int i = 0; i < 12'000; ++i) text += (i == 11'000 ? "zanzibarquill" : "word" + std::to_string(i)) + " ";
  const std::string path = fixture.files().Write("long.txt", text).string();
  const std::string other = fixture.files().Write("other.txt", "foxtrot only\n").string();
  CHECK(fixture.GetMetadata(FileUrl(other)).find("foxtrot only") != std::string::npos);
  fixture.Queue({FileUrl(path)});
  fixture.WaitDone(1);
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"zanzibarquill\" }").size() == 1);
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"foxtrot\" }").empty());
  CHECK_THROWS_AS(fixture.Queue({"http://example.org/x"}), sdbus::Error);
}

TEST_CASE("quarry-extract: results of many files share one store transaction and a lone file is "
          "written at once") {
  ExtractServiceFixture fixture;
  // A linger far beyond the test's wait: a batch is sent only when it is full (128) or nothing
  // else is in flight, never because the time ran out.
  fixture.StartExtract({"--write-linger-ms", "600000"});
  std::vector<std::string> urls;
  for (int i = 0; i < 200; ++i) {
    urls.push_back(FileUrl(
        fixture.files().Write(fmt::format("batch{}.txt", i), fmt::format("word{} text\n", i)).string()));
  }
  fixture.Queue(urls);
  auto status = fixture.WaitDone(200);
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 200);
  // One update per file, one BatchSparqlUpdate per 128 results (issue 5: fewer FTS5 segments),
  // plus one more when the dispatcher held the last files between two queue looks. 64 per
  // batch would take 4 or more; written as ready: ~100.
  CHECK(ExtractServiceFixture::Count(status, "write_batches") <= 3);
  CHECK(fixture.Rows("SELECT ?u { ?r nie:url ?u ; qxo:extractedMtime ?m }").size() == 200);

  // Nothing else in flight: the one result is written without waiting for company.
  const std::string lone = fixture.files().Write("lone.txt", "solitary kestrel\n").string();
  fixture.Queue({FileUrl(lone)});
  status = fixture.WaitDone(201);
  CHECK(fixture.Rows("SELECT ?ie { ?ie fts:match \"kestrel\" }").size() == 1);
}

TEST_CASE("quarry-extract: GetStatus counts the time worker slots waited for room to keep a result") {
  ExtractServiceFixture fixture;
  // Room for one result: while the writer has it at the store, a slot with the next result
  // waits (blocked_ms). No CPU budget: a slot resting after each file would rarely wait.
  fixture.StartExtract({"--max-unwritten", "1", "--cpu-percent", "100"});
  std::vector<std::string> urls;
  for (int i = 0; i < 200; ++i) {
    urls.push_back(FileUrl(
        fixture.files().Write(fmt::format("wait{}.txt", i), fmt::format("wait{} text\n", i)).string()));
  }
  auto status = fixture.Status();
  CHECK(ExtractServiceFixture::Count(status, "blocked_ms") == 0);
  CHECK(ExtractServiceFixture::Count(status, "starved_ms") == 0);
  // Once results flow, the store is frozen: the write in flight cannot finish, so a slot with
  // the next result waits for room for as long as the store stays frozen. (Without the freeze
  // the waits depended on whether the workers or the store were faster on the loaded machine:
  // their sum could stay under 1 ms, 4 runs in 30.)
  fixture.Queue(urls);
  // Asked without pause: a result is unwritten for most of the flow, which a poll every
  // 20 ms could miss entirely when the store is fast.
  for (;;) {
    const auto flowing = fixture.Status();
    if (flowing.at("unwritten").get<uint32_t>() >= 1) break;
    REQUIRE_MESSAGE(ExtractServiceFixture::Count(flowing, "extracted") < urls.size(),
                    "every result was written before one was seen waiting");
    std::this_thread::yield();
  }
  fixture.FreezeStore(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  fixture.FreezeStore(false);
  status = fixture.WaitDone(200);
  CHECK(ExtractServiceFixture::Count(status, "extracted") == 200);
  CHECK(ExtractServiceFixture::Count(status, "blocked_ms") >= 1);
}

}  // namespace
}  // namespace quarry::testing
