// PipeReader: the client side of one Steroids Query in flight (DESIGN.md "FD result stream"):
// the read end of the pipe, and the blocking D-Bus call, which runs on its own thread so that
// the caller decodes rows while the store still writes them (client and store overlap; the
// client never holds the whole encoded stream, bench/ipc).
//
// End of stream without any wait: the store writes every byte before it replies, so once the
// reply is in, an empty pipe is the end. EOF and the reply come in either order (the D-Bus
// message the store received holds its own copy of the descriptor until it is freed); polling
// for EOF with a timeout cost every FD query ~20 ms before (issue 4).
//
// Thread-safety: Read(), WaitForData() and Finish() from one thread at a time (the Connection's);
// the call thread is private. The destructor closes the read end first (the store's writes then
// fail with EPIPE and it replies), then joins the call.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <memory>

#include "store/client/row_stream_cursor.h"
#include "store/common/result.h"
#include "store/common/unique_fd.h"

namespace quarry {

class PipeReader {
 public:
  // The D-Bus call: returns the variable names once the store replied, or its error.
  using Call = std::function<Result<std::vector<std::string>>()>;

  // Starts `call` on its own thread. `read_end` is made non-blocking.
  PipeReader(UniqueFd read_end, Call call);
  ~PipeReader();
  PipeReader(const PipeReader&) = delete;
  PipeReader& operator=(const PipeReader&) = delete;

  // Blocks until bytes are available: copies up to `max` into `out`; 0 at the end of the
  // stream (EOF, or the reply is in and the pipe is empty).
  Result<size_t> Read(char* out, size_t max);
  // Blocks until the first bytes arrive (kept for Read()) or the stream ends; true when it
  // ended without a byte (then Finish() has the reply: an error, or an empty result).
  Result<bool> WaitForData();
  // Waits for the reply, keeping the bytes the pipe still carries in memory for Read(): the
  // variable names or the call's error. The Connection calls it before its next call.
  Result<std::vector<std::string>> Finish();
  bool replied() const { return replied_.load(std::memory_order_acquire); }

 private:
  Result<size_t> ReadPipe(char* out, size_t max);
  Result<void> WaitReadable();
  void JoinCall();

  UniqueFd read_end_;
  UniqueFd replied_event_;  // eventfd, readable once the call returned
  std::atomic<bool> replied_{false};
  // Written by the call thread before replied_ is set.
  Result<std::vector<std::string>> names_{Error(Errc::kInternal, "no reply yet")};
  bool pipe_ended_ = false;
  bool joined_ = false;
  std::string spilled_;  // bytes read by Finish() that Read() has not handed out yet
  size_t spilled_read_ = 0;
  std::jthread call_thread_;
};

// A RowStreamCursor's bytes straight from a PipeReader while the store writes them.
class PipeSource final : public RowSource {
 public:
  explicit PipeSource(std::shared_ptr<PipeReader> reader) : reader_(std::move(reader)) {}
  Result<size_t> Read(char* out, size_t max) override { return reader_->Read(out, max); }
  Result<std::vector<std::string>> Names() override { return reader_->Finish(); }

 private:
  std::shared_ptr<PipeReader> reader_;
};

}  // namespace quarry
