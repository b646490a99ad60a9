// StatusBoard: what org.quarry.Store1.Status reports — "Busy" while the store cannot serve
// (opening or migrating at start, restoring a backup), "Idle" otherwise — the progress of
// that work (0.0 … 1.0), and the last notable event in words (e.g. a broken database moved
// aside at start).
//
// Each change calls the listener (the D-Bus layer emits the Progress signal from it).
// Thread-safety: every method may be called from any thread; the listener runs on the thread
// that made the change, outside the lock.
#pragma once

#include <functional>
#include <mutex>
#include <string>

namespace quarry::ipc {

inline constexpr const char* kStatusIdle = "Idle";
inline constexpr const char* kStatusBusy = "Busy";

class StatusBoard {
 public:
  using Listener = std::function<void(const std::string& status, double progress)>;

  void SetListener(Listener listener);
  // Busy with `progress` (0 at the start of the work).
  void SetBusy(double progress);
  void SetIdle();
  // Remembers a notable event for GetStatusMessage(); it stays until replaced.
  void SetMessage(std::string message);

  std::string status() const;
  double progress() const;
  std::string message() const;

 private:
  void Notify();

  mutable std::mutex mutex_;
  bool busy_ = true;  // a store starts busy: the database opens after the bus name is taken
  double progress_ = 0.0;
  std::string message_;
  Listener listener_;
};

}  // namespace quarry::ipc
