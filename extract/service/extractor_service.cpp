#include "extract/service/extractor_service.h"

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "extract/core/iri.h"
#include "extract/service/extract_state.h"
#include "extract/service/log.h"

namespace quarry::extract::service {
namespace {

constexpr auto kRetryPause = std::chrono::milliseconds(1000);
constexpr auto kFirstRetryPause = std::chrono::milliseconds(25);

int64_t MtimeMicros(const struct stat& info) {
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1'000'000 + info.st_mtim.tv_nsec / 1000;
}

}  // namespace

ExtractorService::ExtractorService(ServiceSettings settings)
    : settings_(std::move(settings)),
      current_(settings_.workers),
      worker_pids_(settings_.workers, 0) {}

ExtractorService::~ExtractorService() { Stop(); }

void ExtractorService::Start() {
  writer_ = std::thread([this] { WriterLoop(); });
  for (size_t slot = 0; slot < settings_.workers; ++slot) {
    slots_.emplace_back([this, slot] { SlotLoop(slot); });
  }
  dispatcher_ = std::thread([this] { DispatchLoop(); });
}

void ExtractorService::Stop() {
  if (stopping_.exchange(true)) return;
  queue_.Close();
  {
    const std::lock_guard lock(mutex_);
    // A file in progress is dropped unrecorded: it stays unextracted in the store.
    for (const pid_t pid : worker_pids_) {
      if (pid > 0) ::kill(pid, SIGKILL);
    }
  }
  jobs_changed_.notify_all();
  lookup_wanted_.notify_all();
  stop_requested_.notify_all();
  room_freed_.notify_all();
  if (dispatcher_.joinable()) dispatcher_.join();
  for (std::thread& slot : slots_) {
    if (slot.joinable()) slot.join();
  }
  AnswerPendingMetadata();
  {
    const std::lock_guard lock(mutex_);
    slots_done_ = true;
  }
  written_changed_.notify_all();
  if (writer_.joinable()) writer_.join();
}

Result<void> ExtractorService::Queue(const std::vector<std::string>& urls) {
  for (const std::string& url : urls) {
    if (!FileUrlToPath(url)) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("'{}' is not a file:// URL with an absolute path", url));
    }
  }
  queue_.PushUrgent(urls);
  return {};
}

void ExtractorService::GetMetadata(const std::string& url, MetadataReply reply) {
  const auto path = FileUrlToPath(url);
  if (!path) {
    reply(Error(Errc::kInvalidArgument,
                fmt::format("'{}' is not a file:// URL with an absolute path", url)));
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    if (!stopping_) {
      // Ahead of the queue: someone waits for this one. file_iri "" names the file by its URL.
      jobs_.push_front(Job{url, *path, "", 0, std::move(reply)});
      reply = nullptr;
    }
  }
  if (reply) {
    reply(Error(Errc::kUnsupported, "quarry-extract is stopping"));
    return;
  }
  jobs_changed_.notify_all();
}

// Stop(): GetMetadata calls no slot took get their answer.
void ExtractorService::AnswerPendingMetadata() {
  std::vector<MetadataReply> replies;
  {
    const std::lock_guard lock(mutex_);
    for (auto job = jobs_.begin(); job != jobs_.end();) {
      if (!job->reply) {
        ++job;
        continue;
      }
      replies.push_back(std::move(job->reply));
      job = jobs_.erase(job);
    }
  }
  for (MetadataReply& reply : replies) reply(Error(Errc::kUnsupported, "quarry-extract is stopping"));
}

StatusSnapshot ExtractorService::Status() const {
  StatusSnapshot status;
  status.queued = static_cast<uint32_t>(queue_.size());
  const std::lock_guard lock(mutex_);
  status.queued += static_cast<uint32_t>(jobs_.size());
  for (const std::string& url : current_) {
    if (!url.empty()) status.current.push_back(url);
  }
  for (const pid_t pid : worker_pids_) {
    if (pid > 0) status.worker_pids.push_back(static_cast<int32_t>(pid));
  }
  status.queued += static_cast<uint32_t>(in_dispatch_);
  status.extracted = extracted_;
  status.failed = failed_;
  status.skipped = skipped_;
  status.unwritten = static_cast<uint32_t>(unwritten_);
  status.write_batches = write_batches_;
  const auto ms = [](std::chrono::steady_clock::duration waited) {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count());
  };
  status.starved_ms = ms(starved_);
  status.blocked_ms = ms(blocked_);
  status.cpu_percent = static_cast<uint32_t>(settings_.cpu_percent);
  const bool busy = status.queued > 0 || !status.current.empty() || unwritten_ > 0 ||
                    dispatching_ || writing_;
  status.state = !loaded_ ? "starting" : busy ? "extracting" : "idle";
  return status;
}

