// Heap settings of the daemons: QUARRY_MALLOC is honoured.
#include "store/common/process_memory.h"

#include <doctest/doctest.h>
#include <malloc.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

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
  CHECK_FALSE(ParseMallocSettings("glibc").apply);

  std::string warning;
  const MallocSettings custom = ParseMallocSettings("arena_max=3,mmap_threshold=65536", &warning);
  CHECK(warning.empty());
  CHECK(custom.apply);
  CHECK(custom.arena_max == 3);
  CHECK(custom.mmap_threshold == 65536);
  CHECK(custom.trim_threshold == defaults.trim_threshold);

  const MallocSettings bad = ParseMallocSettings("arena_max=0,colour=blue,trim_threshold=x,trim_threshold=4096", &warning);
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
}

}  // namespace
}  // namespace quarry
