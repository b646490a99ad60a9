#include "store/ipc/service_loop.h"

#include <signal.h>
#include <unistd.h>

#include <exception>

namespace quarry::ipc {

ServiceLoop::ServiceLoop(sdbus::IConnection& connection, LostHandler on_lost)
    : connection_(connection), on_lost_(std::move(on_lost)), thread_([this] { Run(); }) {}

ServiceLoop::~ServiceLoop() {
  leaving_ = true;
  try {
    connection_.leaveEventLoop();
  } catch (const std::exception&) {
    // The loop is gone already (a lost bus); nothing to leave.
  }
  thread_.join();
}

void ServiceLoop::Run() {
  try {
    connection_.enterEventLoop();
  } catch (const std::exception& error) {
    if (leaving_) return;
    lost_ = true;
    if (on_lost_) on_lost_(error.what());
    (void)::kill(::getpid(), SIGTERM);
  }
}

}  // namespace quarry::ipc
