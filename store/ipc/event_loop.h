// EventLoop: the bus connection's event loop on a thread of quarry-store's own.
//
// Two things sdbus-c++'s enterEventLoopAsync() gets wrong for a store that replies from worker
// threads:
// - Its thread lets an exception escape: when dbus-daemon drops the connection (e.g. a reply
//   over its message size limit) the loop throws and std::terminate() aborts the store
//   mid-write. Here the failure is caught and logged with its reason, and the thread raises
//   SIGTERM for the process, whose main thread then finishes every queued job as for any
//   other stop (a store without a bus answers nobody; D-Bus activation or
//   `quarry daemon start` brings it back).
// - A reply sent from a worker thread that does not fit in the socket buffer stays half
//   written in sd-bus's queue while the loop sleeps in poll() waiting only for input: the
//   client waits forever for a large SparqlQuery reply. Here the loop polls an eventfd too,
//   and every sender calls WakeEventLoop() after sending, so the loop recomputes what to wait
//   for (POLLOUT while output is queued) and writes the rest.
// Thread-safety: Start() and Stop() from the thread that owns the service; WakeEventLoop()
// from any thread. One EventLoop per process (quarry-store has one bus connection).
#pragma once

#include <sdbus-c++/IConnection.h>

#include <atomic>
#include <thread>

#include "store/common/unique_fd.h"

namespace quarry::ipc {

class EventLoop {
 public:
  explicit EventLoop(sdbus::IConnection& connection);
  ~EventLoop() { Stop(); }
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  void Start();
  // Ends the loop (if it still runs) and joins its thread. Safe to call twice; call it once
  // no other thread sends on the connection any more.
  void Stop();
  // Whether the loop ended because the connection failed rather than by Stop().
  bool lost() const { return lost_; }

 private:
  void Run();
  // Processes everything pending, then waits for the bus or a wake-up; false once stopping.
  bool Turn();

  sdbus::IConnection& connection_;
  UniqueFd wake_fd_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> lost_{false};
  std::thread thread_;
};

// Tells the running loop that a message was queued from another thread (a reply, a signal).
// A no-op when no loop runs, and when the message went out whole (nothing waits in sd-bus's
// output queue, so the loop's poll() already waits for the right events).
void WakeEventLoop();

}  // namespace quarry::ipc
