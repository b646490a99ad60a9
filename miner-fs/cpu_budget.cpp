#include "miner-fs/cpu_budget.h"

#include <time.h>

#include <algorithm>

namespace quarry::miner {

std::chrono::microseconds RestAfter(std::chrono::microseconds cpu, std::chrono::microseconds wall,
                                    int percent) {
  if (percent >= 100 || cpu.count() <= 0) return std::chrono::microseconds(0);
  const int64_t needed_wall = cpu.count() * 100 / std::max(percent, 1);
  return std::chrono::microseconds(std::max<int64_t>(0, needed_wall - wall.count()));
}

std::chrono::microseconds ThreadCpuTime() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) +
         std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::nanoseconds(now.tv_nsec));
}

}  // namespace quarry::miner
