// OutgoingBlocks: the bytes of one Steroids stream between the row encoder and the client's
// pipe, written without blocking; StreamBudget: the memory all streams of the process may hold.
//
// The reader thread appends rows to tail() while it steps SQLite and writes whatever the pipe
// takes; what the client has not read yet stays here after the statement is released
// (DESIGN.md: a slow client never holds a read transaction), and StreamDrainer sends it.
// Unread bytes wait in memory while the process-wide StreamBudget allows (issue 4: a slow
// client of a 253 MB result cost the store 920 MB), past it in an unlinked temporary file in
// the budget's spill directory (the database directory), read back as the pipe drains. Bytes
// never reorder: once a stream has spilled, its later blocks follow in the file until the file
// is drained. A spill that fails (disk full) fails that stream (kNoSpace / kIo) instead of
// growing memory.
// Thread-safety: OutgoingBlocks: one thread at a time (handed from the reader thread to the
// drainer). StreamBudget: any thread; Configure() only before the first stream.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/common/unique_fd.h"

namespace quarry::ipc {

inline constexpr size_t kDefaultStreamMemoryBytes = size_t{64} << 20;

class StreamBudget {
 public:
  explicit StreamBudget(size_t memory_limit = kDefaultStreamMemoryBytes,
                        std::filesystem::path spill_dir = {})
      : limit_(memory_limit), spill_dir_(std::move(spill_dir)) {}
  // Before any stream uses the budget (quarry-store's options).
  void Configure(size_t memory_limit, std::filesystem::path spill_dir) {
    limit_ = memory_limit;
    spill_dir_ = std::move(spill_dir);
  }
  // Counts `bytes` as held in memory if that stays within the limit.
  bool TryReserve(size_t bytes);
  void Release(size_t bytes) { held_.fetch_sub(bytes, std::memory_order_relaxed); }
  void CountSpilled(size_t bytes) { spilled_.fetch_add(bytes, std::memory_order_relaxed); }

  size_t memory_limit() const { return limit_; }
  // Where spill files go; empty = the system's temporary directory.
  const std::filesystem::path& spill_dir() const { return spill_dir_; }
  // Unsent stream bytes held in memory now, the most ever held, and bytes ever spilled.
  size_t held_bytes() const { return held_.load(std::memory_order_relaxed); }
  size_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  uint64_t spilled_bytes() const { return spilled_.load(std::memory_order_relaxed); }

 private:
  size_t limit_;
  std::filesystem::path spill_dir_;
  std::atomic<size_t> held_{0};
  std::atomic<size_t> peak_{0};
  std::atomic<uint64_t> spilled_{0};
};

// quarry-store's one budget (Status.GetQueryStatistics reports it).
StreamBudget& ProcessStreamBudget();

class OutgoingBlocks {
 public:
  OutgoingBlocks() : OutgoingBlocks(ProcessStreamBudget()) {}
  explicit OutgoingBlocks(StreamBudget& budget) : budget_(&budget) {}
  OutgoingBlocks(OutgoingBlocks&& other) noexcept;
  OutgoingBlocks& operator=(OutgoingBlocks&&) = delete;
  ~OutgoingBlocks();  // gives its memory back to the budget

  // Rows are appended here. SealFullBlocks() (once tail() holds a block's worth) and SealAll()
  // (after the last row) hand the appended bytes to the next WriteAvailable().
  std::string& tail() { return tail_; }
  void SealFullBlocks();
  void SealAll() { tail_sealed_ = !tail_.empty(); }
  // Writes queued bytes, then the sealed tail, to the non-blocking `fd` until it would block;
  // what the pipe does not take is queued (memory or spill file). True when nothing is left.
  // kIo "the client closed …" on EPIPE; kIo with the OS reason otherwise; a failed spill.
  Result<bool> WriteAvailable(int fd);
  bool empty() const { return blocks_.empty() && spill_end_ == spill_read_ && tail_.empty(); }
  // Bytes not written yet: in memory, in the spill file and in the tail.
  size_t queued_bytes() const;

 private:
  // Queues `data` from `offset` on: in memory if the budget allows and nothing waits in the
  // spill file, else appended to the file.
  Result<void> Queue(std::string data, size_t offset);
  Result<void> Spill(const char* data, size_t size);
  Result<bool> WriteMemory(int fd);
  Result<bool> WriteSpilled(int fd);
  std::string TakeSpare();

  StreamBudget* budget_;
  std::deque<std::string> blocks_;  // in memory, reserved in budget_
  size_t front_written_ = 0;        // bytes of blocks_.front() already written
  size_t reserved_ = 0;             // bytes of blocks_ counted in budget_
  std::string tail_;
  bool tail_sealed_ = false;
  std::vector<std::string> spare_;  // written blocks kept for reuse (no fresh pages per block)
  UniqueFd spill_fd_;
  uint64_t spill_read_ = 0;  // next byte of the spill file to send
  uint64_t spill_end_ = 0;
  std::string scratch_;  // spill file → pipe
  std::optional<Error> spill_error_;
};

// Puts `fd` in non-blocking mode; kIo when the descriptor is unusable.
Result<void> MakeNonBlocking(int fd);

// The pipe capacity the store asks for on a client's stream (Linux's default is 64 KiB, one
// block: nearly every block write was partial, its rest copied into a fresh queued block, and
// each 64 KiB woke the client; issue 4, perf of the 300,000-row stream).
inline constexpr size_t kStreamPipeBytes = size_t{1} << 20;
// Best effort: asks for kStreamPipeBytes on the pipe `fd` and returns the capacity it has then;
// 0 when `fd` is not a pipe (a socket or a file works as before). Never fails the stream.
size_t EnlargePipe(int fd);

}  // namespace quarry::ipc
