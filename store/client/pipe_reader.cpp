#include "store/client/pipe_reader.h"

#include <fmt/format.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

namespace quarry {
namespace {

constexpr size_t kChunk = 64 * 1024;
// How long the reader waits for more bytes once the reply is in. The store closed its end
// before replying, so an idle pipe then means the end (our own copy of the write end, still
// held by the sent message, may keep EOF from showing).
constexpr int kIdleAfterReplyMs = 20;

}  // namespace

PipeReader::PipeReader(UniqueFd read_end)
    : read_end_(std::move(read_end)), thread_([this](std::stop_token stop) { Drain(stop); }) {}

PipeReader::~PipeReader() {
  if (thread_.joinable()) {
    thread_.request_stop();
    thread_.join();
  }
}

void PipeReader::Drain(std::stop_token stop) {
  pollfd watched{read_end_.get(), POLLIN, 0};
  for (;;) {
    const int ready = ::poll(&watched, 1, kIdleAfterReplyMs);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      read_errno_ = errno;
      return;
    }
    if (ready == 0) {
      if (stop.stop_requested()) return;
      continue;
    }
    const size_t old_size = data_.size();
    data_.resize(old_size + kChunk);
    const ssize_t got = ::read(read_end_.get(), data_.data() + old_size, kChunk);
    data_.resize(old_size + (got > 0 ? static_cast<size_t>(got) : 0));
    if (got == 0) return;  // EOF: every writer closed
    if (got < 0 && errno != EINTR && errno != EAGAIN) {
      read_errno_ = errno;
      return;
    }
  }
}

Result<std::string> PipeReader::Finish() {
  thread_.request_stop();
  thread_.join();
  if (read_errno_ != 0) {
    return Error(Errc::kIo, fmt::format("cannot read the FD result stream: {}",
                                        std::strerror(read_errno_)));
  }
  return std::move(data_);
}

}  // namespace quarry
