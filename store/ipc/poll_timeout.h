// poll()'s timeout for an sd-bus deadline: both the store's event loop and the client's
// pipe waits turn sd_bus_get_timeout()'s absolute CLOCK_MONOTONIC time into milliseconds.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace quarry::ipc {

// Milliseconds until `deadline_usec` (CLOCK_MONOTONIC), rounded up; -1 for UINT64_MAX (none).
inline int PollTimeoutMs(uint64_t deadline_usec) {
  if (deadline_usec == std::numeric_limits<uint64_t>::max()) return -1;
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const uint64_t now_usec =
      static_cast<uint64_t>(now.tv_sec) * 1000000 + static_cast<uint64_t>(now.tv_nsec) / 1000;
  if (deadline_usec <= now_usec) return 0;
  const uint64_t wait_ms = (deadline_usec - now_usec + 999) / 1000;
  return static_cast<int>(std::min<uint64_t>(wait_ms, std::numeric_limits<int>::max()));
}

}  // namespace quarry::ipc
