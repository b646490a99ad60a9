// quarry-extract: the extractor service (issue 6, DESIGN.md org.quarry.Extract1). The same
// binary is its own worker: `quarry-extract --worker` is what the service fork+execs for each
// worker process (worker_main.h); users and scripts/run start it without --worker.
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "extract/service/extract_adaptor.h"
#include "extract/service/extract_config.h"
#include "extract/service/log.h"
#include "extract/service/sandbox.h"
#include "extract/service/worker_main.h"
#include "miner-fs/config.h"
#include "store/common/process_memory.h"

namespace {

using namespace quarry::extract::service;

struct Options {
  bool worker = false;
  std::string bus;
  std::string store_name{quarry::kStoreBusName};
  unsigned workers = 2;
  double timeout_seconds = 30;
  uint64_t memory_mib = 1024;
  uint64_t max_text_bytes = 1u << 20;
  std::string config_file;
  int cpu_percent = 0;  // 0: from the config file
  // A worker started without --text-allowlist stores every text; a service takes the config's
  // extract.text_allowlist unless it is given.
  std::vector<std::string> text_allowlist{"*"};
  bool has_text_allowlist = false;
  size_t max_unwritten = 256;
  size_t max_unwritten_kib = 4096;
  int write_linger_ms = 250;
};

// The worker command line: this very binary, so a service and its workers never mismatch.
std::vector<std::string> WorkerArgv(const Options& options,
                                    const std::vector<std::string>& text_allowlist) {
  std::error_code error;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
  if (error) self = "/proc/self/exe";
  std::vector<std::string> argv{self, "--worker", "--memory-limit",
                                std::to_string(options.memory_mib), "--max-text-bytes",
                                std::to_string(options.max_text_bytes)};
  // One --text-allowlist=GLOB each (a glob may start with '-'); a lone "--text-allowlist=" is the
  // empty list (TextAllowlist drops empty globs).
  if (text_allowlist.empty()) argv.emplace_back("--text-allowlist=");
  for (const std::string& glob : text_allowlist) argv.push_back("--text-allowlist=" + glob);
  return argv;
}

// The globs as given; CLI11 reads `--text-allowlist` without a value (or with "") as one empty
// glob, which stands for none.
std::vector<std::string> TextAllowlist(std::vector<std::string> globs) {
  std::erase(globs, std::string());
  return globs;
}

int RunWorkerMode(const Options& options, const quarry::MallocSettings& malloc_settings) {
  if (auto lowered = LowerPriority(); !lowered) {
    fmt::print(stderr, "quarry-extract worker: {}\n", lowered.error().ToString());
  }
  WorkerSettings settings;
  settings.memory_limit_bytes = options.memory_mib << 20;
  settings.limits.max_text_bytes = options.max_text_bytes;
  settings.limits.max_threads = 1;  // the service runs one worker per core already
  settings.limits.text_allowlist = TextAllowlist(options.text_allowlist);
  settings.trim_heap = malloc_settings.apply && malloc_settings.trim_interval_ms > 0;
  return RunWorker(settings);
}

int RunService(const Options& options, const quarry::MallocSettings& malloc_settings) {
  // For the workers only (this process read GLIBC_TUNABLES at its own start): a larger tcache
  // (worker_main.h kWorkerTcacheCount). QUARRY_MALLOC=glibc leaves glibc's defaults.
  if (malloc_settings.apply) {
    const std::string tunables = WorkerGlibcTunables(std::getenv("GLIBC_TUNABLES"));
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
  }
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // every thread: sigwait below takes them
  ::signal(SIGPIPE, SIG_IGN);  // a dead worker's pipe is an error return, not a signal
  ExtractConfig config;
  if (auto loaded = LoadExtractConfig(options.config_file); loaded) {
    config = std::move(*loaded);
  } else {
    // The miner refuses such a file; the extractor goes on with the defaults.
    LogWarning(loaded.error().ToString() + "; using the defaults");
  }
  for (const std::string& warning : config.warnings) {
    LogWarning(fmt::format("{}: {}", options.config_file, warning));
  }
  const std::vector<std::string> text_allowlist = options.has_text_allowlist
                                                      ? TextAllowlist(options.text_allowlist)
                                                      : config.text_allowlist;
  ServiceSettings settings;
  settings.store = quarry::BusOptions{options.store_name, options.bus};
  settings.worker_argv = WorkerArgv(options, text_allowlist);
  settings.workers = options.workers;
  settings.time_limit = std::chrono::milliseconds(std::llround(options.timeout_seconds * 1000));
  settings.max_unwritten = options.max_unwritten;
  settings.max_unwritten_bytes = options.max_unwritten_kib << 10;
  settings.write_linger = std::chrono::milliseconds(options.write_linger_ms);
  settings.trim_heap = malloc_settings.apply && malloc_settings.trim_interval_ms > 0;
  settings.cpu_percent = options.cpu_percent != 0 ? options.cpu_percent : config.cpu_percent;
  ExtractorService service(settings);
  service.Start();
  auto adaptor = ExtractAdaptor::Start(options.bus, service);
  if (!adaptor) {
    LogWarning(adaptor.error().ToString());
    service.Stop();
    return 1;
  }
  LogInfo(fmt::format("serving {} with {} workers at {}% of a core each", kExtractBusName,
                      options.workers, settings.cpu_percent));
  int received = 0;
  sigwait(&stop_signals, &received);
  service.Stop();  // answers pending GetMetadata calls while the bus connection still exists
  const bool lost = (*adaptor)->lost();
  adaptor->reset();
  LogInfo("stopped");
  return lost ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread; a worker (the same binary) gets the same settings (process_memory.h).
  const quarry::MallocSettings malloc_settings = quarry::ConfigureMalloc("quarry-extract");
  Options options;
  options.config_file = quarry::miner::DefaultConfigFile().string();
  CLI::App app{"quarry-extract: extracts metadata and text of files into the Quarry store"};
  app.add_option("--bus", options.bus, "D-Bus address (default: the session bus)");
  app.add_option("--store-name", options.store_name, "bus name of quarry-store");
  app.add_option("--workers", options.workers, "worker processes")
      ->check(CLI::Range(1u, 64u));
  app.add_option("--timeout", options.timeout_seconds, "time limit per file, in seconds")
      ->check(CLI::Range(0.001, 86400.0));
  app.add_option("--memory-limit", options.memory_mib, "address space of a worker, in MiB")
      ->check(CLI::Range(uint64_t{64}, uint64_t{1} << 20));
  app.add_option("--max-text-bytes", options.max_text_bytes, "cap on the text stored per file")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 30));
  app.add_option("--config", options.config_file,
                 "configuration file, its [throttle] and [extract] sections (default: "
                 "$XDG_CONFIG_HOME/quarry/quarry.toml)");
  app.add_option("--cpu-percent", options.cpu_percent,
                 "each worker's CPU budget in percent of one core, instead of the config's "
                 "throttle.cpu_percent (100: no limit)")
      ->check(CLI::Range(1, 100));
  const CLI::Option* text_allowlist =
      app.add_option("--text-allowlist", options.text_allowlist,
                     "globs on the file name of the plain-text files whose text is stored, "
                     "instead of the config's extract.text_allowlist ('*': every text file; "
                     "no glob: none)")
          ->expected(0, CLI::detail::expected_max_vector_size)
          ->type_name("GLOB...");
  app.add_option("--max-unwritten", options.max_unwritten,
                 "results kept while the store is away; beyond, files go back to the queue")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  app.add_option("--max-unwritten-kib", options.max_unwritten_kib,
                 "KiB of SPARQL updates those results may hold (one result always fits)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30));
  app.add_option("--write-linger-ms", options.write_linger_ms,
                 "how long results wait for more to fill one store transaction while other "
                 "files are in flight, in milliseconds")
      ->check(CLI::Range(0, 600'000));
  app.add_flag("--worker", options.worker, "run as a worker process (started by the service)")
      ->group("");
  CLI11_PARSE(app, argc, argv);
  options.has_text_allowlist = text_allowlist->count() > 0;
  return options.worker ? RunWorkerMode(options, malloc_settings) : RunService(options, malloc_settings);
}
