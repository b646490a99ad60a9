// The pure parts of `quarry status`, the CPU budget and the extraction hand-off.
#include <doctest/doctest.h>

#include "miner-fs/cpu_budget.h"
#include "miner-fs/extraction_queue.h"
#include "miner-fs/status_report.h"

namespace quarry::miner {
namespace {

using std::chrono::microseconds;

TEST_CASE("Status: bar, durations, sizes") {
  CHECK(ProgressBar(0.0, 4) == "[----]");
  CHECK(ProgressBar(0.5, 4) == "[##--]");
  CHECK(ProgressBar(1.7, 4) == "[####]");
  CHECK(FormatDuration(65) == "1:05");
  CHECK(FormatDuration(3723) == "1:02:03");
  CHECK(FormatDuration(-1) == "?");
  CHECK(FormatBytes(512) == "512 B");
  CHECK(FormatBytes(12'345'678) == "12.3 MB");
}

TEST_CASE("Status: a crawling, paused-by-nobody miner with the watch limit reached") {
  StatusReport report;
  report.store_state = "Idle";
  MinerReport miner;
  miner.name = "Files";
  miner.state = "Crawling";
  miner.progress = 0.25;
  miner.remaining_seconds = 90;
  miner.counts = {{"found", 40}, {"indexed", 30}, {"waiting", 5}, {"deferred", 7}, {"failed", 1},
                  {"folders", 9}, {"watched", 4}, {"unwatched", 5}, {"watch_limit_reached", 1}};
  miner.current = "/home/ada/Documents/reports";
  miner.errors = {"store unavailable"};
  report.miner = miner;
  report.database_bytes = 2'500'000;
  report.database_path = "/db";
  const std::string text = FormatStatus(report);
  CHECK(text.find("Crawling  [######------------------]  25%  ETA 1:30") != std::string::npos);
  // Without an extractor, the deferred files still wait for extraction.
  CHECK(text.find("40 found, 30 indexed, 12 waiting for extraction, 1 failed") != std::string::npos);
  CHECK(text.find("watch limit reached: 5 folders are crawled periodically") != std::string::npos);
  CHECK(text.find("now: /home/ada/Documents/reports") != std::string::npos);
  CHECK(text.find("error: store unavailable") != std::string::npos);
  CHECK(text.find("Extractor     not running") != std::string::npos);
  CHECK(text.find("Database      2.5 MB  /db") != std::string::npos);
  CHECK_FALSE(IsIdle(report));

  report.miner->state = "Paused";
  report.miner->pauses = {{"org.gnome.Totem", "playing a film"}};
  CHECK(FormatStatus(report).find("paused by org.gnome.Totem: playing a film") != std::string::npos);
  CHECK_FALSE(IsIdle(report));  // paused work is not done
  report.miner->state = "Idle";
  CHECK(IsIdle(report));
  report.extractor = ExtractReport{"extracting", 3, {"file:///a.pdf"}, 10, 0, 2, 2};
  CHECK(FormatStatus(report).find("extracting  3 queued, 10 extracted") != std::string::npos);
  CHECK_FALSE(IsIdle(report));
}

TEST_CASE("CPU budget: the rest keeps cpu / wall at the budget") {
  CHECK(RestAfter(microseconds(20'000), microseconds(20'000), 100) == microseconds(0));
  CHECK(RestAfter(microseconds(20'000), microseconds(20'000), 50) == microseconds(20'000));
  CHECK(RestAfter(microseconds(20'000), microseconds(20'000), 25) == microseconds(60'000));
  // Waiting for the disk already spread the CPU out.
  CHECK(RestAfter(microseconds(5'000), microseconds(20'000), 50) == microseconds(0));
  const auto before = ThreadCpuTime();
  volatile uint64_t sink = 0;
  for (uint64_t i = 0; i < 20'000'000; ++i) sink = sink + i;
  CHECK(ThreadCpuTime() > before);
}

class FakeSink final : public ExtractSink {
 public:
  Result<void> Queue(const std::vector<std::string>& uris) override {
    if (!is_running) return Error(Errc::kNotFound, "org.quarry.Extract1 is not running");
    if (is_refusing) return Error(Errc::kIo, "refused");
    calls.push_back(uris);
    return Ok();
  }
  bool is_running = true;
  bool is_refusing = false;
  std::vector<std::vector<std::string>> calls;
};

TEST_CASE("Extraction hand-off: chunks, an absent extractor, a bounded queue") {
  PendingExtraction pending(4);
  FakeSink sink;
  HandOffCounts counts;
  pending.Enqueue({"a", "b", "c"});
  REQUIRE(HandOff(pending, sink, 2, counts).ok());
  CHECK(sink.calls == std::vector<std::vector<std::string>>{{"a", "b"}, {"c"}});
  CHECK(counts.handed_off == 3);
  CHECK(pending.size() == 0);

  sink.is_running = false;
  pending.Enqueue({"d", "e"});
  REQUIRE(HandOff(pending, sink, 2, counts).ok());  // not an error: it finds them itself later
  CHECK(counts.deferred == 2);
  CHECK(pending.size() == 0);

  sink.is_running = true;
  sink.is_refusing = true;
  pending.Enqueue({"f", "g", "h"});
  CHECK_FALSE(HandOff(pending, sink, 2, counts).ok());
  CHECK(counts.deferred == 4);  // the refused chunk is not kept
  CHECK(pending.size() == 1);

  pending.Enqueue({"i", "j", "k", "l"});  // bound 4: the oldest goes
  CHECK(pending.size() == 4);
  CHECK(pending.dropped() == 1);
  CHECK(pending.Take(1) == std::vector<std::string>{"i"});
}

}  // namespace
}  // namespace quarry::miner
