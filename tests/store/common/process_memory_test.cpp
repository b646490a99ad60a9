// Heap settings of the daemons: QUARRY_MALLOC is honoured.
#include "store/common/process_memory.h"

#include <doctest/doctest.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace quarry {
namespace {

// Under AddressSanitizer malloc is ASan's, not glibc's: mallopt and mallinfo2 do not describe
// the allocator in use, so the heap checks below run in the normal build only (scripts/test
// runs both builds; the settings' parsing and application are checked in each).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kGlibcMalloc = false;
#else
constexpr bool kGlibcMalloc = true;
#endif

TEST_CASE("ParseMallocSettings: defaults, glibc, overrides and bad items") {
  const MallocSettings defaults;
  CHECK(defaults.apply);
  CHECK(defaults.arena_max == 1);
  CHECK(defaults.trim_threshold == -1);  // glibc's own, dynamic
  CHECK(defaults.mmap_threshold == -1);
  CHECK(ParseMallocSettings(nullptr) == defaults);
  CHECK(ParseMallocSettings("") == defaults);
  // A process's own defaults (quarry-store: two arenas), overridden item by item.
  const MallocSettings two_arenas{.arena_max = 2};
  CHECK(ParseMallocSettings(nullptr, nullptr, two_arenas) == two_arenas);
  CHECK(ParseMallocSettings("trim_interval_ms=5", nullptr, two_arenas).arena_max == 2);
  CHECK(ParseMallocSettings("arena_max=3", nullptr, two_arenas).arena_max == 3);
  CHECK_FALSE(ParseMallocSettings("glibc", nullptr, two_arenas).apply);
  CHECK_FALSE(ParseMallocSettings("glibc").apply);

  std::string warning;
  const MallocSettings custom = ParseMallocSettings("arena_max=3,mmap_threshold=65536", &warning);
  CHECK(warning.empty());
  CHECK(custom.apply);
  CHECK(custom.arena_max == 3);
  CHECK(custom.mmap_threshold == 65536);
  CHECK(custom.trim_threshold == defaults.trim_threshold);
  CHECK(defaults.trim_interval_ms == 1000);
  CHECK(ParseMallocSettings("trim_interval_ms=0").trim_interval_ms == 0);
  CHECK(ParseMallocSettings("trim_interval_ms=250").trim_interval_ms == 250);

  const MallocSettings bad = ParseMallocSettings("arena_max=0,colour=blue,trim_threshold=x,trim_threshold=4096,trim_interval_ms=-1", &warning);
  CHECK(bad.trim_interval_ms == defaults.trim_interval_ms);
  CHECK(warning.find("'trim_interval_ms=-1'") != std::string::npos);
  CHECK(bad.arena_max == defaults.arena_max);
  CHECK(bad.trim_threshold == 4096);
  CHECK(warning.find("'arena_max=0'") != std::string::npos);
  CHECK(warning.find("'colour=blue'") != std::string::npos);
  CHECK(warning.find("'trim_threshold=x'") != std::string::npos);
}

// The arenas malloc_info reports.
int Arenas() {
  char* text = nullptr;
  size_t size = 0;
  FILE* stream = open_memstream(&text, &size);
  REQUIRE(stream != nullptr);
  REQUIRE(malloc_info(0, stream) == 0);
  std::fclose(stream);
  int arenas = 0;
  for (std::string_view rest(text, size); rest.find("<heap nr=") != std::string_view::npos;) {
    rest.remove_prefix(rest.find("<heap nr=") + 1);
    ++arenas;
  }
  std::free(text);
  return arenas;
}

TEST_CASE("ConfigureMalloc: the default is one arena, so a new thread allocates from it") {
  REQUIRE(::unsetenv("QUARRY_MALLOC") == 0);
  CHECK(ConfigureMalloc("process_memory_test") == MallocSettings{});
  if (!kGlibcMalloc) return;
  const int before = Arenas();
  std::thread([] {
    void* block = ::malloc(1000);
    REQUIRE(block != nullptr);
    ::free(block);
  }).join();
  CHECK(Arenas() == before);  // glibc's own would give the thread an arena of its own
}

// With trim_threshold 256 KiB and mmap_threshold 16 MiB applied (glibc's malloc only).
void CheckHeapFollowsThresholds() {
  // 8 MiB under the 16 MiB threshold comes from the heap (glibc's own threshold, 128 KiB at
  // first, would map it on its own: mallinfo2's hblkhd), and freed at the top of the heap it is
  // given back (more than trim_threshold free there).
  const size_t mapped_before = mallinfo2().hblkhd;
  void* block = ::malloc(size_t{8} << 20);
  REQUIRE(block != nullptr);
  std::memset(block, 1, size_t{8} << 20);
  CHECK(mallinfo2().hblkhd == mapped_before);
  const size_t heap_with_block = mallinfo2().arena;
  CHECK(heap_with_block >= size_t{8} << 20);
  ::free(block);
  CHECK(mallinfo2().arena + (size_t{8} << 20) <= heap_with_block + (size_t{256} << 10));
}

TEST_CASE("ConfigureMalloc applies QUARRY_MALLOC and leaves glibc alone for glibc") {
  REQUIRE(::setenv("QUARRY_MALLOC", "arena_max=2,trim_threshold=262144,mmap_threshold=16777216", 1) == 0);
  const MallocSettings applied = ConfigureMalloc("process_memory_test");
  CHECK(applied.arena_max == 2);
  CHECK(applied.trim_threshold == 262144);
  CHECK(applied.mmap_threshold == 16777216);
  if (kGlibcMalloc) CheckHeapFollowsThresholds();
  REQUIRE(::setenv("QUARRY_MALLOC", "glibc", 1) == 0);
  CHECK_FALSE(ConfigureMalloc("process_memory_test").apply);
  REQUIRE(::unsetenv("QUARRY_MALLOC") == 0);
  CHECK(ConfigureMalloc("process_memory_test") == MallocSettings{});
  CHECK(ConfigureMalloc("process_memory_test", MallocSettings{.arena_max = 2}).arena_max == 2);
}

// 32 MiB of small blocks, touched, then freed below a block still in use: free memory inside
// the heap (not at its top, so free() keeps it resident). Returns the resident size while
// the blocks were in use; `pin` is the block above them, for the caller to free.
size_t FreeInsideHeap(void** pin) {
  constexpr size_t kBlock = size_t{16} << 10;
  std::vector<void*> blocks(2049);
  for (void*& block : blocks) {
    block = ::malloc(kBlock);
    REQUIRE(block != nullptr);
    std::memset(block, 7, kBlock);
  }
  // The last block, carved from the top of the heap after the others, stays in use.
  *pin = blocks.back();
  blocks.pop_back();
  const size_t resident = ResidentBytes();
  for (void* block : blocks) ::free(block);
  return resident;
}

TEST_CASE("TrimFreeHeap gives free pages inside the heap back, and only above its minimum") {
  CHECK(ResidentBytes() > 0);
  if (!kGlibcMalloc) return;
  void* pin = nullptr;
  const size_t in_use = FreeInsideHeap(&pin);
  CHECK_FALSE(TrimFreeHeap(size_t{1} << 40));  // not that much free: nothing done
  CHECK(TrimFreeHeap(size_t{1} << 20));
  CHECK(ResidentBytes() + (size_t{24} << 20) <= in_use);
  ::free(pin);
}

TEST_CASE("QuietForTrim: the trimmer thread trims only a process under 2% of a core") {
  using std::chrono::microseconds;
  using std::chrono::milliseconds;
  const milliseconds second(1000);
  CHECK(QuietForTrim(microseconds(0), second));
  CHECK(QuietForTrim(microseconds(19000), second));
  CHECK_FALSE(QuietForTrim(microseconds(20000), second));  // busy
  CHECK_FALSE(QuietForTrim(microseconds(100000), second));
  CHECK_FALSE(QuietForTrim(microseconds(2000), milliseconds(100)));
}

TEST_CASE("HeapTrimLedger: a trim is due once the resident size grew by the growth since the last") {
  constexpr size_t kMiB = size_t{1} << 20;
  HeapTrimLedger thread_ledger(kMiB, 0);  // the trimmer thread's: its first look may trim
  CHECK(thread_ledger.Grew(40 * kMiB));
  HeapTrimLedger busy(kBusyTrimGrowth, SIZE_MAX);  // BusyHeapTrimmer's: the first look notes
  CHECK_FALSE(busy.Grew(20 * kMiB));
  CHECK_FALSE(busy.Grew(20 * kMiB + kBusyTrimGrowth - 1));
  CHECK(busy.Grew(20 * kMiB + kBusyTrimGrowth));
  CHECK(busy.Grew(30 * kMiB));
  // Shrunk on its own: the lower size is the base from then on.
  CHECK_FALSE(busy.Grew(19 * kMiB));
  CHECK_FALSE(busy.Grew(19 * kMiB + kBusyTrimGrowth - 1));
  CHECK(busy.Grew(19 * kMiB + kBusyTrimGrowth));
  if (kGlibcMalloc) {
    // A trim notes the size after it: the growth counts from there.
    void* pin = nullptr;
    FreeInsideHeap(&pin);
    HeapTrimLedger ledger(kMiB, 0);
    REQUIRE(ledger.Grew(ResidentBytes()));
    CHECK(ledger.Trim());
    CHECK_FALSE(ledger.Grew(ResidentBytes()));
    ::free(pin);
  }
}

TEST_CASE("BusyHeapTrimmer: a busy worker or dispatcher looks at most once a second") {
  using std::chrono::milliseconds;
  const auto start = std::chrono::steady_clock::now();
  BusyHeapTrimmer trimmer(true, start);
  CHECK_FALSE(trimmer.LookDue(start + milliseconds(999)));
  CHECK(trimmer.LookDue(start + milliseconds(1000)));
  CHECK_FALSE(trimmer.LookDue(start + milliseconds(1500)));  // the last look was at 1000
  CHECK(trimmer.LookDue(start + milliseconds(2100)));
}

TEST_CASE("NextTrimCheck: back to the interval when busy, doubling up to 64 intervals when idle") {
  using std::chrono::microseconds;
  using std::chrono::milliseconds;
  const milliseconds second(1000);
  CHECK(NextTrimCheck(second, second, microseconds(0)) == milliseconds(2000));
  CHECK(NextTrimCheck(second, milliseconds(2000), microseconds(1999)) == milliseconds(4000));
  CHECK(NextTrimCheck(second, milliseconds(2000), microseconds(2000)) == second);  // 0.1% busy
  CHECK(NextTrimCheck(second, milliseconds(64000), microseconds(0)) == milliseconds(64000));
  CHECK(NextTrimCheck(second, milliseconds(48000), microseconds(0)) == milliseconds(64000));
  CHECK(NextTrimCheck(second, milliseconds(64000), microseconds(500000)) == second);
}

TEST_CASE("The heap trimmer started by ConfigureMalloc trims on its own") {
  REQUIRE(::unsetenv("QUARRY_MALLOC") == 0);
  ConfigureMalloc("process_memory_test");
  if (!kGlibcMalloc) return;  // no trimmer under AddressSanitizer
  CHECK_FALSE(StartHeapTrimmer(std::chrono::milliseconds(10)));  // one per process
  void* pin = nullptr;
  const size_t in_use = FreeInsideHeap(&pin);
  // Its period is 1 s: wait for it (up to 30 s), without trimming here.
  bool trimmed = false;
  for (int i = 0; i < 300 && !trimmed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    trimmed = ResidentBytes() + (size_t{24} << 20) <= in_use;
  }
  CHECK(trimmed);
  ::free(pin);
}

// SigBlk of this process's thread named `name` ("" when there is none).
std::string BlockedSignalsOf(const std::string& name) {
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string thread_name;
    std::getline(comm, thread_name);
    if (thread_name != name) continue;
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("SigBlk:", 0) == 0) return line.substr(line.find_first_not_of(" \t", 7));
    }
  }
  return "";
}

TEST_CASE("The heap trimmer thread blocks every signal, whatever its creator blocked") {
  // A daemon blocks SIGTERM only after ConfigureMalloc started the trimmer; a process-directed
  // SIGTERM delivered to a trimmer that did not block it killed quarry-store.
  REQUIRE(::unsetenv("QUARRY_MALLOC") == 0);
  ConfigureMalloc("process_memory_test");
  if (!kGlibcMalloc) return;  // no trimmer under AddressSanitizer
  const std::string blocked = BlockedSignalsOf("quarry-trim");
  REQUIRE_FALSE(blocked.empty());
  const unsigned long long mask = std::stoull(blocked, nullptr, 16);
  CHECK((mask & (1ull << (SIGTERM - 1))) != 0);
  CHECK((mask & (1ull << (SIGINT - 1))) != 0);
  CHECK((mask & (1ull << (SIGHUP - 1))) != 0);
  sigset_t mine;
  REQUIRE(pthread_sigmask(SIG_SETMASK, nullptr, &mine) == 0);
  CHECK_FALSE(sigismember(&mine, SIGTERM));  // the creator's mask is as it was
}

}  // namespace
}  // namespace quarry
