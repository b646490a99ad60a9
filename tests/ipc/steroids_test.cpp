// org.quarry.Store1.Steroids: rows through a pipe, in the DESIGN.md format.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/ipc/steroids_reader.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

struct StreamOutcome {
  std::vector<std::string> names;
  std::string error;  // "" on success
  std::string bytes;
};

// Calls Steroids.Query on its own thread while `consume` reads the pipe on this one.
StreamOutcome RunStream(StoreClient& client, const std::string& query,
                        const std::function<void(int&, std::string&)>& consume,
                        const Options& options = {}) {
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  StreamOutcome outcome;
  int read_end = fds[0];
  std::thread caller([&] {
    outcome.error = ErrorOf([&] { outcome.names = client.Stream(query, fds[1], options); });
  });
  // Also when a REQUIRE throws: closing the read end makes the store reply, then join.
  struct Cleanup {
    int& fd;
    std::thread& thread;
    ~Cleanup() {
      if (fd >= 0) ::close(fd);
      fd = -1;
      if (thread.joinable()) thread.join();
    }
  } cleanup{read_end, caller};
  consume(read_end, outcome.bytes);  // may close it early (and set it to -1)
  if (read_end >= 0) ::close(read_end);
  read_end = -1;
  caller.join();
  return outcome;
}

void ReadToEnd(int& fd, std::string& bytes) {
  char buffer[16384];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    REQUIRE(got >= 0);
    if (got == 0) return;
    bytes.append(buffer, static_cast<size_t>(got));
  }
}

void InsertSongs(StoreClient& client, int count, const std::string& padding = "") {
  std::string data = "INSERT DATA {";
  for (int i = 0; i < count; ++i) {
    data += fmt::format(R"( <urn:song{}> a ex:Song ; ex:size {} ; ex:title "t{}{}" .)", i, i, i,
                        padding);
  }
  client.Update(data + " }");
}

TEST_CASE("Steroids: 0 rows, 1 row and variable names") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  StreamOutcome empty = RunStream(client, "SELECT ?s ?t { ?s ex:title ?t }", ReadToEnd);
  CHECK(empty.error == "");
  CHECK(empty.names == std::vector<std::string>{"s", "t"});
  CHECK(empty.bytes.empty());

  client.Update(R"(INSERT DATA { <urn:x> a ex:Song ; ex:title "hi"@en ; ex:size 7 })");
  StreamOutcome one = RunStream(
      client, "SELECT ?s ?t ?n ?r { ?s ex:title ?t ; ex:size ?n OPTIONAL { ?s ex:rating ?r } }",
      ReadToEnd, {{"version", sdbus::Variant(int32_t{1})}});
  CHECK(one.error == "");
  const std::vector<StreamRow> rows = ReadRows(one.bytes);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0].type == 1);
  CHECK(rows[0][0].text == "urn:x");
  CHECK(rows[0][1].type == 8);
  CHECK(rows[0][1].text == "hi");
  CHECK(rows[0][1].lang == "en");
  CHECK(rows[0][2].type == 3);
  CHECK(rows[0][2].text == "7");
  CHECK(rows[0][3].type == 0);
}

TEST_CASE("Steroids: a row larger than 64 KiB and 10,000 rows arrive whole") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  const std::string big(200 * 1024, 'x');
  client.Update(fmt::format(R"(INSERT DATA {{ <urn:big> a ex:Song ; ex:title "{}" }})", big));
  StreamOutcome large = RunStream(client, "SELECT ?t { <urn:big> ex:title ?t }", ReadToEnd);
  CHECK(large.error == "");
  const std::vector<StreamRow> one = ReadRows(large.bytes);
  REQUIRE(one.size() == 1);
  CHECK(one[0][0].text == big);

  client.Update("DELETE DATA { <urn:big> a ex:Song }");
  InsertSongs(client, 10000);
  StreamOutcome many =
      RunStream(client, "SELECT ?n { ?s a ex:Song ; ex:size ?n } ORDER BY ?n", ReadToEnd);
  CHECK(many.error == "");
  const std::vector<StreamRow> rows = ReadRows(many.bytes);
  REQUIRE(rows.size() == 10000);
  CHECK(rows.front()[0].text == "0");
  CHECK(rows.back()[0].text == "9999");
}

