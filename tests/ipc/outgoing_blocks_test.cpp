// OutgoingBlocks (issue 4): a Steroids stream's unread bytes stay within the memory budget,
// the rest waits in a spill file, and the client still reads every byte in order.
#include "store/ipc/outgoing_blocks.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <string>

#include "store/ipc/row_encoder.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {
namespace {

struct Pipe {
  int read_end = -1;
  int write_end = -1;
  Pipe() {
    int ends[2];
    REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    read_end = ends[0];
    write_end = ends[1];
    REQUIRE(ipc::MakeNonBlocking(write_end).ok());
  }
  ~Pipe() {
    if (read_end >= 0) ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
  // Whatever the pipe holds now.
  void ReadAvailable(std::string& into) const {
    const int flags = ::fcntl(read_end, F_GETFL);
    REQUIRE(::fcntl(read_end, F_SETFL, flags | O_NONBLOCK) == 0);
    char buffer[16384];
    for (;;) {
      const ssize_t got = ::read(read_end, buffer, sizeof buffer);
      if (got <= 0) break;
      into.append(buffer, static_cast<size_t>(got));
    }
  }
};

// Appends `count` distinct rows of ~`size` bytes the way the store's reader thread does (seal
// and write after each block's worth) while nobody reads; returns every byte appended.
std::string StepRows(ipc::OutgoingBlocks& blocks, int fd, int count, size_t size) {
  std::string expected;
  for (int i = 0; i < count; ++i) {
    std::string row = fmt::format("row {} ", i);
    row.append(size - row.size(), static_cast<char>('a' + i % 26));
    blocks.tail() += row;
    expected += row;
    if (blocks.tail().size() < ipc::kStreamBlockSize) continue;
    blocks.SealFullBlocks();
    REQUIRE(blocks.WriteAvailable(fd).ok());
  }
  blocks.SealAll();
  REQUIRE(blocks.WriteAvailable(fd).ok());
  return expected;
}

// The client reads while the drainer writes, until everything is out.
std::string Drain(ipc::OutgoingBlocks& blocks, const Pipe& pipe, std::string received) {
  for (;;) {
    auto written = blocks.WriteAvailable(pipe.write_end);
    REQUIRE(written.ok());
    if (*written) break;
    pipe.ReadAvailable(received);
  }
  pipe.ReadAvailable(received);
  return received;
}

TEST_CASE("EnlargePipe: a stream pipe holds a megabyte, anything else is left alone") {
  Pipe pipe;
  REQUIRE(::fcntl(pipe.read_end, F_GETPIPE_SZ) < static_cast<int>(ipc::kStreamPipeBytes));
  const size_t capacity = ipc::EnlargePipe(pipe.write_end);
  CHECK(capacity == ipc::kStreamPipeBytes);
  CHECK(::fcntl(pipe.read_end, F_GETPIPE_SZ) == static_cast<int>(capacity));
  CHECK(ipc::EnlargePipe(pipe.write_end) == capacity);  // already large: unchanged
  // A megabyte goes in without blocking, in one write.
  const std::string megabyte(ipc::kStreamPipeBytes, 'm');
  CHECK(::write(pipe.write_end, megabyte.data(), megabyte.size()) ==
        static_cast<ssize_t>(megabyte.size()));
  TempDir dir;
  const int file = ::open((dir.path() / "not-a-pipe").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  REQUIRE(file >= 0);
  CHECK(ipc::EnlargePipe(file) == 0);
  ::close(file);
}

TEST_CASE("OutgoingBlocks: past the memory budget, unread bytes wait in a spill file, in order") {
  TempDir dir;
  constexpr size_t kLimit = 256 * 1024;
  ipc::StreamBudget budget(kLimit, dir.path());
  Pipe pipe;
  std::string expected;
  {
    ipc::OutgoingBlocks blocks(budget);
    expected = StepRows(blocks, pipe.write_end, 20000, 200);  // 4 MB; the pipe holds 64 KiB
    CHECK(budget.held_bytes() <= kLimit);
    CHECK(budget.held_bytes() > 0);
    CHECK(budget.spilled_bytes() > expected.size() / 2);
    CHECK(blocks.queued_bytes() > 0);
    const std::string received = Drain(blocks, pipe, {});
    CHECK(received.size() == expected.size());
    CHECK(received == expected);
    CHECK(blocks.empty());
  }
  CHECK(budget.held_bytes() == 0);
  CHECK(budget.peak_bytes() <= kLimit);
  // The spill file was unlinked at once: nothing is left in the directory.
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("OutgoingBlocks: streams share one budget, and memory comes back when a stream ends") {
  TempDir dir;
  constexpr size_t kLimit = 512 * 1024;
  ipc::StreamBudget budget(kLimit, dir.path());
  Pipe first_pipe;
  Pipe second_pipe;
  auto first = std::make_unique<ipc::OutgoingBlocks>(budget);
  ipc::OutgoingBlocks second(budget);
  const std::string first_expected = StepRows(*first, first_pipe.write_end, 5000, 200);
  const size_t spilled_by_first = budget.spilled_bytes();
  CHECK(spilled_by_first > 0);
  const std::string second_expected = StepRows(second, second_pipe.write_end, 5000, 200);
  CHECK(budget.held_bytes() <= kLimit);
  CHECK(budget.spilled_bytes() >= spilled_by_first + second_expected.size() - 128 * 1024);
  // A client gone early: its stream's memory is given back.
  const size_t held_before = budget.held_bytes();
  CHECK(held_before > 256 * 1024);  // the first stream took most of the budget
  first.reset();
  CHECK(budget.held_bytes() < held_before - 256 * 1024);
  CHECK(Drain(second, second_pipe, {}) == second_expected);
  CHECK(budget.held_bytes() == 0);
  CHECK(budget.peak_bytes() <= kLimit);
}

TEST_CASE("OutgoingBlocks: a spill that cannot be written fails the stream, memory stays bounded") {
  TempDir dir;
  ipc::StreamBudget budget(64 * 1024, dir.path() / "missing");
  Pipe pipe;
  ipc::OutgoingBlocks blocks(budget);
  bool failed = false;
  for (int i = 0; i < 5000 && !failed; ++i) {
    blocks.tail() += std::string(200, 'x');
    if (blocks.tail().size() < ipc::kStreamBlockSize) continue;
    blocks.SealFullBlocks();
    auto written = blocks.WriteAvailable(pipe.write_end);
    if (!written) {
      failed = true;
      CHECK(written.error().code() == Errc::kIo);
      CHECK(written.error().message().find("missing") != std::string::npos);
    }
  }
  CHECK(failed);
  CHECK(budget.held_bytes() <= 64 * 1024);
  CHECK_FALSE(blocks.WriteAvailable(pipe.write_end).ok());  // the stream stays failed
}

}  // namespace
}  // namespace quarry::testing
