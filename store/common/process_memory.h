#pragma once
// Heap settings of Quarry's long-running processes (quarry-store, quarry-miner-fs,
// quarry-extract and its workers): bench/index/README.md "Memory of all processes".
//
// glibc gives every thread that allocates its own arena (up to 8 per core) and keeps freed
// memory in each: quarry-extract's dispatcher, which holds little, showed 26 MiB Rss while
// indexing 20,000 files. ConfigureMalloc() is called first thing in main (before any thread
// starts) and sets one arena (no cost in time to idle), two for quarry-store: its reader,
// writer and peer threads contended for one (a no-change restart of 20,001 files: store
// 0.065-0.070 → 0.050 CPU-s, restart 0.132-0.135 → 0.113-0.119 s, issue 5, session 26), and
// two for quarry-miner-fs: its crawl and the thread asking the store ahead (miner 0.080 →
// 0.070 CPU-s, restart 0.101-0.103 → 0.095-0.097 s, session 27). The trim and mmap thresholds stay
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
#include <cstdint>
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
// `defaults`: the process's own starting point (quarry-store's two arenas), which QUARRY_MALLOC
// overrides item by item.
MallocSettings ParseMallocSettings(const char* text, std::string* warning = nullptr,
                                   MallocSettings defaults = {});

// mallopt()s the settings of QUARRY_MALLOC (a warning on stderr for a bad value), starts the
// heap trimmer (not under AddressSanitizer, whose malloc is not glibc's) and returns them.
// Call before the process starts threads.
MallocSettings ConfigureMalloc(const char* process_name, MallocSettings defaults = {});

// The process's resident size in bytes (/proc/self/statm), 0 if unreadable. Allocates nothing.
size_t ResidentBytes();

// malloc_trim(0) (free pages inside the heap too, not only at its top) when the heap holds at
// least `min_free_bytes` free; true when it trimmed. Allocates nothing.
bool TrimFreeHeap(size_t min_free_bytes);

// What both heap trimmers keep (the thread of StartHeapTrimmer and BusyHeapTrimmer): the
// resident size after the last trim, lowered whenever the process is seen smaller, and the
// growth since then that makes a trim worth it.
class HeapTrimLedger {
 public:
  // `resident_after_trim`: the starting point (0: the first look may trim; SIZE_MAX: the first
  // look only notes the size).
  HeapTrimLedger(size_t growth, size_t resident_after_trim)
      : growth_(growth), resident_after_trim_(resident_after_trim) {}
  // Notes the resident size seen at a look; true when it grew by `growth` since the last trim.
  bool Grew(size_t resident);
  // TrimFreeHeap(growth), then notes the resident size after it; true when it trimmed.
  bool Trim();

 private:
  size_t growth_;
  size_t resident_after_trim_;
};

// The thread's rule beside the growth of 1 MiB: trim only a quiet process (under 2% of a core
// over the last interval: the extract dispatcher uses ~10% while indexing). Trimming every
// second while busy cost 2-5 CPU-s at 20,000 files (freed pages faulted in again).
bool QuietForTrim(std::chrono::microseconds cpu_used, std::chrono::milliseconds interval);

// How long the trimmer sleeps next: `interval` again when the process used at least 0.1% of a
// core while it slept `slept`, else twice `slept`, at most 64 `interval`s.
std::chrono::milliseconds NextTrimCheck(std::chrono::milliseconds interval,
                                        std::chrono::milliseconds slept,
                                        std::chrono::microseconds cpu_used);

// Starts, once per process, a thread ("quarry-trim", every signal blocked) that every `interval` (longer while idle: NextTrimCheck) calls TrimFreeHeap(1 MiB) when
// QuietForTrim and its HeapTrimLedger (growth 1 MiB) says so. Later calls do nothing; returns
// true for the call that started it.
bool StartHeapTrimmer(std::chrono::milliseconds interval);

// Heap given back while a process is busy (quarry-extract's workers and its dispatcher's
// writer): the thread above only trims a quiet process, and a worker is busy from the first
// file to the last, so freed buffers of earlier files (a PDF's text, an image's tags; written
// results) stayed resident, 4-7 MiB of heap per worker at 20,000 files of which ~1.8 MiB live
// (bench/index/README.md "heap trimmed while busy"). After a unit of work (a file, a batch
// written), AfterWork() looks at most once per kBusyTrimEvery and trims when the resident size
// grew by kBusyTrimGrowth since the last trim: at most one malloc_trim(0) a second, about a
// millisecond each.
// Thread-safety: one trimmer per thread; glibc's malloc only (does nothing under ASan).
inline constexpr std::chrono::milliseconds kBusyTrimEvery{1000};
inline constexpr size_t kBusyTrimGrowth = size_t{512} << 10;

class BusyHeapTrimmer {
 public:
  // `enabled`: QUARRY_MALLOC's settings apply and have a trimmer (not QUARRY_MALLOC=glibc).
  explicit BusyHeapTrimmer(bool enabled,
                           std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now())
      : enabled_(enabled), last_look_(start) {}
  void AfterWork();
  // Whether a look is due at `now`: kBusyTrimEvery or more since the last one (`now` then
  // becomes the last look).
  bool LookDue(std::chrono::steady_clock::time_point now);

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_look_;
  HeapTrimLedger ledger_{kBusyTrimGrowth, SIZE_MAX};
};

}  // namespace quarry
