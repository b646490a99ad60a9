#include "miner-fs/miner.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>

#include <algorithm>

#include "miner-fs/cpu_budget.h"
#include "miner-fs/file_uri.h"
#include "miner-fs/log.h"
#include "miner-fs/sparql_updates.h"

namespace quarry::miner {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kStoreRetry{1000};
// One turn crawls folders for about this long before looking at events again.
constexpr std::chrono::milliseconds kCrawlSlice{20};
// Events closer together than kBurstSettle are one burst, applied when it settles (or after
// kBurstMax): one lookup query and one transaction for 100 files written in a row, at the cost
// of kBurstSettle for a single file.
constexpr std::chrono::milliseconds kBurstSettle{2};
constexpr std::chrono::milliseconds kBurstMax{50};
// A folder with this many actions in one round has its known children fetched in one query;
// fewer are looked up one by one (a single new file in a large folder costs one row, not all).
constexpr size_t kFetchChildrenMin = 4;
constexpr size_t kFoldersPerChildrenQuery = 256;

std::string ParentPath(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

bool IsUpdateFault(const Error& error) {
  return error.code() == Errc::kConstraint || error.code() == Errc::kParse;
}

}  // namespace

Result<std::unique_ptr<Miner>> Miner::Create(MinerOptions options, IndexStore& store,
                                             FileSystem& file_system,
                                             PendingExtraction& extraction, MinerStatus& status) {
  QUARRY_ASSIGN_OR_RETURN(InotifyMonitor monitor, InotifyMonitor::Create());
  return std::unique_ptr<Miner>(new Miner(std::move(options), store, file_system, extraction,
                                          status, std::move(monitor)));
}

Miner::Miner(MinerOptions options, IndexStore& store, FileSystem& file_system,
             PendingExtraction& extraction, MinerStatus& status, InotifyMonitor monitor)
    : options_(std::move(options)),
      store_(store),
      file_system_(file_system),
      extraction_(extraction),
      status_(status),
      monitor_(std::move(monitor)),
      batcher_(store, extraction, static_cast<size_t>(options_.config.batch_files),
               options_.config.batch_time),
      coalescer_(options_.config.quiet_period),
      wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  rules_ = std::make_unique<IgnoreRules>(options_.config);
  MakeCrawler();
  monitor_.SetMaxWatches(static_cast<size_t>(options_.config.max_watches));
  status_.SetResumeWaker([this] { Wake(); });
}

Miner::~Miner() { status_.SetResumeWaker(nullptr); }

void Miner::MakeCrawler() {
  crawler_.reset();
  crawler_ = std::make_unique<Crawler>(file_system_, store_, batcher_, *rules_, mime_,
                                       options_.ahead_store);
  crawler_->SetFolderListener([this](const std::string& path, const std::string& iri, bool recursive) {
    OnFolder(path, iri, recursive);
  });
}

void Miner::Wake() {
  const uint64_t one = 1;
  (void)!::write(wake_fd_.get(), &one, sizeof(one));
}

void Miner::RequestReload() {
  {
    const std::lock_guard lock(requests_mutex_);
    reload_requested_ = true;
  }
  Wake();
}

void Miner::RequestIndexFile(std::string path) {
  {
    const std::lock_guard lock(requests_mutex_);
    files_requested_.push_back(std::move(path));
  }
  Wake();
}

void Miner::RequestSimulatedOverflow() {
  {
    const std::lock_guard lock(requests_mutex_);
    overflow_requested_ = true;
  }
  Wake();
}

void Miner::StartFullCrawl() {
  pending_roots_.assign(options_.config.roots.begin(), options_.config.roots.end());
  std::stable_sort(pending_roots_.begin(), pending_roots_.end(), [](const auto& a, const auto& b) {
    return a.path.string().size() < b.path.string().size();
  });
  crawl_started_ = Clock::now();
  crawled_folders_at_start_ = crawler_->stats().folders;
  store_wait_at_start_ = crawler_->stats().store_wait;
  crawler_->ForgetKnown();
  // Crawling is said before the crawl's first write is visible: a client that sees a change
  // land must not then read the Idle (and the counts) of before the crawl.
  PublishStatus();
}

