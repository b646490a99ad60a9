// The client half of the Steroids FD stream without a bus (issue 4): PipeReader ends the
// stream at the reply (no wait for EOF), RowStreamCursor decodes rows while the writer is still
// writing, rows split across reads, and the call's error after some rows. A fake "store" writes
// into the pipe from the call thread, as quarry-store does before it replies.
#include <doctest/doctest.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "store/client/pipe_reader.h"
#include "store/client/row_stream_cursor.h"
#include "store/ipc/row_encoder.h"
#include "tests/support/pipe.h"

namespace quarry {
namespace {

std::string Row(std::string_view a, std::string_view b) {
  const ipc::StreamValue values[] = {{engine::ValueKind::kString, a, {}},
                                     {engine::ValueKind::kLangString, b, "de"}};
  std::string out;
  ipc::AppendRow(values, out);
  return out;
}

void WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    REQUIRE(written > 0);
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

using testing::Pipe;

// A one-shot flag with a timeout, so that a broken reader fails a CHECK instead of hanging.
struct Gate {
  void Open() {
    const std::lock_guard lock(mutex);
    open = true;
    changed.notify_all();
  }
  bool WaitOpen(std::chrono::seconds limit) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, limit, [this] { return open; });
  }
  std::mutex mutex;
  std::condition_variable changed;
  bool open = false;
};

TEST_CASE("PipeReader: the stream ends at the reply while another write end is still open") {
  // quarry-store's received D-Bus message keeps a copy of the write end until it is freed, after
  // the reply: waiting for EOF cost every FD query ~20 ms (issue 4).
  Pipe pipe;
  const int other_copy = ::dup(pipe.write_end.get());
  REQUIRE(other_copy >= 0);
  auto write_end = std::make_shared<UniqueFd>(std::move(pipe.write_end));
  PipeReader reader(std::move(pipe.read_end), [write_end]() -> Result<std::vector<std::string>> {
    WriteAll(write_end->get(), "abc");
    write_end->reset();
    return std::vector<std::string>{"x"};
  });
  std::string got;
  char buffer[16];
  for (;;) {
    const auto count = reader.Read(buffer, sizeof buffer);
    REQUIRE(count.ok());
    if (*count == 0) break;
    got.append(buffer, *count);
  }
  CHECK(got == "abc");
  CHECK(reader.replied());
  const auto names = reader.Finish();
  REQUIRE(names.ok());
  CHECK(*names == std::vector<std::string>{"x"});
  ::close(other_copy);
}

TEST_CASE("RowStreamCursor over a pipe: a row is decoded before the writer writes the next") {
  Pipe pipe;
  auto write_end = std::make_shared<UniqueFd>(std::move(pipe.write_end));
  Gate first_row_read;
  bool released_by_reader = false;
  auto reader = std::make_shared<PipeReader>(
      std::move(pipe.read_end),
      [&, write_end]() -> Result<std::vector<std::string>> {
        WriteAll(write_end->get(), Row("one", "eins"));
        // The second row waits until the client has the first: a client that reads the whole
        // stream before decoding never gets there (the gate times out instead of hanging).
        released_by_reader = first_row_read.WaitOpen(std::chrono::seconds(20));
        WriteAll(write_end->get(), Row("two", "zwei"));
        write_end->reset();
        return std::vector<std::string>{"a", "b"};
      });
  RowStreamCursor cursor(std::make_unique<PipeSource>(reader));
  // From the first row itself: waiting for the reply's names would need the whole stream.
  CHECK(cursor.ColumnCount() == 2);
  auto first = cursor.Next();
  REQUIRE(first.ok());
  REQUIRE(*first);
  CHECK(cursor.GetString(0) == "one");
  CHECK(cursor.GetLanguage(1) == "de");
  first_row_read.Open();
  REQUIRE(*cursor.Next());
  CHECK(cursor.GetString(1) == "zwei");
  CHECK_FALSE(*cursor.Next());
  CHECK(released_by_reader);
  CHECK(cursor.VariableName(1) == "b");
}

