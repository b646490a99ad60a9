#include "store/client/pipe_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace quarry {
namespace {

Error ReadError(int error) {
  return Error(Errc::kIo,
               fmt::format("cannot read the FD result stream: {}", std::strerror(error)));
}

}  // namespace

PipeReader::PipeReader(UniqueFd read_end, Call call)
    : read_end_(std::move(read_end)), replied_event_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  const int flags = ::fcntl(read_end_.get(), F_GETFL);
  if (flags >= 0) (void)::fcntl(read_end_.get(), F_SETFL, flags | O_NONBLOCK);
  call_thread_ = std::jthread([this, call = std::move(call)] {
    names_ = call();
    replied_.store(true, std::memory_order_release);
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(replied_event_.get(), &one, sizeof one);
  });
}

PipeReader::~PipeReader() {
  read_end_.reset();  // a store still writing gets EPIPE and replies with an error
  JoinCall();
}

void PipeReader::JoinCall() {
  if (joined_) return;
  if (call_thread_.joinable()) call_thread_.join();
  joined_ = true;
}

// Waits until the pipe has bytes (or EOF) or the call returned.
Result<void> PipeReader::WaitReadable() {
  pollfd watched[2] = {{read_end_.get(), POLLIN, 0}, {replied_event_.get(), POLLIN, 0}};
  for (;;) {
    const int ready = ::poll(watched, 2, -1);
    if (ready > 0) return Ok();
    if (ready < 0 && errno != EINTR) return ReadError(errno);
  }
}

Result<size_t> PipeReader::ReadPipe(char* out, size_t max) {
  if (pipe_ended_) return size_t{0};
  for (;;) {
    // Read the flag before the pipe: once the reply is in, every byte is already in the pipe,
    // so an empty pipe read after that is the end.
    const bool reply_in = replied();
    const ssize_t got = ::read(read_end_.get(), out, max);
    if (got > 0) return static_cast<size_t>(got);
    if (got == 0 || (errno == EAGAIN && reply_in)) {
      pipe_ended_ = true;
      return size_t{0};
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return ReadError(errno);
    QUARRY_TRY(WaitReadable());
  }
}

Result<size_t> PipeReader::Read(char* out, size_t max) {
  if (spilled_read_ < spilled_.size()) {
    const size_t count = std::min(max, spilled_.size() - spilled_read_);
    std::memcpy(out, spilled_.data() + spilled_read_, count);
    spilled_read_ += count;
    if (spilled_read_ == spilled_.size()) {
      spilled_.clear();
      spilled_read_ = 0;
    }
    return count;
  }
  return ReadPipe(out, max);
}

Result<bool> PipeReader::WaitForData() {
  if (spilled_read_ < spilled_.size()) return false;
  // Read the first bytes here, kept for Read(): polling alone cannot tell an EOF that comes
  // before the reply from data.
  constexpr size_t kFirstRead = 64 * 1024;
  spilled_.resize(kFirstRead);
  spilled_read_ = 0;
  auto got = ReadPipe(spilled_.data(), kFirstRead);
  spilled_.resize(got ? *got : 0);
  if (!got) return std::move(got).error();
  return *got == 0;
}

Result<std::vector<std::string>> PipeReader::Finish() {
  constexpr size_t kChunk = 1 << 20;
  while (!pipe_ended_) {
    const size_t old_size = spilled_.size();
    spilled_.resize(old_size + kChunk);
    auto got = ReadPipe(spilled_.data() + old_size, kChunk);
    spilled_.resize(old_size + (got ? *got : 0));
    if (!got) {
      pipe_ended_ = true;
      read_end_.reset();  // the store stops writing (EPIPE) and replies
      JoinCall();
      return std::move(got).error();
    }
  }
  JoinCall();
  return names_;
}

}  // namespace quarry