Result<void> Miner::Run(int stop_fd) {
  StartFullCrawl();
  for (;;) {
    pollfd fds[3] = {{stop_fd, POLLIN, 0}, {monitor_.fd(), POLLIN, 0}, {wake_fd_.get(), POLLIN, 0}};
    const int ready = ::poll(fds, 3, static_cast<int>(Timeout().count()));
    if (ready < 0 && errno != EINTR) return Error(Errc::kIo, "poll failed");
    if (fds[0].revents & POLLIN) break;
    if (fds[2].revents & POLLIN) {
      uint64_t count = 0;
      (void)!::read(wake_fd_.get(), &count, sizeof(count));
    }
    if (fds[1].revents & POLLIN) ReadMonitor();
    auto turned = Turn();
    if (!turned) {
      // The store cannot be reached: keep what is queued, retry, then re-crawl everything. Said
      // once, not at every retry.
      if (!store_failed_) {
        LogWarning(fmt::format("store unavailable: {}", turned.error().ToString()));
        status_.AddError(turned.error().ToString());
      }
      store_failed_ = true;
    }
    HandOffExtraction();
    PublishStatus();
    const bool is_idle = crawler_->idle() && pending_roots_.empty() && coalescer_.empty() &&
                         batcher_.pending() == 0 && !store_failed_;
    if (options_.exit_when_idle && is_idle) break;
  }
  if (auto flushed = batcher_.Flush(); !flushed) {
    LogWarning(fmt::format("last batch not written: {}", flushed.error().ToString()));
  }
  return Ok();
}

std::chrono::milliseconds Miner::Timeout() const {
  if (store_failed_) return kStoreRetry;
  const auto now = Clock::now();
  auto wait = options_.idle_wait;
  const auto consider = [&](std::optional<Clock::time_point> when) {
    if (!when) return;
    wait = std::min(wait, std::max(std::chrono::milliseconds(0),
                                   std::chrono::duration_cast<std::chrono::milliseconds>(*when - now) +
                                       std::chrono::milliseconds(1)));
  };
  // The power check ends our own battery pause, so it is due while paused too.
  if (options_.config.pause_on_battery) consider(next_power_check_);
  // Paused: nothing queued can be served (a due event or batch would spin the loop); the
  // Resume that releases the last pause writes the wake fd (MinerStatus's resume waker).
  if (status_.paused()) return wait;
  // An overflow taken in while paused is owed a re-crawl now.
  if (monitor_.overflowed()) return std::chrono::milliseconds(0);
  if (!crawler_->idle() || !pending_roots_.empty()) {
    // The CPU budget's rest (events that arrive meanwhile are still served).
    return std::max(std::chrono::milliseconds(0),
                    std::chrono::ceil<std::chrono::milliseconds>(next_slice_ - now));
  }
  auto due = coalescer_.NextDue();
  if (due && now - last_event_at_ < kBurstSettle && now - burst_started_ < kBurstMax) {
    due = std::max(*due, std::min(last_event_at_ + kBurstSettle, burst_started_ + kBurstMax));
  }
  consider(due);
  consider(batcher_.due());
  if (!unwatched_.empty()) consider(next_fallback_crawl_);
  return wait;
}

Result<void> Miner::Turn() {
  if (store_failed_) {
    // An empty batch flushes without the store: ask the store itself, or every retry would
    // say it is back and the next crawl step that it is gone.
    QUARRY_TRY(store_.Ping());
    QUARRY_TRY(batcher_.Flush());  // fails again while the store is away
    LogInfo("store reachable again; re-crawling to catch up");
    store_failed_ = false;
    StartFullCrawl();
  }
  QUARRY_TRY(HandleRequests());
  CheckPower();
  if (status_.paused()) return Ok();
  const auto now = Clock::now();
  if (monitor_.TakeOverflow()) {
    LogWarning("inotify queue overflowed; re-crawling the indexed folders");
    StartFullCrawl();
  }
  const bool burst_settling = now - last_event_at_ < kBurstSettle && now - burst_started_ < kBurstMax;
  if (!burst_settling) {
    // A burst still going after kBurstMax (a long copy) is applied every kBurstMax.
    if (now - last_event_at_ < kBurstSettle) burst_started_ = now;
    QUARRY_TRY(ApplyActions(coalescer_.TakeReady(now)));
  }
  if (!unwatched_.empty() && now >= next_fallback_crawl_) {
    for (const std::string& path : unwatched_) {
      if (const auto folder = folders_.find(path); folder != folders_.end()) {
        crawler_->AddFolder(path, folder->second.iri, false);
      }
    }
    next_fallback_crawl_ = now + options_.config.fallback_crawl_interval;
  }
  QUARRY_TRY(CrawlTurn());
  return batcher_.FlushIfDue(Clock::now());
}

