// PipeReader: the client side of one Steroids query in flight (DESIGN.md "FD result stream"):
// the read end of the pipe, and the call's reply, which a ReplyPump delivers while the reader
// waits for bytes, so the caller decodes rows while the store still writes them (client and
// store overlap; the client never holds the whole encoded stream, bench/ipc).
//
// No thread per query (issue 4: thread start and the hand-offs between threads were most of the
// fixed cost of a small FD query): the bus pump (bus_backend.cpp) sends the call asynchronously
// and dispatches the bus connection inside the reader's own poll() on the pipe. A blocking Call
// can still run on a thread of its own (ThreadPump; the tests' fake stores).
//
// End of stream without any wait: the store writes every byte before it replies, so once the
// reply is in, an empty pipe is the end. EOF and the reply come in either order (the D-Bus
// message the store received holds its own copy of the descriptor until it is freed); polling
// for EOF with a timeout cost every FD query ~20 ms before (issue 4).
//
// Thread-safety: everything from one thread at a time (the Connection's); the pump runs inside
// the reader's calls. The destructor closes the read end first (a store still writing gets
// EPIPE and replies), then waits for the reply, so no reply outlives its reader.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "store/client/row_stream_cursor.h"
#include "store/common/result.h"
#include "store/common/unique_fd.h"

namespace quarry {

// Brings in the reply of one call: driven only from the PipeReader's thread, inside its waits.
// It hands the reply over with PipeReader::Deliver().
class ReplyPump {
 public:
  struct Watch {
    int fd = -1;
    short events = 0;
    int timeout_ms = -1;  // -1: none
  };
  virtual ~ReplyPump() = default;
  // Handles whatever already arrived (which may deliver the reply), then says what to poll.
  virtual Watch Prepare() = 0;
  // After poll() reported the watched descriptor, or its timeout passed.
  virtual void Dispatch() = 0;
};

class PipeReader {
 public:
  using Names = std::vector<std::string>;
  // A blocking call: returns the variable names once the store replied, or its error.
  using Call = std::function<Result<Names>()>;

  // `read_end` is made non-blocking; SetPump() brings the reply.
  explicit PipeReader(UniqueFd read_end);
  // Runs `call` on a thread of its own (a ThreadPump).
  PipeReader(UniqueFd read_end, Call call);
  ~PipeReader();
  PipeReader(const PipeReader&) = delete;
  PipeReader& operator=(const PipeReader&) = delete;

  void SetPump(std::unique_ptr<ReplyPump> pump) { pump_ = std::move(pump); }
  // Keeps the pipe for another query: this reader holds `write_end` open, and when it is
  // destroyed after a complete stream (the success reply in, the pipe read until empty) it hands
  // both ends to `recycle` instead of closing them. The end of a stream never depends on EOF
  // (the reply marks it), so an open write end changes nothing for the reading.
  using Recycle = std::function<void(UniqueFd read_end, UniqueFd write_end)>;
  void SetRecycle(UniqueFd write_end, Recycle recycle) {
    write_end_ = std::move(write_end);
    recycle_ = std::move(recycle);
  }
  // The reply: the names or the call's error.
  void Deliver(Result<Names> names);

  // Blocks until bytes are available: copies up to `max` into `out`; 0 at the end of the
  // stream (EOF, or the reply is in and the pipe is empty).
  Result<size_t> Read(char* out, size_t max);
  // Blocks until the first bytes arrive (kept for Read()) or the stream ends; true when it
  // ended without a byte (then Finish() has the reply: an error, or an empty result).
  Result<bool> WaitForData();
  // Waits for the reply, keeping the bytes the pipe still carries in memory for Read(): the
  // variable names or the call's error. The Connection calls it before its next call.
  Result<Names> Finish();
  bool replied() const { return replied_; }

 private:
  Result<size_t> ReadPipe(char* out, size_t max);
  // One poll() on the pipe (when `with_pipe`) and the pump; dispatches the pump.
  Result<void> Wait(bool with_pipe);
  Result<void> WaitForReply();

  UniqueFd read_end_;
  UniqueFd write_end_;  // with recycle_: kept open so the pipe can carry the next stream
  Recycle recycle_;
  std::unique_ptr<ReplyPump> pump_;  // dropped once the reply is in
  bool replied_ = false;
  Result<Names> names_{Error(Errc::kInternal, "no reply yet")};
  bool pipe_ended_ = false;
  std::string spilled_;  // bytes read from the pipe that Read() has not handed out yet
  size_t spilled_read_ = 0;
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
