#include "store/client/pipe_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

namespace quarry {
namespace {

Error ReadError(int error) {
  return Error(Errc::kIo,
               fmt::format("cannot read the FD result stream: {}", std::strerror(error)));
}

// A blocking call on a thread of its own; an eventfd tells the reader's poll() it returned.
class ThreadPump final : public ReplyPump {
 public:
  ThreadPump(PipeReader& reader, PipeReader::Call call)
      : reader_(reader), done_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    thread_ = std::jthread([this, call = std::move(call)] {
      result_ = call();
      const uint64_t one = 1;
      [[maybe_unused]] const ssize_t written = ::write(done_.get(), &one, sizeof one);
    });
  }
  Watch Prepare() override { return {done_.get(), POLLIN, -1}; }
  void Dispatch() override {
    uint64_t count = 0;
    if (::read(done_.get(), &count, sizeof count) != sizeof count) return;
    thread_.join();
    reader_.Deliver(std::move(result_));
  }

 private:
  PipeReader& reader_;
  UniqueFd done_;
  Result<PipeReader::Names> result_{Error(Errc::kInternal, "no reply yet")};  // the thread's
  std::jthread thread_;
};

}  // namespace

PipeReader::PipeReader(UniqueFd read_end) : read_end_(std::move(read_end)) {
  const int flags = ::fcntl(read_end_.get(), F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK) == 0) {
    (void)::fcntl(read_end_.get(), F_SETFL, flags | O_NONBLOCK);
  }
}

PipeReader::PipeReader(UniqueFd read_end, Call call) : PipeReader(std::move(read_end)) {
  pump_ = std::make_unique<ThreadPump>(*this, std::move(call));
}

PipeReader::~PipeReader() {
  // Complete: every byte the store wrote was read (it writes all before its success reply).
  if (recycle_ && read_end_ && replied_ && names_.ok() && pipe_ended_) {
    recycle_(std::move(read_end_), std::move(write_end_));
    return;
  }
  read_end_.reset();  // a store still writing gets EPIPE and replies with an error
  while (pump_ && !replied_) {
    if (!Wait(/*with_pipe=*/false)) break;
  }
}

void PipeReader::Deliver(Result<Names> names) {
  names_ = std::move(names);
  replied_ = true;
}

Result<void> PipeReader::Wait(bool with_pipe) {
  if (!pump_ || replied_) {
    if (!with_pipe) return Error(Errc::kInternal, "FD result stream: no reply to wait for");
    pollfd watched{read_end_.get(), POLLIN, 0};
    if (::poll(&watched, 1, -1) < 0 && errno != EINTR) return ReadError(errno);
    return Ok();
  }
  const ReplyPump::Watch watch = pump_->Prepare();
  if (replied_) {
    pump_.reset();
    return Ok();
  }
  pollfd watched[2] = {{watch.fd, watch.events, 0}, {read_end_.get(), POLLIN, 0}};
  const int ready = ::poll(watched, with_pipe ? 2 : 1, watch.timeout_ms);
  if (ready < 0 && errno != EINTR) return ReadError(errno);
  if (ready == 0 || (ready > 0 && watched[0].revents != 0)) pump_->Dispatch();
  if (replied_) pump_.reset();
  return Ok();
}

Result<void> PipeReader::WaitForReply() {
  while (!replied_) {
    if (!pump_) return Error(Errc::kInternal, "FD result stream: the call was never sent");
    QUARRY_TRY(Wait(/*with_pipe=*/false));
  }
  return Ok();
}

Result<size_t> PipeReader::ReadPipe(char* out, size_t max) {
  if (pipe_ended_) return size_t{0};
  for (;;) {
    // Read the flag before the pipe: once the reply is in, every byte is already in the pipe,
    // so an empty pipe read after that is the end.
    const bool reply_in = replied_;
    const ssize_t got = ::read(read_end_.get(), out, max);
    if (got > 0) return static_cast<size_t>(got);
    if (got == 0 || (errno == EAGAIN && reply_in)) {
      pipe_ended_ = true;
      return size_t{0};
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return ReadError(errno);
    QUARRY_TRY(Wait(/*with_pipe=*/true));
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

Result<PipeReader::Names> PipeReader::Finish() {
  constexpr size_t kChunk = 1 << 20;
  while (!pipe_ended_) {
    const size_t old_size = spilled_.size();
    spilled_.resize(old_size + kChunk);
    auto got = ReadPipe(spilled_.data() + old_size, kChunk);
    spilled_.resize(old_size + (got ? *got : 0));
    if (!got) {
      pipe_ended_ = true;
      read_end_.reset();  // the store stops writing (EPIPE) and replies
      (void)WaitForReply();
      return std::move(got).error();
    }
  }
  QUARRY_TRY(WaitForReply());
  return names_;
}

}  // namespace quarry
