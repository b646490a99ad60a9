// The worker mode of quarry-extract (`quarry-extract --worker`): started by the service with
// fork+exec, it enters the sandbox (sandbox.h), then extracts one file per request read on
// stdin and answers on stdout (worker_protocol.h) until stdin closes.
// Thread-safety: the worker process's main thread.
#pragma once

#include <cstdint>

#include "extract/core/module.h"

namespace quarry::extract::service {

struct WorkerSettings {
  uint64_t memory_limit_bytes = 1ull << 30;
  Limits limits;
  // Give freed heap back while busy (BusyHeapTrimmer); off under QUARRY_MALLOC=glibc.
  bool trim_heap = false;
};

// Returns the process exit status: 0 when stdin closed, 2 when the sandbox cannot be entered
// (then no file is ever read unsandboxed), 3 when the service's pipe broke.
int RunWorker(const WorkerSettings& settings);

}  // namespace quarry::extract::service
