// PipeReader: drains the read end of the FD result stream on its own thread into memory, so
// quarry-store never blocks on a full pipe while the caller waits for the D-Bus reply (the
// seed's lesson: buffer on the client side, release the store's read transaction early).
// Thread-safety: construct, Finish() and destroy from one thread; the reader thread is private.
#pragma once

#include <string>
#include <thread>

#include "store/common/result.h"
#include "store/common/unique_fd.h"

namespace quarry {

class PipeReader {
 public:
  explicit PipeReader(UniqueFd read_end);
  ~PipeReader();
  PipeReader(const PipeReader&) = delete;
  PipeReader& operator=(const PipeReader&) = delete;

  // Call once the D-Bus reply is in: the writer has closed its end, so what is left in the pipe
  // is the rest of the stream. Returns every byte read, or the read error.
  Result<std::string> Finish();

 private:
  void Drain(std::stop_token stop);

  UniqueFd read_end_;
  std::string data_;
  int read_errno_ = 0;
  std::jthread thread_;
};

}  // namespace quarry
