// Issue 7: Steroids.QueryRows, small results inside the D-Bus reply (rows encoded as in the FD
// stream, appended as one `ay`), and the client's automatic transport: inline up to
// BusOptions::inline_rows_max_bytes, the FD stream past it (remembered per query text).
#include <dirent.h>
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "quarry/connection.h"
#include "store/client/row_stream_cursor.h"
#include "store/ipc/raw_message.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

constexpr int kSongs = 300;
const std::string kAll = "SELECT ?s ?n { ?s a ex:Song ; ex:title ?n } ORDER BY ?s";
const std::string kOne = "SELECT ?s ?n { ?s a ex:Song ; ex:title ?n } ORDER BY ?s LIMIT 1";

void InsertSongs(StoreClient& client) {
  std::string update = "INSERT DATA {";
  for (int i = 0; i < kSongs; ++i) {
    update += fmt::format(" <urn:song-{:03}> a ex:Song ; ex:title \"title {}\" .", i, i);
  }
  client.Update(update + " }");
}

using Options = std::map<std::string, sdbus::Variant>;

// A raw QueryRows call: the names and the encoded rows, or the D-Bus error as "name: message".
struct RawRows {
  std::vector<std::string> names;
  std::string rows;
  std::string error;
};
RawRows CallQueryRows(const std::string& address, const std::string& query,
                      const Options& options) {
  auto connection = sdbus::createSessionBusConnectionWithAddress(address);
  auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
  RawRows result;
  try {
    auto call = proxy->createMethodCall("org.quarry.Store1.Steroids", "QueryRows");
    call << query << options;
    auto reply = proxy->callMethod(call);
    reply >> result.names;
    result.rows = std::string(ipc::ReadByteArray(reply));
  } catch (const sdbus::Error& error) {
    result.error = error.getName() + ": " + error.getMessage();
  }
  return result;
}

std::vector<std::vector<std::string>> Decode(const RawRows& raw) {
  RowStreamCursor cursor(raw.rows, raw.names);
  std::vector<std::vector<std::string>> rows;
  for (;;) {
    auto has_row = cursor.Next();
    REQUIRE(has_row.ok());
    if (!*has_row) return rows;
    std::vector<std::string> row;
    for (int column = 0; column < cursor.ColumnCount(); ++column) {
      row.emplace_back(cursor.GetString(column));
    }
    rows.push_back(std::move(row));
  }
}

std::unique_ptr<Connection> Bus(const StoreFixture& store, size_t inline_max) {
  BusOptions options;
  options.address = store.address();
  options.inline_rows_max_bytes = inline_max;
  auto connection = Connection::Bus(options);
  REQUIRE_MESSAGE(connection.ok(), (connection ? std::string() : connection.error().ToString()));
  return std::move(*connection);
}

size_t CountRows(Connection& connection, const std::string& sparql) {
  auto cursor = connection.Query(sparql);
  REQUIRE_MESSAGE(cursor.ok(), (cursor ? std::string() : cursor.error().ToString()));
  size_t rows = 0;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) return rows;
    ++rows;
  }
}

// Open descriptors of this process: an FD-stream query leaves its pipe's two ends open for the
// next one; an inline reply opens none.
size_t OpenDescriptors() {
  size_t count = 0;
  DIR* dir = ::opendir("/proc/self/fd");
  REQUIRE(dir != nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  ::closedir(dir);
  return count;
}

// Queries the store ran (each run looks up the compiled statement once).
uint64_t QueryRuns(const std::string& address) {
  auto connection = sdbus::createSessionBusConnectionWithAddress(address);
  auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
  std::map<std::string, uint64_t> statistics;
  proxy->callMethod("GetQueryStatistics")
      .onInterface("org.quarry.Store1.Status")
      .storeResultsTo(statistics);
  return statistics.at("translated") + statistics.at("reused");
}

TEST_CASE("QueryRows: names and typed rows in the reply, under max_bytes") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  InsertSongs(client);
  const RawRows one = CallQueryRows(store.address(), kOne, {});
  REQUIRE_MESSAGE(one.error.empty(), one.error);
  CHECK(one.names == std::vector<std::string>{"s", "n"});
  CHECK(Decode(one) == std::vector<std::vector<std::string>>{{"urn:song-000", "title 0"}});

  const RawRows all = CallQueryRows(store.address(), kAll, {{"max_bytes", sdbus::Variant(1 << 20)}});
  REQUIRE_MESSAGE(all.error.empty(), all.error);
  const auto rows = Decode(all);
  REQUIRE(rows.size() == size_t{kSongs});
  CHECK(rows[299] == std::vector<std::string>{"urn:song-299", "title 299"});

  // Past max_bytes: ReplyTooLarge naming the limit; the store goes on serving.
  const RawRows refused =
      CallQueryRows(store.address(), kAll, {{"max_bytes", sdbus::Variant(uint64_t{1000})}});
  INFO(refused.error);
  CHECK(refused.error.starts_with("org.quarry.Store1.Error.ReplyTooLarge: "));
  CHECK(refused.error.find("1000 bytes") != std::string::npos);
  // The store's own cap (--max-reply-mib) applies whatever max_bytes asks.
  CHECK(CallQueryRows(store.address(), kOne, {}).error.empty());
}