// Crawls for one slice, then sets the rest the CPU budget asks for (the poll timeout).
Result<void> Miner::CrawlTurn() {
  const auto slice_start = Clock::now();
  const bool is_crawling = !crawler_->idle() || !pending_roots_.empty();
  if (!is_crawling || slice_start < next_slice_) return Ok();
  const auto cpu_start = ThreadCpuTime();
  const auto slice_end = slice_start + kCrawlSlice;
  do {
    if (crawler_->idle()) {
      if (pending_roots_.empty()) break;
      // The previous root's writes go first: the next root may be its child.
      QUARRY_TRY(batcher_.Flush());
      const IndexRoot root = pending_roots_.front();
      pending_roots_.pop_front();
      QUARRY_TRY(crawler_->AddRoot(root));
      continue;
    }
    QUARRY_ASSIGN_OR_RETURN(const bool stepped, crawler_->Step());
    (void)stepped;
  } while (Clock::now() < slice_end);
  const auto now = Clock::now();
  next_slice_ = now + RestAfter(ThreadCpuTime() - cpu_start,
                                std::chrono::duration_cast<std::chrono::microseconds>(now - slice_start),
                                options_.config.cpu_percent);
  if (crawler_->idle() && pending_roots_.empty()) {
    QUARRY_TRY(batcher_.Flush());
    const CrawlStats& stats = crawler_->stats();
    const auto seconds = [](auto duration) { return std::chrono::duration<double>(duration).count(); };
    LogInfo(fmt::format("crawl done in {:.3f} s ({:.3f} s of it waiting for the store's answers): {} "
                        "folders, {} files, {} created, {} changed, {} deleted",
                        seconds(Clock::now() - crawl_started_), seconds(stats.store_wait - store_wait_at_start_),
                        stats.folders, stats.files, stats.created, stats.changed, stats.deleted));
  }
  return Ok();
}

void Miner::OnFolder(const std::string& path, const std::string& iri, bool recursive) {
  folders_[path] = {iri, recursive};
  if (unwatched_.contains(path)) return;
  auto watched = monitor_.Watch(path);
  if (watched) return;
  if (watched.error().code() == Errc::kNoSpace) {
    if (unwatched_.empty()) {
      LogWarning(fmt::format("inotify watch limit reached ({}); folders beyond it are crawled every {} s",
                             watched.error().ToString(), options_.config.fallback_crawl_interval.count()));
      next_fallback_crawl_ = Clock::now() + options_.config.fallback_crawl_interval;
    }
    unwatched_.insert(path);
    return;
  }
  if (watched.error().code() != Errc::kNotFound) LogWarning(watched.error().ToString());
}

void Miner::ReadMonitor() {
  std::vector<FsEvent> events;
  if (auto read = monitor_.Read(events); !read) {
    LogWarning(read.error().ToString());
    return;
  }
  const auto now = Clock::now();
  if (!events.empty()) {
    if (now - last_event_at_ >= kBurstSettle) burst_started_ = now;
    last_event_at_ = now;
  }
  for (const FsEvent& event : events) coalescer_.Add(event, now);
  coalescer_.EndOfRead();
}

const Miner::WatchedFolder* Miner::Parent(const std::string& path) const {
  const auto found = folders_.find(ParentPath(path));
  return found == folders_.end() ? nullptr : &found->second;
}

