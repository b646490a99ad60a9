// ServiceLoop: a service's sdbus-c++ connection processed on a thread of its own, as
// IConnection::enterEventLoopAsync() does, except that a lost bus (dbus-daemon gone: the
// session ended, or the daemon crashed) ends the process the orderly way instead of an
// sdbus::Error left uncaught on sdbus-c++'s thread (std::terminate, SIGABRT, a core dump and no
// word of what happened): `on_lost` is called with the reason (the program logs it with its own
// name), lost() turns true, and the process sends itself SIGTERM, which its main thread waits
// for (blocked in every thread, taken by sigwait or a signalfd) — the same stop as a user's.
// Used by quarry-miner-fs and quarry-extract; quarry-store has its own loop (event_loop.h).
// Thread-safety: construct and destroy on one thread; lost() from any.
#pragma once

#include <sdbus-c++/IConnection.h>

#include <atomic>
#include <functional>
#include <string_view>
#include <thread>

namespace quarry::ipc {

class ServiceLoop {
 public:
  using LostHandler = std::function<void(std::string_view reason)>;
  // Starts processing `connection` (which must outlive this) on a new thread.
  ServiceLoop(sdbus::IConnection& connection, LostHandler on_lost);
  // Leaves the loop and joins the thread (a lost bus: the thread has already ended).
  ~ServiceLoop();
  ServiceLoop(const ServiceLoop&) = delete;
  ServiceLoop& operator=(const ServiceLoop&) = delete;

  bool lost() const { return lost_; }

 private:
  void Run();

  sdbus::IConnection& connection_;
  LostHandler on_lost_;
  std::atomic<bool> leaving_{false};
  std::atomic<bool> lost_{false};
  std::thread thread_;  // last: started once the members it uses exist
};

}  // namespace quarry::ipc
