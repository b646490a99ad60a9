// OutgoingBlocks: the bytes of one Steroids stream between the row encoder and the client's
// pipe, cut into kStreamBlockSize blocks and written without blocking.
//
// The reader thread appends rows to tail() while it steps SQLite and writes whatever the pipe
// takes; what the client has not read yet stays here after the statement is released
// (DESIGN.md: a slow client never holds a read transaction), and StreamDrainer sends it.
// Thread-safety: one thread at a time (handed from the reader thread to the drainer).
#pragma once

#include <cstddef>
#include <deque>
#include <string>

#include "store/common/result.h"

namespace quarry::ipc {

class OutgoingBlocks {
 public:
  // Rows are appended here; SealFullBlocks() moves complete blocks to the write queue.
  std::string& tail() { return tail_; }
  void SealFullBlocks();
  // Queues what is left in tail() as the last (short) block.
  void SealAll();
  // Writes queued blocks to the non-blocking `fd` until it would block. True when the queue is
  // empty. kIo "the client closed …" on EPIPE; kIo with the OS reason otherwise.
  Result<bool> WriteAvailable(int fd);
  bool empty() const { return blocks_.empty() && tail_.empty(); }
  size_t queued_bytes() const;

 private:
  std::deque<std::string> blocks_;
  size_t front_written_ = 0;  // bytes of blocks_.front() already written
  std::string tail_;
};

// Puts `fd` in non-blocking mode; kIo when the descriptor is unusable.
Result<void> MakeNonBlocking(int fd);

}  // namespace quarry::ipc