bool Miner::Ignores(const std::string& path, bool is_folder) const {
  const std::string name = BaseName(path);
  return is_folder ? rules_->IgnoresFolder(name, path) : rules_->IgnoresFile(name, path);
}

Result<void> Miner::ApplyActions(std::vector<FsAction> actions) {
  if (actions.empty()) return Ok();
  // Lookups below must see every earlier write; the crawl must see these.
  QUARRY_TRY(batcher_.Flush());
  crawler_->ForgetKnown();
  struct ClearKnown {
    std::unordered_map<std::string, KnownChildren>& known;
    ~ClearKnown() { known.clear(); }
  } clear_known{known_};
  QUARRY_TRY(FetchKnown(actions));
  for (const FsAction& action : actions) {
    Result<void> applied = Ok();
    if (action.kind == ActionKind::kIndex) applied = ApplyIndex(action.path);
    if (action.kind == ActionKind::kDelete) applied = ApplyDelete(action.path);
    if (action.kind == ActionKind::kMove) applied = ApplyMove(action.old_path, action.path);
    if (!applied) {
      if (!IsUpdateFault(applied.error())) return applied;
      LogWarning(applied.error().ToString());
    }
  }
  return batcher_.Flush();
}

Result<void> Miner::FetchKnown(const std::vector<FsAction>& actions) {
  known_.clear();
  std::unordered_map<std::string, size_t> per_folder;
  for (const FsAction& action : actions) {
    const std::string& path = action.kind == ActionKind::kMove ? action.old_path : action.path;
    ++per_folder[ParentPath(path)];
  }
  std::unordered_map<std::string, std::string> paths_by_iri;
  std::vector<std::string> iris;
  for (const auto& [path, count] : per_folder) {
    const auto folder = folders_.find(path);
    if (count < kFetchChildrenMin || folder == folders_.end()) continue;
    paths_by_iri.emplace(folder->second.iri, path);
    iris.push_back(folder->second.iri);
  }
  for (size_t begin = 0; begin < iris.size(); begin += kFoldersPerChildrenQuery) {
    const std::vector<std::string> chunk(
        iris.begin() + static_cast<ptrdiff_t>(begin),
        iris.begin() + static_cast<ptrdiff_t>(std::min(iris.size(), begin + kFoldersPerChildrenQuery)));
    QUARRY_ASSIGN_OR_RETURN(auto children, store_.Children(chunk));
    for (auto& [iri, known] : children) {
      if (const auto path = paths_by_iri.find(iri); path != paths_by_iri.end()) {
        known_[path->second] = std::move(known);
      }
    }
  }
  return Ok();
}

Result<std::optional<KnownChild>> Miner::Known(const std::string& path) {
  const auto folder = known_.find(ParentPath(path));
  if (folder == known_.end()) return store_.Lookup(FileUri(path));
  const auto child = folder->second.find(BaseName(path));
  if (child == folder->second.end()) return std::optional<KnownChild>();
  return std::optional<KnownChild>(child->second);
}

void Miner::Remember(const std::string& path, std::optional<KnownChild> child) {
  if (!child) {
    // Gone (or moved away): so is what was fetched for the folders under it.
    const std::string prefix = path + "/";
    std::erase_if(known_, [&](const auto& item) {
      return item.first == path || item.first.starts_with(prefix);
    });
  }
  const auto folder = known_.find(ParentPath(path));
  if (folder == known_.end()) return;
  if (child) {
    folder->second.insert_or_assign(BaseName(path), std::move(*child));
  } else {
    folder->second.erase(BaseName(path));
  }
}

