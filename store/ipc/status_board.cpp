#include "store/ipc/status_board.h"

#include <algorithm>

namespace quarry::ipc {

void StatusBoard::SetListener(Listener listener) {
  const std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

void StatusBoard::SetBusy(double progress) {
  {
    const std::lock_guard lock(mutex_);
    busy_ = true;
    progress_ = std::clamp(progress, 0.0, 1.0);
  }
  Notify();
}

void StatusBoard::SetIdle() {
  {
    const std::lock_guard lock(mutex_);
    busy_ = false;
    progress_ = 1.0;
  }
  Notify();
}

void StatusBoard::SetMessage(std::string message) {
  const std::lock_guard lock(mutex_);
  message_ = std::move(message);
}

std::string StatusBoard::status() const {
  const std::lock_guard lock(mutex_);
  return busy_ ? kStatusBusy : kStatusIdle;
}

double StatusBoard::progress() const {
  const std::lock_guard lock(mutex_);
  return progress_;
}

std::string StatusBoard::message() const {
  const std::lock_guard lock(mutex_);
  return message_;
}

void StatusBoard::Notify() {
  Listener listener;
  std::string status;
  double progress = 0.0;
  {
    const std::lock_guard lock(mutex_);
    listener = listener_;
    status = busy_ ? kStatusBusy : kStatusIdle;
    progress = progress_;
  }
  if (listener) listener(status, progress);
}

}  // namespace quarry::ipc