TEST_CASE("Steroids: a client closing its end early gets an error and the store goes on") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  // Rows of ~300 bytes: 10,000 of them are ~3 MiB, more than the store's pipe holds (it asks
  // for kStreamPipeBytes, 1 MiB), so the store is still writing when the client closes. With
  // short titles the whole result fitted and the store could finish before the close (CI of
  // 372bfc9: no error, 1 run in 16-40 here).
  InsertSongs(client, 10000, std::string(300, 'p'));
  StreamOutcome cut =
      RunStream(client, "SELECT ?s ?t { ?s ex:title ?t }", [](int& fd, std::string& bytes) {
        char buffer[1024];
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        REQUIRE(got > 0);
        bytes.append(buffer, static_cast<size_t>(got));
        ::close(fd);
        fd = -1;
      });
  CHECK(cut.error.starts_with("org.quarry.Store1.Error.Io: "));
  CHECK(client.Query("SELECT (COUNT(?s) AS ?c) { ?s a ex:Song }")[0][0] == "10000");
  StreamOutcome again = RunStream(client, "SELECT ?s { ?s a ex:Song }", ReadToEnd);
  CHECK(again.error == "");
  CHECK(ReadRows(again.bytes).size() == 10000);
}

TEST_CASE("Steroids: an unknown version is refused and the descriptor closed") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  StreamOutcome refused = RunStream(client, "SELECT ?s { ?s a ex:Song }", ReadToEnd,
                                    {{"version", sdbus::Variant(int32_t{2})}});
  CHECK(refused.error.starts_with("org.quarry.Store1.Error.Unsupported: "));
  CHECK(refused.bytes.empty());
  StreamOutcome bad_query = RunStream(client, "SELECT ?s {", ReadToEnd);
  CHECK(bad_query.error.starts_with("org.quarry.Store1.Error.Parse: "));
}

TEST_CASE("Steroids: a slow reader holds up neither another client's update nor the read thread") {
  StoreFixture store;
  store.Start({"--readers", "1"});  // a query can run only once the stream released the thread
  StoreClient reader = store.Client();
  StoreClient writer = store.Client();
  InsertSongs(reader, 2000, std::string(200, 'p'));  // ~0.5 MB: far more than a pipe holds
  std::chrono::milliseconds update_time{0};
  std::chrono::milliseconds query_time{0};
  size_t rows_meanwhile = 0;
  StreamOutcome slow =
      RunStream(reader, "SELECT ?s ?t { ?s ex:title ?t }", [&](int& fd, std::string& bytes) {
        char row[256];
        for (int i = 0; i < 5; ++i) {  // one row's worth every 100 ms
          const ssize_t got = ::read(fd, row, sizeof row);
          REQUIRE(got > 0);
          bytes.append(row, static_cast<size_t>(got));
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        const auto start = std::chrono::steady_clock::now();
        writer.Update(R"(INSERT DATA { <urn:late> a ex:Song ; ex:title "late" })");
        const auto updated = std::chrono::steady_clock::now();
        update_time = std::chrono::duration_cast<std::chrono::milliseconds>(updated - start);
        rows_meanwhile = writer.Query("SELECT ?s { ?s ex:title ?t }").size();
        query_time = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - updated);
        ReadToEnd(fd, bytes);
      });
  CHECK(update_time < std::chrono::milliseconds(1000));
  CHECK(query_time < std::chrono::milliseconds(1000));
  CHECK(rows_meanwhile == 2001);
  CHECK(slow.error == "");
  CHECK(ReadRows(slow.bytes).size() == 2000);  // the snapshot from before the update
  CHECK(writer.Query("SELECT ?s { ?s ex:title ?t }").size() == 2001);
}

}  // namespace
}  // namespace quarry::testing