Result<void> Miner::ApplyIndex(const std::string& path) {
  const WatchedFolder* parent = Parent(path);
  if (!parent) return Ok();  // not inside an indexed folder
  auto entry = file_system_.Stat(path);
  if (!entry) return entry.error().code() == Errc::kNotFound ? ApplyDelete(path) : Ok();
  if (entry->kind != RawKind::kFile && entry->kind != RawKind::kFolder) return Ok();
  const bool is_folder = entry->kind == RawKind::kFolder;
  const std::string parent_path = ParentPath(path);
  if (!is_folder && rules_->IsMarker(entry->name)) {
    // A marker appeared: the folder's content goes out of the index (the crawler removes it).
    const std::string parent_iri = parent->iri;
    monitor_.Unwatch(parent_path);
    folders_.erase(parent_path);
    crawler_->AddFolder(parent_path, parent_iri, false, false, /*with_iris=*/true);
    return Ok();
  }
  if (Ignores(path, is_folder) || !IsValidUtf8(entry->name)) return Ok();
  const std::string uri = FileUri(path);
  QUARRY_ASSIGN_OR_RETURN(const auto known, Known(path));
  const EntryKind kind = is_folder ? EntryKind::kFolder : EntryKind::kFile;
  if (known && known->kind != kind) QUARRY_TRY(batcher_.Add(DeleteResource(known->iri, uri, known->kind)));
  const bool is_known = known && known->kind == kind;
  if (is_known && known->mtime_us == entry->mtime_us && known->size == entry->size) return Ok();
  FileFacts facts{is_known ? known->iri : NewResourceIri(), uri, entry->name, kind, entry->size,
                  entry->mtime_us, entry->created_us, "", parent->iri};
  if (!is_folder) facts.mime_type = mime_.Detect(entry->name, parent_path);
  const std::optional<std::string> extract = is_folder ? std::nullopt : std::optional(uri);
  QUARRY_TRY(batcher_.Add(is_known ? UpdateResource(facts) : InsertResource(facts), extract));
  Remember(path, KnownChild{facts.iri, entry->mtime_us, entry->size, kind});
  if (is_folder && !is_known && parent->recursive) crawler_->AddFolder(path, facts.iri, true, true);
  return Ok();
}

Result<void> Miner::ApplyDelete(const std::string& path) {
  const std::string uri = FileUri(path);
  QUARRY_ASSIGN_OR_RETURN(const auto known, Known(path));
  if (known) QUARRY_TRY(batcher_.Add(DeleteResource(known->iri, uri, known->kind)));
  Remember(path, std::nullopt);
  if (known && known->kind == EntryKind::kFolder) {
    monitor_.Unwatch(path);
    const std::string prefix = path + "/";
    std::erase_if(folders_, [&](const auto& item) {
      return item.first == path || item.first.starts_with(prefix);
    });
    std::erase_if(unwatched_, [&](const std::string& item) {
      return item == path || item.starts_with(prefix);
    });
  }
  extraction_.Forget(uri);
  return Ok();
}

Result<void> Miner::ApplyMove(const std::string& old_path, const std::string& new_path) {
  const WatchedFolder* parent = Parent(new_path);
  const std::string old_uri = FileUri(old_path);
  QUARRY_ASSIGN_OR_RETURN(const auto known, Known(old_path));
  const bool is_folder = known && known->kind == EntryKind::kFolder;
  if (!known || !parent || Ignores(new_path, is_folder) || !IsValidUtf8(BaseName(new_path))) {
    // Not indexed before, or moved out of the indexed trees: a delete and a create.
    QUARRY_TRY(ApplyDelete(old_path));
    return ApplyIndex(new_path);
  }
  FileFacts to{known->iri, FileUri(new_path), BaseName(new_path), known->kind, 0, 0, 0, "", parent->iri};
  QUARRY_TRY(batcher_.Add(MoveResource(known->iri, old_uri, to)));
  Remember(old_path, std::nullopt);
  Remember(new_path, *known);
  if (is_folder) {
    monitor_.Rename(old_path, new_path);
    std::vector<std::pair<std::string, WatchedFolder>> moved;
    const std::string prefix = old_path + "/";
    for (auto it = folders_.begin(); it != folders_.end();) {
      if (it->first != old_path && !it->first.starts_with(prefix)) {
        ++it;
        continue;
      }
      moved.emplace_back(new_path + it->first.substr(old_path.size()), it->second);
      it = folders_.erase(it);
    }
    for (auto& [path, folder] : moved) folders_[std::move(path)] = std::move(folder);
  }
  return Ok();
}

}  // namespace quarry::miner
