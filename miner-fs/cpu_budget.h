// CpuBudget: keeps the crawl within a share of one core (issue 5 "a CPU budget from the
// config"). After each slice of work the miner reports the thread CPU time and the wall time
// the slice took; RestAfter() answers how long to rest so that cpu / (wall + rest) stays at
// or under the budget. Time spent waiting for the disk or the store is wall time that costs no
// CPU, so an I/O-bound crawl rests little and a CPU-bound one rests more.
// Thread-safety: pure functions.
#pragma once

#include <chrono>

namespace quarry::miner {

// The rest after a slice that used `cpu` over `wall`, for a budget of `percent` (1..100) of a
// core; 100 never rests.
std::chrono::microseconds RestAfter(std::chrono::microseconds cpu, std::chrono::microseconds wall,
                                    int percent);

// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID).
std::chrono::microseconds ThreadCpuTime();

}  // namespace quarry::miner
