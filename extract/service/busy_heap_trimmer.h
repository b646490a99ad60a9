// Heap given back while a process of quarry-extract is busy. The process trimmer
// (store/common/process_memory.h) only trims a quiet process, and a worker is busy from the
// first file to the last (the dispatcher nearly so): freed buffers of earlier files (a PDF's
// text, an image's tags; in the dispatcher, written results) stayed resident, 4-7 MiB of heap
// per worker at 20,000 files of which ~1.8 MiB live (bench/index/README.md "heap trimmed while
// busy"). After a unit of work (a file, a batch written), BusyHeapTrimmer::AfterWork() looks at
// most once per kBusyTrimEvery and trims when the resident size grew by kBusyTrimGrowth since
// the last trim: at most one malloc_trim(0) a second, about a millisecond each.
// Thread-safety: one trimmer per thread; glibc's malloc only (does nothing under ASan).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "store/common/process_memory.h"

namespace quarry::extract::service {

inline constexpr std::chrono::milliseconds kBusyTrimEvery{1000};
inline constexpr size_t kBusyTrimGrowth = size_t{512} << 10;

// The rule: a second or more since the last look, and grown by kBusyTrimGrowth.
inline bool BusyTrimDue(std::chrono::steady_clock::duration since_last_look, size_t resident,
                        size_t resident_after_trim) {
  return since_last_look >= kBusyTrimEvery && resident >= resident_after_trim &&
         resident - resident_after_trim >= kBusyTrimGrowth;
}

class BusyHeapTrimmer {
 public:
  // `enabled`: QUARRY_MALLOC's settings apply and have a trimmer (not QUARRY_MALLOC=glibc).
  explicit BusyHeapTrimmer(bool enabled) : enabled_(enabled) {}
  void AfterWork() {
#if !defined(__SANITIZE_ADDRESS__)
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const auto since = now - last_look_;
    if (since < kBusyTrimEvery) return;
    last_look_ = now;
    const size_t resident = ResidentBytes();
    resident_after_trim_ = std::min(resident_after_trim_, resident);
    if (BusyTrimDue(since, resident, resident_after_trim_) && TrimFreeHeap(kBusyTrimGrowth)) {
      resident_after_trim_ = ResidentBytes();
    }
#endif
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_look_ = std::chrono::steady_clock::now();
  size_t resident_after_trim_ = SIZE_MAX;
};

}  // namespace quarry::extract::service