Connection* ExtractorService::StoreLocked(StoreLink& link) {
  if (link.connection) return link.connection.get();
  auto connection = Connection::Bus(settings_.store);
  if (!connection) {
    // Once per outage: the dispatcher and the writer retry every second.
    if (!store_away_reported_.exchange(true)) LogWarning(connection.error().ToString() + "; retrying");
    return nullptr;
  }
  if (store_away_reported_.exchange(false)) LogInfo("the store is back");
  link.connection = std::move(*connection);
  link.connection->SetUpdateSource("miner");  // the extractor's writes never trigger writeback
  return link.connection.get();
}

// ---- dispatcher: queue -> one lookup per batch -> jobs ----

void ExtractorService::LoadBacklog() {
  std::chrono::milliseconds pause = kFirstRetryPause;
  while (!stopping_) {
    std::vector<std::string> urls;
    {
      const std::lock_guard store_lock(lookup_link_.mutex);
      Connection* store = StoreLocked(lookup_link_);
      auto rows = store ? store->Query(PendingQuery()) : Result<Cursor>(Error(Errc::kIo, "no store"));
      while (rows) {
        auto more = rows->Next();
        if (!more || !*more) break;
        urls.emplace_back(rows->GetString(0));
      }
      if (!rows && store) {
        LogWarning(rows.error().ToString());
        lookup_link_.connection.reset();
      }
      if (rows) {
        queue_.PushBacklog(urls);
        if (!urls.empty()) LogInfo(fmt::format("{} files not extracted yet", urls.size()));
        break;
      }
    }
    // A store that is starting with us (scripts/run, a login) is there within milliseconds:
    // retry soon at first, then every kRetryPause.
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::milliseconds>(pause * 2, kRetryPause);
  }
  const std::lock_guard lock(mutex_);
  loaded_ = true;
}

void ExtractorService::DispatchLoop() {
  LoadBacklog();
  while (!stopping_) {
    {
      // Look the next batch up while the workers still have a batch's worth of jobs, so they
      // never wait for the lookup's round trip; no more ahead, so a Queue call overtakes the
      // backlog after at most that many files.
      std::unique_lock lock(mutex_);
      lookup_wanted_.wait(lock, [this] { return stopping_ || NeedsLookup(jobs_.size(), settings_.workers); });
    }
    std::vector<std::string> urls = queue_.Take(kLookupBatch);
    if (urls.empty()) return;  // closed
    {
      const std::lock_guard lock(mutex_);
      dispatching_ = true;
      in_dispatch_ = urls.size();
    }
    while (!stopping_ && !Dispatch(urls)) std::this_thread::sleep_for(kRetryPause);
    bool wake_writer = false;
    {
      const std::lock_guard lock(mutex_);
      dispatching_ = false;
      in_dispatch_ = 0;
      wake_writer = !to_write_.empty() && WriterMayProceedLocked();
    }
    if (wake_writer) written_changed_.notify_all();  // nothing more may be in flight now
  }
}

bool ExtractorService::Dispatch(const std::vector<std::string>& urls) {
  std::vector<Job> jobs;
  {
    const std::lock_guard store_lock(lookup_link_.mutex);
    Connection* store = StoreLocked(lookup_link_);
    if (store == nullptr) return false;
    auto rows = store->Query(LookupQuery(urls));
    if (!rows) {
      LogWarning(rows.error().ToString());
      lookup_link_.connection.reset();
      return false;
    }
    jobs = Resolve(urls, *rows);
  }
  {
    const std::lock_guard lock(mutex_);
    for (Job& job : jobs) jobs_.push_back(std::move(job));
    in_dispatch_ = 0;
  }
  jobs_changed_.notify_all();
  return true;
}

std::vector<ExtractorService::Job> ExtractorService::Resolve(const std::vector<std::string>& urls,
                                                             Cursor& rows) {
  std::map<std::string, StoredFile> stored;
  for (;;) {
    auto more = rows.Next();
    if (!more || !*more) break;
    StoredFile& file = stored[std::string(rows.GetString(0))];
    file.iri = rows.GetString(1);
    if (rows.IsBound(2)) {
      file.tried = true;
      if (auto mtime = ParseMtime(rows.GetString(2))) file.extracted_mtime_us = *mtime;
    }
  }
  std::vector<Job> jobs;
  uint64_t skipped = 0;
  for (const std::string& url : urls) {
    Job job{url, *FileUrlToPath(url), url, 0, nullptr, /*may_have_failure=*/false};
    struct stat info {};
    // Gone (the miner deletes it) or not a regular file: nothing to extract or record.
    if (::stat(job.path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    job.mtime_us = MtimeMicros(info);
    const auto found = stored.find(url);
    if (found != stored.end()) {
      if (found->second.extracted_mtime_us == job.mtime_us) {
        ++skipped;
        continue;
      }
      job.file_iri = found->second.iri;
      job.may_have_failure = found->second.tried;
    }
    jobs.push_back(std::move(job));
  }
  const std::lock_guard lock(mutex_);
  skipped_ += skipped;
  return jobs;
}

}  // namespace quarry::extract::service
