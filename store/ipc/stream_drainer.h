// StreamDrainer: one thread that finishes Steroids streams whose rows are already out of
// SQLite: it polls the client pipes, writes the queued blocks as each pipe drains, closes the
// descriptor and only then reports completion (which sends the D-Bus reply).
//
// Many slow clients cost memory here, never a reader thread or a read transaction.
// Thread-safety: Add() and Stop() from any thread; completions run on the drainer thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "store/common/result.h"
#include "store/common/unique_fd.h"
#include "store/ipc/outgoing_blocks.h"

namespace quarry::ipc {

class StreamDrainer {
 public:
  // Called once the descriptor is closed: Ok when every byte was written.
  using Completion = std::function<void(Result<void>)>;

  StreamDrainer();
  ~StreamDrainer();  // Stop(0 s)
  StreamDrainer(const StreamDrainer&) = delete;
  StreamDrainer& operator=(const StreamDrainer&) = delete;

  // Takes over a non-blocking `fd` and its unsent blocks.
  void Add(UniqueFd fd, OutgoingBlocks blocks, Completion done);
  // Lets pending streams finish for up to `grace`, then fails the rest and joins the thread.
  void Stop(std::chrono::milliseconds grace);

 private:
  struct Stream {
    UniqueFd fd;
    OutgoingBlocks blocks;
    Completion done;
  };
  void Run(std::stop_token stop);
  static void Finish(Stream& stream, Result<void> outcome);
  void PollOnce(std::vector<std::unique_ptr<Stream>>& streams, int timeout_ms);
  void Wake();

  std::mutex mutex_;
  std::vector<std::unique_ptr<Stream>> incoming_;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  UniqueFd wake_fd_;  // eventfd: Add() and Stop() interrupt poll()
  std::jthread thread_;
};

}  // namespace quarry::ipc
