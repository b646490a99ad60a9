// The Tracker 3.4 side of bench/ipc: libtracker-sparql's D-Bus connection to a
// `tracker3 endpoint` on the session bus, read with the C API (no Python in the measurement).
// Without tracker-sparql-3.0 at build time, Fetch() fails with kUnsupported.
// Thread-safety: one thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "quarry/result.h"

namespace bench {

class TrackerClient {
 public:
  explicit TrackerClient(std::string bus_name);
  ~TrackerClient();
  // Runs `query`, calling `on_value` for every column of every row, then `on_row_end`.
  quarry::Result<void> Fetch(const std::string& query,
                             const std::function<void(std::string_view)>& on_value,
                             const std::function<void()>& on_row_end);

 private:
  struct State;
  std::string bus_name_;
  std::unique_ptr<State> state_;
};

}  // namespace bench
