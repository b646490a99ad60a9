// Miner: requests from other threads (reload, index one file) and the status it publishes.
#include <fmt/format.h>

#include <algorithm>

#include "miner-fs/file_uri.h"
#include "miner-fs/log.h"
#include "miner-fs/miner.h"
#include "miner-fs/power_supply.h"
#include "miner-fs/sparql_updates.h"

namespace quarry::miner {

Result<void> Miner::HandleRequests() {
  bool reload = false;
  bool overflow = false;
  std::vector<std::string> files;
  {
    const std::lock_guard lock(requests_mutex_);
    reload = std::exchange(reload_requested_, false);
    overflow = std::exchange(overflow_requested_, false);
    files.swap(files_requested_);
  }
  if (overflow) {
    // The events already read are lost too, as with a real overflow.
    monitor_.SimulateOverflow();
    coalescer_ = EventCoalescer(options_.config.quiet_period);
  }
  if (reload) QUARRY_TRY(Reload());
  if (files.empty()) return Ok();
  QUARRY_TRY(batcher_.Flush());
  crawler_->ForgetKnown();  // the crawl must see these writes
  for (const std::string& path : files) {
    auto applied = ApplyIndex(path);
    if (!applied) LogWarning(applied.error().ToString());
  }
  return batcher_.Flush();
}

// Roots that left the config lose their resources; new ones are crawled; everything else is
// checked again by a full crawl, which writes only what differs (the ignore rules may have
// changed).
Result<void> Miner::Reload() {
  if (options_.config_file.empty()) return Ok();
  auto loaded = LoadConfig(options_.config_file, UserDirs::FromEnvironment());
  if (!loaded) {
    LogWarning(fmt::format("config not reloaded: {}", loaded.error().ToString()));
    return Ok();
  }
  for (const std::string& warning : loaded->warnings) LogWarning(warning);
  QUARRY_TRY(batcher_.Flush());
  for (const IndexRoot& old_root : options_.config.roots) {
    const bool is_kept = std::any_of(
        loaded->config.roots.begin(), loaded->config.roots.end(),
        [&](const IndexRoot& root) { return root.path == old_root.path; });
    if (is_kept) continue;
    const std::string path = old_root.path.string();
    QUARRY_ASSIGN_OR_RETURN(const auto known, store_.Lookup(FileUri(path)));
    if (known) QUARRY_TRY(batcher_.Add(DeleteResource(known->iri, FileUri(path), known->kind)));
    monitor_.Unwatch(path);
    std::erase_if(folders_, [&](const auto& item) {
      return item.first == path || item.first.starts_with(path + "/");
    });
  }
  QUARRY_TRY(batcher_.Flush());
  options_.config = std::move(loaded->config);
  rules_ = std::make_unique<IgnoreRules>(options_.config);
  MakeCrawler();
  LogInfo("configuration reloaded");
  StartFullCrawl();
  return Ok();
}

void Miner::CheckPower() {
  constexpr std::chrono::seconds kPowerCheckInterval{30};
  const auto now = std::chrono::steady_clock::now();
  if (!options_.config.pause_on_battery || now < next_power_check_) return;
  next_power_check_ = now + kPowerCheckInterval;
  const bool on_battery = IsOnBattery(options_.power_supply_dir);
  if (on_battery && !battery_pause_) {
    LogInfo("on battery: pausing");
    battery_pause_ = status_.Pause("quarry-miner-fs", "on battery");
  } else if (!on_battery && battery_pause_) {
    LogInfo("on mains power again: resuming");
    (void)status_.Resume(*battery_pause_);
    battery_pause_.reset();
  }
}

// After each committed batch: the acknowledged files go to org.quarry.Extract1.Queue. Without
// an extractor they are dropped (it queues unextracted files from the store when it starts).
void Miner::HandOffExtraction() {
  constexpr size_t kHandOffChunk = 1000;  // URIs per Extract1.Queue call
  if (!options_.extract_sink || extraction_.size() == 0) return;
  const uint64_t deferred_before = handoff_.deferred;
  auto handed = HandOff(extraction_, *options_.extract_sink, kHandOffChunk, handoff_);
  if (!handed) {
    LogWarning(fmt::format("extraction hand-off: {}", handed.error().ToString()));
    status_.AddError(handed.error().ToString());
    return;
  }
  const bool is_absent = handoff_.deferred > deferred_before;
  if (is_absent && !extractor_absent_) {
    LogInfo("quarry-extract is not running; it picks up the files it has not extracted when it starts");
  }
  extractor_absent_ = is_absent;
}

void Miner::PublishStatus() {
  const CrawlStats& stats = crawler_->stats();
  MinerCounts counts;
  counts.found = stats.files;
  counts.indexed = batcher_.applied();
  counts.failed = batcher_.failed();
  counts.waiting = extraction_.size();
  counts.handed_off = handoff_.handed_off;
  counts.deferred = handoff_.deferred + extraction_.dropped();
  counts.folders = stats.folders;
  counts.watched = monitor_.size();
  counts.unwatched = unwatched_.size();
  counts.watch_limit_reached = !unwatched_.empty();
  status_.SetCounts(counts);
  const bool is_crawling = !crawler_->idle() || !pending_roots_.empty();
  if (!is_crawling) {
    status_.SetCurrent({});
    status_.SetState(kStateIdle, 1.0, 0);
    return;
  }
  status_.SetCurrent(crawler_->current_folder());
  // Progress over folders: done / (done + queued), with the roots still to start counted as
  // one folder each; the estimate of the time left follows the rate so far.
  const double done = static_cast<double>(stats.folders - crawled_folders_at_start_);
  const double left = static_cast<double>(crawler_->queued() + pending_roots_.size());
  const double progress = done + left > 0 ? done / (done + left) : 0.0;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - crawl_started_).count();
  const int remaining = done > 0 ? static_cast<int>(elapsed / done * left + 0.5) : -1;
  status_.SetState(kStateCrawling, progress, remaining);
}

}  // namespace quarry::miner
