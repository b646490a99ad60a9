#include "store/common/process_memory.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <thread>

namespace quarry {
namespace {

bool ParseInt(std::string_view text, int minimum, int* value) {
  if (text.empty() || text.size() > 10) return false;
  int64_t parsed = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    parsed = parsed * 10 + (c - '0');
  }
  if (parsed < minimum || parsed > INT32_MAX) return false;
  *value = static_cast<int>(parsed);
  return true;
}

}  // namespace

MallocSettings ParseMallocSettings(const char* text, std::string* warning,
                                   MallocSettings defaults) {
  MallocSettings settings = defaults;
  if (text == nullptr || *text == '\0') return settings;
  std::string_view rest(text);
  if (rest == "glibc") {
    settings.apply = false;
    return settings;
  }
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t equals = item.find('=');
    const std::string_view key = item.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : item.substr(equals + 1);
    bool parsed = false;
    if (key == "arena_max") {
      parsed = ParseInt(value, 1, &settings.arena_max);
    } else if (key == "trim_threshold") {
      parsed = ParseInt(value, 0, &settings.trim_threshold);
    } else if (key == "mmap_threshold") {
      parsed = ParseInt(value, 0, &settings.mmap_threshold);
    } else if (key == "trim_interval_ms") {
      parsed = ParseInt(value, 0, &settings.trim_interval_ms);
    }
    if (!parsed && warning != nullptr) {
      *warning += fmt::format("{}QUARRY_MALLOC: '{}' ignored", warning->empty() ? "" : "; ", item);
    }
  }
  return settings;
}

MallocSettings ConfigureMalloc(const char* process_name, MallocSettings defaults) {
  std::string warning;
  const MallocSettings settings =
      ParseMallocSettings(std::getenv("QUARRY_MALLOC"), &warning, defaults);
  if (!warning.empty()) fmt::print(stderr, "{}: {}\n", process_name, warning);
  if (settings.apply) {
    mallopt(M_ARENA_MAX, settings.arena_max);
    if (settings.trim_threshold >= 0) mallopt(M_TRIM_THRESHOLD, settings.trim_threshold);
    if (settings.mmap_threshold >= 0) mallopt(M_MMAP_THRESHOLD, settings.mmap_threshold);
#if !defined(__SANITIZE_ADDRESS__)
    if (settings.trim_interval_ms > 0) {
      StartHeapTrimmer(std::chrono::milliseconds(settings.trim_interval_ms));
    }
#endif
  }
  return settings;
}

size_t ResidentBytes() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];
  const ssize_t length = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (length <= 0) return 0;
  // "size resident shared ..." in pages.
  size_t field = 0;
  size_t pages = 0;
  for (ssize_t i = 0; i < length; ++i) {
    const char c = text[i];
    if (c == ' ') {
      if (++field > 1) break;
    } else if (field == 1 && c >= '0' && c <= '9') {
      pages = pages * 10 + static_cast<size_t>(c - '0');
    }
  }
  return pages * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

bool TrimFreeHeap(size_t min_free_bytes) {
  if (mallinfo2().fordblks < min_free_bytes) return false;
  malloc_trim(0);
  return true;
}

bool HeapTrimLedger::Grew(size_t resident) {
  resident_after_trim_ = std::min(resident_after_trim_, resident);
  return resident - resident_after_trim_ >= growth_;
}

bool HeapTrimLedger::Trim() {
  if (!TrimFreeHeap(growth_)) return false;
  resident_after_trim_ = ResidentBytes();
  return true;
}

bool QuietForTrim(std::chrono::microseconds cpu_used, std::chrono::milliseconds interval) {
  return cpu_used * 50 < interval;
}

std::chrono::milliseconds NextTrimCheck(std::chrono::milliseconds interval,
                                        std::chrono::milliseconds slept,
                                        std::chrono::microseconds cpu_used) {
  // A process that did nothing at all since the last look has nothing new to give back: look
  // less often (up to 64 intervals), so an idle desktop session is not woken every second.
  if (cpu_used * 1000 >= slept) return interval;  // used 0.1% of a core or more
  return std::min(slept * 2, interval * 64);
}

namespace {

std::chrono::microseconds ProcessCpuTime() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return std::chrono::microseconds(0);
  const auto seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec;
  const auto micros = usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
  return std::chrono::microseconds(seconds * 1000000 + micros);
}

}  // namespace

bool StartHeapTrimmer(std::chrono::milliseconds interval) {
  static std::atomic<bool> started{false};
  if (started.exchange(true)) return false;
  // The thread starts with every signal blocked (it inherits the mask of its creator, restored
  // right after): daemons block SIGTERM/SIGINT later and take them through a signalfd, and a
  // process-directed signal must not find this thread with the default action (it killed
  // quarry-store on SIGTERM in ~1 of 6 stops).
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  // Detached: it holds nothing and allocates nothing, so it may be cut off at exit anywhere.
  std::thread trimmer([interval] {
    HeapTrimLedger ledger(size_t{1} << 20, 0);
    std::chrono::microseconds cpu = ProcessCpuTime();
    std::chrono::milliseconds sleep = interval;
    for (;;) {
      std::this_thread::sleep_for(sleep);
      const std::chrono::microseconds now = ProcessCpuTime();
      const std::chrono::microseconds used = now - cpu;
      cpu = now;
      if (ledger.Grew(ResidentBytes()) && QuietForTrim(used, sleep)) ledger.Trim();
      sleep = NextTrimCheck(interval, sleep, used);
    }
  });
  pthread_setname_np(trimmer.native_handle(), "quarry-trim");  // named before we return
  trimmer.detach();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return true;
}

bool BusyHeapTrimmer::LookDue(std::chrono::steady_clock::time_point now) {
  if (now - last_look_ < kBusyTrimEvery) return false;
  last_look_ = now;
  return true;
}

void BusyHeapTrimmer::AfterWork() {
#if defined(__SANITIZE_ADDRESS__)
  constexpr bool kGlibcMalloc = false;  // ASan's malloc: nothing to trim
#else
  constexpr bool kGlibcMalloc = true;
#endif
  if (kGlibcMalloc && enabled_ && LookDue(std::chrono::steady_clock::now()) &&
      ledger_.Grew(ResidentBytes())) {
    ledger_.Trim();
  }
}

}  // namespace quarry