TEST_CASE("QueryRows: bad options, graph queries and compile errors are errors") {
  StoreFixture store;
  store.Start();
  CHECK(CallQueryRows(store.address(), kOne, {{"max_bytes", sdbus::Variant(-1)}})
            .error.find("max_bytes") != std::string::npos);
  CHECK(CallQueryRows(store.address(), kOne, {{"colour", sdbus::Variant(1)}})
            .error.find("unknown option 'colour'") != std::string::npos);
  CHECK(CallQueryRows(store.address(), "CONSTRUCT { ?s a ex:Song } { ?s a ex:Song }", {})
            .error.find("Steroids.Query") != std::string::npos);
  CHECK_FALSE(CallQueryRows(store.address(), "SELECT ?s { ?s a ex:NoSuchClass }", {})
                  .error.empty());
}

TEST_CASE("QueryRows under --max-reply-mib: the store's cap bounds any max_bytes") {
  StoreFixture store;
  store.Start({"--max-reply-mib", "1"});
  StoreClient client = store.Client();
  std::string update = "INSERT DATA {";
  const std::string title(2000, 'x');
  for (int i = 0; i < 700; ++i) {
    update += fmt::format(" <urn:big-{}> a ex:Song ; ex:title \"{}\" .", i, title);
  }
  client.Update(update + " }");
  const RawRows refused = CallQueryRows(store.address(), "SELECT ?s ?t { ?s ex:title ?t }",
                                        {{"max_bytes", sdbus::Variant(uint64_t{1} << 30)}});
  INFO(refused.error);
  CHECK(refused.error.starts_with("org.quarry.Store1.Error.ReplyTooLarge: "));
  CHECK(refused.error.find("1048576 bytes") != std::string::npos);
}

TEST_CASE("Automatic transport: small results inline without a pipe, large ones streamed") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  InsertSongs(client);
  // About 40 bytes a row: kOne fits in 2,000 bytes, kAll (300 rows) does not.
  auto connection = Bus(store, 2000);
  CHECK(CountRows(*connection, kOne) == 1);  // connects
  const size_t descriptors = OpenDescriptors();
  const uint64_t runs = QueryRuns(store.address());
  CHECK(CountRows(*connection, kOne) == 1);
  CHECK(CountRows(*connection, kOne) == 1);
  CHECK(OpenDescriptors() == descriptors);  // no pipe
  CHECK(QueryRuns(store.address()) - runs == 2);

  // Too large inline: the FD stream (a pipe kept for the next query), every row.
  CHECK(CountRows(*connection, kAll) == size_t{kSongs});
  CHECK(OpenDescriptors() == descriptors + 2);
  CHECK(QueryRuns(store.address()) - runs == 4);  // QueryRows refused it, then Query
  // The text is remembered: straight to the stream, one run.
  CHECK(CountRows(*connection, kAll) == size_t{kSongs});
  CHECK(QueryRuns(store.address()) - runs == 5);
  // Small ones stay inline, typed and named.
  auto cursor = connection->Query(kOne);
  REQUIRE(cursor.ok());
  CHECK(cursor->VariableName(1) == "n");
  REQUIRE(*cursor->Next());
  CHECK(cursor->Kind(0) == ValueKind::kIri);
  CHECK(cursor->GetString(1) == "title 0");
  CHECK(QueryRuns(store.address()) - runs == 6);

  // 0 turns inline replies off: the first query opens a pipe.
  auto streaming = Bus(store, 0);
  const size_t before_stream = OpenDescriptors();
  CHECK(CountRows(*streaming, kOne) == 1);
  CHECK(OpenDescriptors() == before_stream + 2);
}

}  // namespace
}  // namespace quarry::testing
