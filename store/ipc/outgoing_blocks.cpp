#include "store/ipc/outgoing_blocks.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "store/ipc/row_encoder.h"

namespace quarry::ipc {

void OutgoingBlocks::SealFullBlocks() {
  if (tail_.size() < kStreamBlockSize) return;
  size_t start = 0;
  while (tail_.size() - start >= kStreamBlockSize) {
    blocks_.push_back(tail_.substr(start, kStreamBlockSize));
    start += kStreamBlockSize;
  }
  tail_.erase(0, start);
}

void OutgoingBlocks::SealAll() {
  SealFullBlocks();
  if (!tail_.empty()) blocks_.push_back(std::move(tail_));
  tail_.clear();
}

size_t OutgoingBlocks::queued_bytes() const {
  size_t total = tail_.size();
  for (const std::string& block : blocks_) total += block.size();
  return total - front_written_;
}

Result<bool> OutgoingBlocks::WriteAvailable(int fd) {
  while (!blocks_.empty()) {
    const std::string& block = blocks_.front();
    const ssize_t written =
        ::write(fd, block.data() + front_written_, block.size() - front_written_);
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
      if (errno == EPIPE) {
        return Error(Errc::kIo, "the client closed its end of the result stream before the end");
      }
      return Error(Errc::kIo,
                   fmt::format("cannot write the result stream: {}", std::strerror(errno)));
    }
    front_written_ += static_cast<size_t>(written);
    if (front_written_ == block.size()) {
      blocks_.pop_front();
      front_written_ = 0;
    }
  }
  return true;
}

Result<void> MakeNonBlocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    return Error(Errc::kIo,
                 fmt::format("the result stream descriptor is unusable: {}", std::strerror(errno)));
  }
  if ((flags & O_ACCMODE) == O_RDONLY) {
    return Error(Errc::kInvalidArgument,
                 "the result stream descriptor is open for reading only; pass the write end");
  }
  return Ok();
}

}  // namespace quarry::ipc
