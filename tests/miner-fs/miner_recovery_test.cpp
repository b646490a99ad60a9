// quarry-miner-fs when things go wrong (issue 5 "Tests"): the inotify watch limit, a queue
// overflow (simulated through the SIGUSR1 test hook) and a store restarted under the miner.
#include <doctest/doctest.h>
#include <signal.h>

#include <fstream>
#include <iterator>
#include <utility>
#include <nlohmann/json.hpp>

#include "miner-fs/status_client.h"
#include "miner-fs/status_report.h"
#include "tests/miner-fs/miner_fixture.h"

namespace quarry::miner {
namespace {

using testing::MinerFixture;
using namespace std::chrono_literals;

// A folder of the corpus two levels down (BFS watches it last) that holds a regular,
// non-hidden file the default rules index.
std::filesystem::path DeepFolder(const std::filesystem::path& corpus) {
  const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(corpus / "MANIFEST.json"));
  for (const auto& file : manifest["files"]) {
    const std::string path = file["path"].get<std::string>();
    const std::filesystem::path relative(path);
    const bool is_plain = path.find("/.") == std::string::npos && path.front() != '.' &&
                          path.find("node_modules") == std::string::npos &&
                          path.find("build") == std::string::npos &&
                          path.find("cache") == std::string::npos;
    if (is_plain && std::distance(relative.begin(), relative.end()) >= 3) {
      return corpus / relative.parent_path();
    }
  }
  FAIL("the corpus has no folder two levels down");
  return {};
}

int32_t PauseMiner(MinerFixture& fixture) {
  auto proxy = sdbus::createProxy(*fixture.bus_connection, "org.quarry.Miner.Files", "/org/quarry/Miner/Files");
  int32_t cookie = 0;
  proxy->callMethod("Pause").onInterface("org.quarry.Miner").withArguments("miner_recovery_test", "overflow test")
      .storeResultsTo(cookie);
  return cookie;
}

void ResumeMiner(MinerFixture& fixture, int32_t cookie) {
  auto proxy = sdbus::createProxy(*fixture.bus_connection, "org.quarry.Miner.Files", "/org/quarry/Miner/Files");
  proxy->callMethod("Resume").onInterface("org.quarry.Miner").withArguments(cookie);
}

TEST_CASE("miner-fs: past the watch limit, folders are crawled periodically and status says so") {
  MinerFixture fixture;
  fixture.dir.Write("config/quarry.toml", "[monitor]\nmax_watches = 3\nfallback_crawl_s = 1\n");
  fixture.StartMiner();
  fixture.WaitUntilIdle();
  const auto counts = fixture.Counts();
  CHECK(counts.at("watched") == 3);
  CHECK(counts.at("watch_limit_reached") == 1);
  CHECK(counts.at("unwatched") == counts.at("folders") - 3);

  auto client = StatusClient::Connect(fixture.bus.address());
  REQUIRE(client.ok());
  StatusReport report;
  auto miner = (*client)->Miner();
  REQUIRE(miner.ok());
  report.miner = *miner;
  CHECK(FormatStatus(report).find(fmt::format("inotify watch limit reached: {} folders are crawled periodically",
                                              counts.at("unwatched"))) != std::string::npos);

  // No watch sees this file; the next periodic crawl does.
  const std::filesystem::path folder = DeepFolder(fixture.corpus());
  std::ofstream(folder / "seen by the fallback crawl.txt") << "fallback";
  fixture.WaitForValue(fixture.CountUrl(folder / "seen by the fallback crawl.txt"), "1");
}

TEST_CASE("miner-fs: an inotify queue overflow triggers a re-crawl that finds the lost changes") {
  MinerFixture fixture;
  fixture.StartMiner();
  fixture.WaitUntilIdle();
  const uint64_t indexed_before = fixture.Counts().at("indexed");
  const int32_t cookie = PauseMiner(fixture);
  fixture.dir.Write("corpus/lost in the overflow.txt", "lost");
  std::this_thread::sleep_for(300ms);  // the miner reads the events into its queue
  REQUIRE(::kill(fixture.miner->pid(), SIGUSR1) == 0);  // ... and loses them, as on IN_Q_OVERFLOW
  std::this_thread::sleep_for(300ms);
  CHECK(fixture.Value(fixture.CountUrl(fixture.corpus() / "lost in the overflow.txt")) == "0");
  ResumeMiner(fixture, cookie);
  fixture.WaitForValue(fixture.CountUrl(fixture.corpus() / "lost in the overflow.txt"), "1");
  fixture.WaitUntilIdle();
  // The re-crawl wrote only that file and its folder's new mtime.
  CHECK(fixture.Counts().at("indexed") == indexed_before + 2);
}

// How many lines of `log` contain `text`.
size_t LinesWith(const std::filesystem::path& log, const std::string& text) {
  std::ifstream in(log);
  size_t count = 0;
  for (std::string line; std::getline(in, line);) count += line.find(text) != std::string::npos;
  return count;
}

TEST_CASE("miner-fs: a store restarted under the miner loses no change") {
  MinerFixture fixture;
  const std::filesystem::path log = fixture.dir / "miner.log";
  fixture.StartMiner(log);
  fixture.WaitUntilIdle();
  fixture.bus.StopStore();
  fixture.dir.Write("corpus/Documents/written while the store was away.txt", "away");
  std::filesystem::remove(fixture.corpus() / "MANIFEST.json");
  std::this_thread::sleep_for(3s);  // past the quiet period: the miner tries and fails
  fixture.bus.StartStore(fixture.dir / "db");
  auto connection = Connection::Bus(fixture.bus.options());
  REQUIRE(connection.ok());
  fixture.store = std::move(*connection);
  fixture.WaitForValue(fixture.CountUrl(fixture.corpus() / "Documents/written while the store was away.txt"), "1");
  fixture.WaitForValue(fixture.CountUrl(fixture.corpus() / "MANIFEST.json"), "0");
  fixture.WaitUntilIdle();
  CHECK(fixture.Counts().at("failed") == 0);
  // The store was away for about three retries: said once when it went, once when it was back.
  CHECK(LinesWith(log, "store unavailable") == 1);
  CHECK(LinesWith(log, "store reachable again") == 1);
  auto client = StatusClient::Connect(fixture.bus.address());
  REQUIRE(client.ok());
  auto miner = (*client)->Miner();
  REQUIRE(miner.ok());
  CHECK(miner->errors.size() == 1);  // nor one error per retry
}

#ifdef QUARRY_EXTRACT_BIN
// The exit status of `process` once it has exited by itself (no signal sent), within 30 s.
int WaitForExit(quarry::testing::ChildProcess& process) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!process.TryReap()) {
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "the process did not stop");
    std::this_thread::sleep_for(20ms);
  }
  return process.Stop(SIGKILL, 0ms);  // reaped: the recorded status, nothing sent
}

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("miner-fs: the session bus going away stops the miner and the extractor with a message, not an abort") {
  // sdbus-c++'s own loop thread let the bus's Disconnected error escape: std::terminate, SIGABRT.
  MinerFixture fixture;
  const std::filesystem::path extract_log = fixture.dir / "extract.log";
  quarry::testing::ChildProcess extractor({QUARRY_EXTRACT_BIN, "--bus", fixture.bus.address(), "--workers", "1"},
                                          /*capture_stdout=*/false, extract_log);
  const std::filesystem::path miner_log = fixture.dir / "miner.log";
  fixture.StartMiner(miner_log);
  fixture.WaitUntilIdle();
  fixture.bus_connection.reset();
  fixture.bus.KillBus();
  for (auto [process, log] : {std::pair{fixture.miner.get(), miner_log}, std::pair{&extractor, extract_log}}) {
    CAPTURE(log);
    const int status = WaitForExit(*process);
    REQUIRE_MESSAGE(WIFEXITED(status), (WIFSIGNALED(status) ? fmt::format("killed by signal {}", WTERMSIG(status)) : ""));
    CHECK(WEXITSTATUS(status) == 1);
    const std::string text = ReadAll(log);
    CHECK(text.find("lost the connection to the bus") != std::string::npos);
    CHECK(text.find("terminate called") == std::string::npos);
  }
}
#endif

}  // namespace
}  // namespace quarry::miner
