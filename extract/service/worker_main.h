// The worker mode of quarry-extract (`quarry-extract --worker`): started by the service with
// fork+exec, it enters the sandbox (sandbox.h), then extracts one file per request read on
// stdin and answers on stdout (worker_protocol.h) until stdin closes.
// Thread-safety: the worker process's main thread.
#pragma once

#include <cstdint>
#include <string>

#include "extract/core/module.h"

namespace quarry::extract::service {

struct WorkerSettings {
  uint64_t memory_limit_bytes = 1ull << 30;
  Limits limits;
  // Give freed heap back while busy (BusyHeapTrimmer); off under QUARRY_MALLOC=glibc.
  bool trim_heap = false;
};

// glibc's per-thread cache (tcache) of freed small blocks holds 7 per size by default; poppler's
// text output frees and allocates so many small blocks per page that most mallocs missed it
// and went to _int_malloc/_int_free (~15% of a worker's instructions on PDFs). A worker keeps
// kWorkerTcacheCount per size instead: 13.5% fewer instructions over 40 PDFs of the bench corpus
// (64: 1.2%, 1024: 11%, 2048 as much as 65535), peak RSS +0.3 MiB, +0.9 MiB that malloc_trim
// cannot give back (extract/README.md "Heap of the workers (alloc, session 20)"). The count has no mallopt(): glibc reads it from
// GLIBC_TUNABLES at start-up only, so the service puts it in the environment its workers are
// exec'd with.
inline constexpr int kWorkerTcacheCount = 2048;

// GLIBC_TUNABLES for the workers: `current` (the service's own value; null or empty when unset)
// with glibc.malloc.tcache_count=kWorkerTcacheCount appended, unless `current` sets
// glibc.malloc.tcache_count itself (the user's value wins).
std::string WorkerGlibcTunables(const char* current);

// Returns the process exit status: 0 when stdin closed, 2 when the sandbox cannot be entered
// (then no file is ever read unsandboxed), 3 when the service's pipe broke.
int RunWorker(const WorkerSettings& settings);

}  // namespace quarry::extract::service
