#include "store/ipc/bus_thread.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <exception>

namespace quarry::ipc {

BusThread::BusThread(sdbus::IConnection& connection, LostHandler on_lost)
    : connection_(connection), on_lost_(std::move(on_lost)), thread_([this] { Run(); }) {}

BusThread::~BusThread() {
  leaving_ = true;
  try {
    connection_.leaveEventLoop();
  } catch (const std::exception&) {
    // The loop is gone already (a lost bus); nothing to leave.
  }
  thread_.join();
}

void BusThread::Run() {
  try {
    connection_.enterEventLoop();
  } catch (const std::exception& error) {
    if (leaving_) return;
    lost_ = true;
    if (on_lost_) on_lost_(error.what());
  }
}

BusThread::LostHandler StopProcessOnLostBus(std::function<void(std::string_view line)> log) {
  return [log = std::move(log)](std::string_view reason) {
    log(fmt::format("lost the connection to the bus ({}); stopping", reason));
    (void)::kill(::getpid(), SIGTERM);
  };
}

}  // namespace quarry::ipc