TEST_CASE("RowStreamCursor over a pipe: rows cut at any byte, and the error after them") {
  std::string stream;
  for (int i = 0; i < 3000; ++i) {
    stream += Row("value " + std::to_string(i), std::string(static_cast<size_t>(i % 700), 'x'));
  }
  for (const bool fails : {false, true}) {
    CAPTURE(fails);
    Pipe pipe;
    auto write_end = std::make_shared<UniqueFd>(std::move(pipe.write_end));
    auto reader = std::make_shared<PipeReader>(
        std::move(pipe.read_end), [&, write_end]() -> Result<std::vector<std::string>> {
          // Odd-sized writes: rows and even int32 fields straddle reads.
          for (size_t at = 0; at < stream.size(); at += 7777) {
            WriteAll(write_end->get(), std::string_view(stream).substr(at, 7777));
          }
          write_end->reset();
          if (fails) return Error(Errc::kIo, "the store stopped");
          return std::vector<std::string>{"a", "b"};
        });
    RowStreamCursor cursor(std::make_unique<PipeSource>(reader));
    int rows = 0;
    Result<bool> next = cursor.Next();
    while (next.ok() && *next) {
      CHECK(cursor.GetString(0) == "value " + std::to_string(rows));
      ++rows;
      next = cursor.Next();
    }
    CHECK(rows == 3000);
    if (fails) {
      REQUIRE_FALSE(next.ok());
      CHECK(next.error().message() == "the store stopped");
    } else {
      REQUIRE(next.ok());
    }
  }
}

TEST_CASE("PipeReader: Finish keeps the rows not read yet for the cursor") {
  Pipe pipe;
  auto write_end = std::make_shared<UniqueFd>(std::move(pipe.write_end));
  // More than a pipe holds: Finish() must read while it waits, or the writer never returns.
  const std::string big(4 << 20, 'q');
  auto reader = std::make_shared<PipeReader>(
      std::move(pipe.read_end), [&, write_end]() -> Result<std::vector<std::string>> {
        WriteAll(write_end->get(), big);
        write_end->reset();
        return std::vector<std::string>{"v"};
      });
  char first[10];
  const auto first_count = reader->Read(first, sizeof first);
  REQUIRE(first_count.ok());
  REQUIRE(*first_count > 0);
  REQUIRE(reader->Finish().ok());
  CHECK(reader->replied());
  std::vector<char> buffer(1 << 16);
  size_t total = *first_count;
  for (;;) {
    const auto count = reader->Read(buffer.data(), buffer.size());
    REQUIRE(count.ok());
    if (*count == 0) break;
    total += *count;
  }
  CHECK(total == big.size());
}

// A reply that is ready at once: Dispatch() hands the names over, and every call records in
// `threads` the thread it ran on.
class ReadyPump final : public ReplyPump {
 public:
  ReadyPump(PipeReader& reader, std::vector<std::thread::id>& threads)
      : reader_(reader), ready_(::eventfd(1, EFD_CLOEXEC)), threads_(threads) {}
  Watch Prepare() override {
    threads_.push_back(std::this_thread::get_id());
    return {ready_.get(), POLLIN, -1};
  }
  void Dispatch() override {
    threads_.push_back(std::this_thread::get_id());
    reader_.Deliver(std::vector<std::string>{"a", "b"});
  }

 private:
  PipeReader& reader_;
  UniqueFd ready_;
  std::vector<std::thread::id>& threads_;
};

TEST_CASE("PipeReader: the reply is pumped on the reader's own thread, no thread per query") {
  // Issue 4: starting a thread per FD query and handing the reply between threads was most of
  // a small query's fixed cost; the bus pump dispatches the connection inside the reader's own
  // waits. The write end stays open: the stream must end at the reply, not at EOF.
  Pipe pipe;
  WriteAll(pipe.write_end.get(), Row("one", "eins") + Row("two", "zwei"));
  auto reader = std::make_shared<PipeReader>(std::move(pipe.read_end));
  std::vector<std::thread::id> threads;
  reader->SetPump(std::make_unique<ReadyPump>(*reader, threads));
  RowStreamCursor cursor(std::make_unique<PipeSource>(reader));
  REQUIRE(*cursor.Next());
  CHECK(cursor.GetString(0) == "one");
  REQUIRE(*cursor.Next());
  CHECK(cursor.GetString(1) == "zwei");
  CHECK(cursor.GetLanguage(1) == "de");
  CHECK_FALSE(*cursor.Next());
  CHECK(cursor.VariableName(0) == "a");
  REQUIRE(threads.size() >= 2);  // prepared, then dispatched
  for (const std::thread::id id : threads) CHECK(id == std::this_thread::get_id());
}

TEST_CASE("PipeReader: a reply with no byte in the pipe is an empty result") {
  Pipe pipe;
  auto reader = std::make_shared<PipeReader>(std::move(pipe.read_end));
  std::vector<std::thread::id> threads;
  reader->SetPump(std::make_unique<ReadyPump>(*reader, threads));
  const auto ended = reader->WaitForData();
  REQUIRE(ended.ok());
  CHECK(*ended);
  const auto names = reader->Finish();
  REQUIRE(names.ok());
  CHECK(*names == std::vector<std::string>{"a", "b"});
}

}  // namespace
}  // namespace quarry
