// Miner: the quarry-miner-fs loop (issue 5). It crawls the index roots one after the other
// (shortest path first, so a root inside a non-recursive one, ~/Documents inside $HOME, is
// found as that one's child and keeps one resource), watches every indexed folder, turns
// coalesced inotify events into writes, and keeps MinerStatus current.
//
// One thread runs Run(); it polls the stop fd, the inotify fd and its own wake fd, takes one
// folder per turn while crawling (so pauses and monitor events are served between folders),
// and sends batches by count and time. A store that cannot be reached keeps the batch; once it
// answers again everything is re-crawled, which writes only what changed meanwhile.
// RequestReload() and RequestIndexFile() may be called from any thread (the D-Bus thread); so
// may MinerStatus::Resume, which wakes the loop when it releases the last pause.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "miner-fs/config.h"
#include "miner-fs/crawler.h"
#include "miner-fs/event_coalescer.h"
#include "miner-fs/extraction_queue.h"
#include "miner-fs/file_system.h"
#include "miner-fs/ignore_rules.h"
#include "miner-fs/index_store.h"
#include "miner-fs/inotify_monitor.h"
#include "miner-fs/miner_status.h"
#include "miner-fs/update_batcher.h"
#include "store/common/unique_fd.h"

namespace quarry::miner {

struct MinerOptions {
  MinerConfig config;
  std::filesystem::path config_file;  // reread by RequestReload(); empty: keep `config`
  std::filesystem::path power_supply_dir = "/sys/class/power_supply";
  // Return from Run() once the first crawl is written (`quarry-miner-fs --once`).
  bool exit_when_idle = false;
  // org.quarry.Extract1; null: the URIs stay in PendingExtraction (bounded).
  ExtractSink* extract_sink = nullptr;
  // A second store connection the crawler asks ahead on, from a thread of its own (Crawler);
  // null: the crawl asks on the miner's thread.
  IndexStore* ahead_store = nullptr;
  // The longest poll wait when nothing is due, paused included (the Resume that releases the
  // last pause wakes the loop at once; tests set it long to show that).
  std::chrono::milliseconds idle_wait = std::chrono::minutes(1);
};

class Miner {
 public:
  static Result<std::unique_ptr<Miner>> Create(MinerOptions options, IndexStore& store,
                                               FileSystem& file_system,
                                               PendingExtraction& extraction, MinerStatus& status);
  ~Miner();

  // Runs until `stop_fd` is readable. Fails only when inotify itself fails.
  Result<void> Run(int stop_fd);
  // From any thread: reread the config file (roots added or removed), or index one file now.
  void RequestReload();
  void RequestIndexFile(std::string path);
  // From any thread; a test hook (SIGUSR1): the monitor loses its queued events and reports
  // IN_Q_OVERFLOW, as the kernel does when its queue overflows.
  void RequestSimulatedOverflow();

 private:
  struct WatchedFolder {
    std::string iri;
    bool recursive = true;
  };
  Miner(MinerOptions options, IndexStore& store, FileSystem& file_system,
        PendingExtraction& extraction, MinerStatus& status, InotifyMonitor monitor);

  Result<void> Turn();
  Result<void> CrawlTurn();
  Result<void> ApplyActions(std::vector<FsAction> actions);
  Result<void> ApplyIndex(const std::string& path);
  Result<void> ApplyDelete(const std::string& path);
  Result<void> ApplyMove(const std::string& old_path, const std::string& new_path);
  // What the store holds at `path`: from the known children fetched for this round of actions
  // when its folder was fetched, else one Lookup. Remember() keeps that view in step with the
  // writes queued since (they are not flushed yet).
  Result<void> FetchKnown(const std::vector<FsAction>& actions);
  Result<std::optional<KnownChild>> Known(const std::string& path);
  void Remember(const std::string& path, std::optional<KnownChild> child);
  Result<void> HandleRequests();
  Result<void> Reload();
  void OnFolder(const std::string& path, const std::string& iri, bool recursive);
  void StartFullCrawl();
  // A crawler for rules_ (the old one is gone first: its threads let go of the ahead store).
  void MakeCrawler();
  void ReadMonitor();
  void PublishStatus();
  void HandOffExtraction();
  void Wake();
  void CheckPower();
  std::chrono::milliseconds Timeout() const;
  const WatchedFolder* Parent(const std::string& path) const;
  bool Ignores(const std::string& path, bool is_folder) const;

  MinerOptions options_;
  IndexStore& store_;
  FileSystem& file_system_;
  PendingExtraction& extraction_;
  MinerStatus& status_;
  InotifyMonitor monitor_;
  std::unique_ptr<IgnoreRules> rules_;
  MimeDetector mime_;
  UpdateBatcher batcher_;
  std::unique_ptr<Crawler> crawler_;
  EventCoalescer coalescer_;
  UniqueFd wake_fd_;

  std::deque<IndexRoot> pending_roots_;
  std::unordered_map<std::string, WatchedFolder> folders_;  // indexed folders by path
  std::unordered_set<std::string> unwatched_;               // refused by the watch limit
  // The known children of folders with several actions in the current ApplyActions, by path.
  std::unordered_map<std::string, KnownChildren> known_;
  // A burst of events (100 files written in a row) is applied once it pauses for kBurstSettle
  // (or has lasted kBurstMax), so its lookups and writes go out together.
  std::chrono::steady_clock::time_point last_event_at_{};
  std::chrono::steady_clock::time_point burst_started_{};
  std::chrono::steady_clock::time_point next_fallback_crawl_{};
  std::chrono::steady_clock::time_point crawl_started_{};
  std::chrono::steady_clock::time_point next_slice_{};  // the CPU budget's rest ends then
  HandOffCounts handoff_;
  bool extractor_absent_ = false;  // logged once per absence
  uint64_t crawled_folders_at_start_ = 0;
  std::chrono::microseconds store_wait_at_start_{0};  // CrawlStats::store_wait
  bool store_failed_ = false;
  std::optional<int> battery_pause_;  // the cookie of our own pause while on battery
  std::chrono::steady_clock::time_point next_power_check_{};

  std::mutex requests_mutex_;
  bool reload_requested_ = false;
  bool overflow_requested_ = false;
  std::vector<std::string> files_requested_;
};

}  // namespace quarry::miner
