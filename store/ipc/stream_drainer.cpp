#include "store/ipc/stream_drainer.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace quarry::ipc {
namespace {

// While stopping, poll() wakes up this often to check the grace deadline.
constexpr int kStoppingPollMs = 50;

}  // namespace

void StreamDrainer::Finish(Stream& stream, Result<void> outcome) {
  stream.fd.reset();  // close before replying: the client must see EOF before the reply
  stream.done(std::move(outcome));
}

StreamDrainer::StreamDrainer()
    : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      thread_([this](std::stop_token stop) { Run(stop); }) {}

StreamDrainer::~StreamDrainer() { Stop(std::chrono::milliseconds(0)); }

void StreamDrainer::Add(UniqueFd fd, OutgoingBlocks blocks, Completion done) {
  {
    const std::lock_guard lock(mutex_);
    incoming_.push_back(
        std::make_unique<Stream>(Stream{std::move(fd), std::move(blocks), std::move(done)}));
  }
  Wake();
}

void StreamDrainer::Stop(std::chrono::milliseconds grace) {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    deadline_ = std::chrono::steady_clock::now() + grace;
  }
  thread_.request_stop();
  Wake();
  thread_.join();
}

void StreamDrainer::Wake() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(wake_fd_.get(), &one, sizeof one);
}

void StreamDrainer::Run(std::stop_token stop) {
  std::vector<std::unique_ptr<Stream>> streams;
  for (;;) {
    std::chrono::steady_clock::time_point deadline;
    {
      const std::lock_guard lock(mutex_);
      for (auto& stream : incoming_) streams.push_back(std::move(stream));
      incoming_.clear();
      deadline = deadline_;
    }
    if (stop.stop_requested() &&
        (streams.empty() || std::chrono::steady_clock::now() >= deadline)) {
      break;
    }
    PollOnce(streams, stop.stop_requested() ? kStoppingPollMs : -1);
  }
  for (auto& stream : streams) {
    Finish(*stream, Error(Errc::kBusy, "quarry-store is shutting down; the result stream was cut"));
  }
}

// Waits for writable pipes (or a wake-up) and writes to them.
void StreamDrainer::PollOnce(std::vector<std::unique_ptr<Stream>>& streams, int timeout_ms) {
  std::vector<pollfd> fds;
  fds.push_back({wake_fd_.get(), POLLIN, 0});
  for (const auto& stream : streams) fds.push_back({stream->fd.get(), POLLOUT, 0});
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return;
  if (fds[0].revents & POLLIN) {
    uint64_t count = 0;
    [[maybe_unused]] const ssize_t got = ::read(wake_fd_.get(), &count, sizeof count);
  }
  std::vector<std::unique_ptr<Stream>> still_pending;
  for (size_t i = 0; i < streams.size(); ++i) {
    auto& stream = streams[i];
    if (fds[i + 1].revents == 0) {
      still_pending.push_back(std::move(stream));
      continue;
    }
    auto written = stream->blocks.WriteAvailable(stream->fd.get());
    if (!written) {
      Finish(*stream, std::move(written).error());
    } else if (*written) {
      Finish(*stream, Ok());
    } else {
      still_pending.push_back(std::move(stream));
    }
  }
  streams = std::move(still_pending);
}

}  // namespace quarry::ipc
