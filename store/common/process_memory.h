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
#include <string>

namespace quarry {

struct MallocSettings {
  bool apply = true;  // false: glibc's own defaults (QUARRY_MALLOC=glibc)
  int arena_max = 1;
  int trim_threshold = -1;  // -1: glibc's (dynamic); setting either fixes both
  int mmap_threshold = -1;
  bool operator==(const MallocSettings&) const = default;
};

// The settings QUARRY_MALLOC asks for: unset or empty for the defaults above, "glibc" for
// glibc's own, or comma-separated `arena_max=N`, `trim_threshold=BYTES`, `mmap_threshold=BYTES`
// over the defaults. `warning` gets a message for anything not understood (which is ignored).
MallocSettings ParseMallocSettings(const char* text, std::string* warning = nullptr);

// mallopt()s the settings of QUARRY_MALLOC (a warning on stderr for a bad value) and returns
// them. Call before the process starts threads.
MallocSettings ConfigureMalloc(const char* process_name);

}  // namespace quarry
