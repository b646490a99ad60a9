#include "store/ipc/event_loop.h"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <limits>
#include <system_error>

#include <sdbus-c++/Error.h>

#include "store/ipc/log.h"
#include "store/ipc/poll_timeout.h"

namespace quarry::ipc {
namespace {

// The running loop's eventfd and connection, for WakeEventLoop(); -1 / null when none runs.
std::atomic<int> g_wake_fd{-1};
std::atomic<sdbus::IConnection*> g_connection{nullptr};

void WriteWake(int fd) {
  const uint64_t one = 1;
  (void)!::write(fd, &one, sizeof one);  // a full counter already wakes the loop
}

}  // namespace

void WakeEventLoop() {
  const int fd = g_wake_fd.load();
  if (fd < 0) return;
  // Only when the send left output queued (sd-bus then asks for POLLOUT): a reply that went out
  // whole changes nothing the loop waits for, and waking it anyway cost every call a context
  // switch and ~5 system calls on the bus thread (issue 7, store reads). sdbus-c++ locks its
  // sd_bus calls, so asking from this thread is safe.
  if (sdbus::IConnection* connection = g_connection.load()) {
    try {
      if ((connection->getEventLoopPollData().events & POLLOUT) == 0) return;
    } catch (const sdbus::Error&) {
      // A failing connection: let the loop find out.
    }
  }
  WriteWake(fd);
}

EventLoop::EventLoop(sdbus::IConnection& connection)
    : connection_(connection), wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!wake_fd_) {
    throw std::system_error(errno, std::generic_category(), "cannot create the loop's eventfd");
  }
}

void EventLoop::Start() {
  g_wake_fd = wake_fd_.get();
  g_connection = &connection_;
  thread_ = std::thread([this] { Run(); });
}

void EventLoop::Stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  WriteWake(wake_fd_.get());
  thread_.join();
  g_connection = nullptr;
  g_wake_fd = -1;
}

bool EventLoop::Turn() {
  while (connection_.processPendingRequest()) {
  }
  const sdbus::IConnection::PollData bus = connection_.getEventLoopPollData();
  pollfd watched[2] = {{bus.fd, bus.events, 0}, {wake_fd_.get(), POLLIN, 0}};
  const int ready = ::poll(watched, 2, PollTimeoutMs(bus.timeout_usec));
  if (ready < 0 && errno != EINTR) {
    throw std::system_error(errno, std::generic_category(), "poll on the bus connection");
  }
  if (ready > 0 && (watched[1].revents & POLLIN) != 0) {
    uint64_t count = 0;
    (void)!::read(wake_fd_.get(), &count, sizeof count);
  }
  return !stopping_;
}

void EventLoop::Run() {
  try {
    while (Turn()) {
    }
    // Stopping: write out what is still queued (the last replies) before the thread ends.
    while (connection_.processPendingRequest()) {
    }
  } catch (const std::exception& error) {
    if (stopping_) return;
    lost_ = true;
    LogError(fmt::format(
        "lost the connection to the bus ({}); stopping after the queued work (D-Bus activation "
        "or `quarry daemon start` starts the store again)",
        error.what()));
    // The main thread waits for SIGTERM/SIGINT (blocked in every thread, taken by sigwait):
    // the same orderly stop as `quarry daemon stop`.
    ::kill(::getpid(), SIGTERM);
  }
}

}  // namespace quarry::ipc
