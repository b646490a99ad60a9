// Issue 4: the store's memory for unread FD-stream bytes is bounded (--stream-buffer-mib); past
// it they wait in a spill file, and a slow client still gets every row intact.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "tests/ipc/steroids_reader.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

std::map<std::string, uint64_t> Statistics(const StoreFixture& store) {
  auto connection = sdbus::createSessionBusConnectionWithAddress(store.address());
  auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
  std::map<std::string, uint64_t> statistics;
  proxy->callMethod("GetQueryStatistics").onInterface(kStatus).storeResultsTo(statistics);
  return statistics;
}

TEST_CASE("Steroids: a slow client's unread rows stay under the store's memory bound") {
  StoreFixture store;
  store.Start({"--stream-buffer-mib", "1"});
  StoreClient client = store.Client();
  const std::string padding(2000, 'p');
  std::string data = "INSERT DATA {";
  for (int i = 0; i < 3000; ++i) {  // ~6 MB of rows: six times the bound
    data += fmt::format(R"( <urn:song{}> a ex:Song ; ex:size {} ; ex:title "t{}{}" .)", i, i, i,
                        padding);
  }
  client.Update(data + " }");
  const auto before = Statistics(store);
  CHECK(before.at("stream_buffered_bytes") == 0);

  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  std::string error;
  std::thread caller([&] {
    error = ErrorOf(
        [&] { client.Stream("SELECT ?n ?t { ?s ex:size ?n ; ex:title ?t } ORDER BY ?n", fds[1]); });
  });
  std::string bytes;
  uint64_t most_buffered = 0;
  char block[65536];
  for (int reads = 0;; ++reads) {  // 64 KiB at a time, pausing: far slower than SQLite
    const ssize_t got = ::read(fds[0], block, sizeof block);
    REQUIRE(got >= 0);
    if (got == 0) break;
    bytes.append(block, static_cast<size_t>(got));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (reads % 8 == 0) {
      most_buffered = std::max(most_buffered, Statistics(store).at("stream_buffered_bytes"));
    }
  }
  ::close(fds[0]);
  caller.join();
  CHECK(error == "");
  const auto after = Statistics(store);
  CHECK(most_buffered <= uint64_t{1} << 20);
  CHECK(after.at("stream_buffered_peak") <= uint64_t{1} << 20);
  CHECK(after.at("stream_spilled_bytes") - before.at("stream_spilled_bytes") > bytes.size() / 2);
  CHECK(after.at("stream_buffered_bytes") == 0);
  const std::vector<StreamRow> rows = ReadRows(bytes);
  REQUIRE(rows.size() == 3000);
  for (int i = 0; i < 3000; ++i) {
    CAPTURE(i);
    REQUIRE(rows[i].size() == 2);
    CHECK(rows[i][0].text == std::to_string(i));
    CHECK(rows[i][1].text == fmt::format("t{}{}", i, padding));
  }
  // Nothing is left behind in the database directory (the spill file was never linked).
  for (const auto& entry : std::filesystem::directory_iterator(store.database_dir())) {
    CHECK(entry.path().filename().string().find("spill") == std::string::npos);
  }
}

}  // namespace
}  // namespace quarry::testing
