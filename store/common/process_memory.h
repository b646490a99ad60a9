#pragma once
// Heap settings of Quarry's long-running processes (quarry-store, quarry-miner-fs,
// quarry-extract and its workers): bench/index/README.md "Memory of all processes".
//
// glibc gives every thread that allocates its own arena (up to 8 per core) and keeps freed
// memory in each: quarry-extract's dispatcher, which holds little, showed 26 MiB Rss while
// indexing 20,000 files. ConfigureMalloc() is called first thing in main (before any thread
// starts) and sets one arena (no cost in time to idle). The trim and mmap thresholds stay
// glibc's (dynamic): fixing them at 128 KiB gave another ~15 MiB of Rss over all processes
// but cost 9 CPU-s (+35%) and 5 s of time to idle at 20,000 files (mmap/munmap and page
// faults for every large block); QUARRY_MALLOC can still set them, to measure. (With those
// fixed, a malloc_trim(0) at idle gave back under 1 MiB over all processes.)
//
// Freed memory inside the heap stays resident until a malloc_trim(0) hands its pages back:
// at 20,000 files one, through gdb at idle, gave back ~24 MiB Pss over all processes (glibc's
// dynamic thresholds; 7 MiB of quarry-store, 9 of the extract dispatcher, 4 of each worker).
// So each process runs a heap trimmer thread (trim_interval_ms, 1 s by default): when the
// process is quiet, its heap holds at least 1 MiB free and its resident size grew by 1 MiB
// since the last trim, it trims (bench/index/README.md "heap trimmer, no reader mapping").
#include <chrono>
#include <cstddef>
#include <string>

namespace quarry {

struct MallocSettings {
  bool apply = true;  // false: glibc's own defaults (QUARRY_MALLOC=glibc)
  int arena_max = 1;
  int trim_threshold = -1;  // -1: glibc's (dynamic); setting either fixes both
  int mmap_threshold = -1;
  int trim_interval_ms = 1000;  // the heap trimmer's period; 0: no trimmer
  bool operator==(const MallocSettings&) const = default;
};

// The settings QUARRY_MALLOC asks for: unset or empty for the defaults above, "glibc" for
// glibc's own (and no trimmer), or comma-separated `arena_max=N`, `trim_threshold=BYTES`,
// `mmap_threshold=BYTES`, `trim_interval_ms=N` over the defaults. `warning` gets a message for
// anything not understood (which is ignored).
MallocSettings ParseMallocSettings(const char* text, std::string* warning = nullptr);

// mallopt()s the settings of QUARRY_MALLOC (a warning on stderr for a bad value), starts the
// heap trimmer (not under AddressSanitizer, whose malloc is not glibc's) and returns them.
// Call before the process starts threads.
MallocSettings ConfigureMalloc(const char* process_name);

// The process's resident size in bytes (/proc/self/statm), 0 if unreadable. Allocates nothing.
size_t ResidentBytes();

// malloc_trim(0) (free pages inside the heap too, not only at its top) when the heap holds at
// least `min_free_bytes` free; true when it trimmed. Allocates nothing.
bool TrimFreeHeap(size_t min_free_bytes);

// The trimmer's rule: trim when the resident size grew by at least 1 MiB since the last trim
// and the process was quiet (under 2% of a core over the last interval: the extract dispatcher
// uses ~10% while indexing). Trimming every second while busy cost 2-5 CPU-s at 20,000 files
// (freed pages faulted in again).
bool HeapTrimDue(std::chrono::microseconds cpu_used, std::chrono::milliseconds interval,
                 size_t resident, size_t resident_after_trim);

// How long the trimmer sleeps next: `interval` again when the process used at least 0.1% of a
// core while it slept `slept`, else twice `slept`, at most 64 `interval`s.
std::chrono::milliseconds NextTrimCheck(std::chrono::milliseconds interval,
                                        std::chrono::milliseconds slept,
                                        std::chrono::microseconds cpu_used);

// Starts, once per process, a thread ("quarry-trim", every signal blocked) that every `interval` (longer while idle: NextTrimCheck) calls TrimFreeHeap(1 MiB) when
// HeapTrimDue. Later calls do nothing; returns true for the call that started it.
bool StartHeapTrimmer(std::chrono::milliseconds interval);

}  // namespace quarry
