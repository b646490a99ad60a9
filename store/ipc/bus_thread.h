// BusThread: an sdbus-c++ connection processed on a thread of its own, as
// IConnection::enterEventLoopAsync() does, except that a lost bus (dbus-daemon gone: the
// session ended, or the daemon crashed) is reported instead of an sdbus::Error left uncaught on
// sdbus-c++'s thread (std::terminate: SIGABRT, a core dump and no word of what happened, in a
// service or in the application that uses the client library): `on_lost` is called on the
// thread with the reason, and lost() turns true. quarry-miner-fs and quarry-extract log it and
// stop (StopProcessOnLostBus); a Notifier stops delivering. quarry-store has its own loop
// (event_loop.h).
// Thread-safety: construct and destroy on one thread; lost() from any.
#pragma once

#include <sdbus-c++/IConnection.h>

#include <atomic>
#include <functional>
#include <string_view>
#include <thread>

namespace quarry::ipc {

class BusThread {
 public:
  using LostHandler = std::function<void(std::string_view reason)>;
  // Starts processing `connection` (which must outlive this) on a new thread.
  BusThread(sdbus::IConnection& connection, LostHandler on_lost);
  // Leaves the loop and joins the thread (a lost bus: the thread has already ended).
  ~BusThread();
  BusThread(const BusThread&) = delete;
  BusThread& operator=(const BusThread&) = delete;

  bool lost() const { return lost_; }

 private:
  void Run();

  sdbus::IConnection& connection_;
  LostHandler on_lost_;
  std::atomic<bool> leaving_{false};
  std::atomic<bool> lost_{false};
  std::thread thread_;  // last: started once the members it uses exist
};

// For a service: `log` the loss, then SIGTERM to the process, which its main thread waits for
// (blocked in every thread, taken by sigwait or a signalfd): the same orderly stop as a user's.
BusThread::LostHandler StopProcessOnLostBus(std::function<void(std::string_view line)> log);

}  // namespace quarry::ipc
