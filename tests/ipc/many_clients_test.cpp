// Issue 4: "two hundred concurrent clients". Each client has its own bus connection and mixes
// updates, plain SparqlQuery calls and Steroids FD streams, so the writer queue, the reader pool
// (4 threads by default) and the stream drainer are all busy at once. Every call must be
// answered correctly: none refused, none timed out, none answered with another client's rows.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/ipc/steroids_reader.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

constexpr int kClients = 200;
constexpr int kRoundsPerClient = 3;

// Reads `fd` to EOF.
std::string ReadAll(int fd) {
  std::string bytes;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    bytes.append(buffer, static_cast<size_t>(got));
  }
  return bytes;
}

// One client's work; returns "" or what went wrong.
std::string RunClient(StoreFixture& store, int client_index) {
  StoreClient client = store.Client();
  for (int round = 0; round < kRoundsPerClient; ++round) {
    const std::string subject = fmt::format("urn:c{}-{}", client_index, round);
    client.Update(fmt::format(R"(INSERT DATA {{ <{}> a ex:Song ; ex:size {} ; ex:title "t{}" }})",
                              subject, client_index * 10 + round, client_index));
    const Rows mine = client.Query(fmt::format("SELECT ?n {{ <{}> ex:size ?n }}", subject));
    if (mine.size() != 1 || mine[0][0] != std::to_string(client_index * 10 + round)) {
      return fmt::format("{}: plain query saw {} rows", subject, mine.size());
    }
  }
  // Every round is committed: the stream must show all of this client's songs, in order.
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return "pipe failed";
  std::string bytes;
  std::thread drain([&] { bytes = ReadAll(ends[0]); });
  client.Stream(fmt::format(R"(SELECT ?s {{ ?s ex:title "t{}" }} ORDER BY ?s)", client_index),
                ends[1]);
  drain.join();
  ::close(ends[0]);
  const std::vector<StreamRow> rows = ReadRows(bytes);
  if (rows.size() != kRoundsPerClient) return fmt::format("stream gave {} rows", rows.size());
  for (int round = 0; round < kRoundsPerClient; ++round) {
    if (rows[round][0].text != fmt::format("urn:c{}-{}", client_index, round)) {
      return fmt::format("stream row {} is {}", round, rows[round][0].text);
    }
  }
  return "";
}

TEST_CASE("Resources: 200 concurrent clients each update, query and stream") {
  StoreFixture store;
  store.Start();
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();  // start together: the queues really fill up
      std::string failure;
      try {
        failure = RunClient(store, i);
      } catch (const sdbus::Error& error) {
        failure = error.getName() + ": " + error.getMessage();
      } catch (...) {  // a failed REQUIRE in ReadRows: the stream was malformed
        failure = "malformed stream";
      }
      if (failure.empty()) return;
      const std::lock_guard lock(failures_mutex);
      failures.push_back(fmt::format("client {}: {}", i, failure));
    });
  }
  go = true;
  for (std::thread& thread : threads) thread.join();
  INFO((failures.empty() ? std::string() : failures.front()));
  CHECK(failures.empty());
  const Rows count = store.Client().Query("SELECT (COUNT(?s) AS ?n) { ?s a ex:Song }");
  REQUIRE(count.size() == 1);
  CHECK(count[0][0] == std::to_string(kClients * kRoundsPerClient));
}

}  // namespace
}  // namespace quarry::testing
