#include "store/ipc/backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <system_error>

#include "store/ipc/database_recovery.h"
#include "store/ipc/log.h"
#include "store/ipc/query_parameters.h"

namespace quarry::ipc {
namespace {

Error ShuttingDown() { return Error(Errc::kBusy, "quarry-store is shutting down"); }

Result<void> Rename(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code error;
  std::filesystem::rename(from, to, error);
  if (error) {
    return Error(Errc::kIo, fmt::format("cannot rename {} to {}: {}", from.string(), to.string(),
                                        error.message()));
  }
  return Ok();
}

constexpr std::array<const char*, 3> kDatabaseSuffixes = {"", "-wal", "-shm"};
// How long the writer waits for another write before it checkpoints the WAL (WriterLoop).
constexpr std::chrono::milliseconds kIdleCheckpointDelay(500);

void RemoveDatabaseFiles(const std::filesystem::path& file) {
  std::error_code error;
  for (const char* suffix : kDatabaseSuffixes)
    std::filesystem::remove(file.string() + suffix, error);
}

// Renames a database file with its -wal and -shm companions (those that exist).
Result<void> MoveDatabaseFiles(const std::filesystem::path& from, const std::filesystem::path& to) {
  for (const char* suffix : kDatabaseSuffixes) {
    const std::filesystem::path source = from.string() + suffix;
    std::error_code error;
    if (*suffix != '\0' && !std::filesystem::exists(source, error)) continue;
    QUARRY_TRY(Rename(source, to.string() + suffix));
  }
  return Ok();
}

// Undoes a MoveDatabaseFiles(to, from) that failed part way or must be rolled back: moves back
// whichever of the files arrived. Best effort, as the caller is already failing.
void PutBackDatabaseFiles(const std::filesystem::path& moved, const std::filesystem::path& home) {
  for (const char* suffix : kDatabaseSuffixes) {
    const std::filesystem::path source = moved.string() + suffix;
    std::error_code error;
    if (std::filesystem::exists(source, error)) (void)Rename(source, home.string() + suffix);
  }
}

}  // namespace

Backend::Backend(BackendOptions options, StatusBoard& status)
    : options_(std::move(options)), status_(status) {
  options_.reader_count = std::max(options_.reader_count, 1);
}

Backend::~Backend() { Shutdown(); }

std::filesystem::path Backend::database_file() const {
  return options_.directory / kDatabaseFileName;
}

void Backend::Start() {
  for (int i = 0; i < options_.reader_count; ++i) reader_wakeups_.emplace_back();
  reader_idle_.assign(static_cast<size_t>(options_.reader_count), false);
  reader_lent_.assign(static_cast<size_t>(options_.reader_count), false);
  for (size_t i = 0; i < static_cast<size_t>(options_.reader_count); ++i) {
    reader_threads_.emplace_back([this, i] { ReaderLoop(i); });
  }
  writer_thread_ = std::jthread([this] { WriterLoop(); });
}

Result<void> Backend::WaitUntilOpen() {
  std::unique_lock lock(mutex_);
  state_changed_.wait(lock, [this] { return open_finished_; });
  if (open_error_) return *open_error_;
  return Ok();
}

// Why a new job cannot be queued, if it cannot; the caller holds mutex_.
std::optional<Error> Backend::RefusalLocked() const {
  if (stopping_) return ShuttingDown();
  if (open_error_) return *open_error_;
  return std::nullopt;
}

void Backend::SubmitRead(StoreJob job, std::optional<size_t> cost_key) {
  std::optional<Error> refusal;
  std::optional<size_t> wake;
  std::optional<size_t> lent;
  {
    const std::lock_guard lock(mutex_);
    refusal = RefusalLocked();
    if (!refusal) {
      if (cost_key && serving_ && reads_.empty() && !idle_readers_.empty() &&
          KnownShortLocked(*cost_key)) {
        // Run it here with the warm idle reader's connection; its thread stays asleep.
        lent = TakeIdleReaderLocked();
        reader_lent_[*lent] = true;
        ++active_reads_;
      } else {
        reads_.push_back({std::move(job), cost_key});
        if (!idle_readers_.empty()) {  // else a busy reader takes it when its job is done
          wake = TakeIdleReaderLocked();
        }
      }
    }
  }
  if (refusal) return job.fail(*refusal);
  if (lent) return RunLent(*lent, std::move(job), *cost_key);
  if (wake) reader_wakeups_[*wake].notify_one();
}

void Backend::RunLent(size_t index, StoreJob job, size_t cost_key) {
  ProcessQueryStatistics().inline_reads.fetch_add(1, std::memory_order_relaxed);
  const auto start = std::chrono::steady_clock::now();
  job.run(*reader_stores_[index]);
  const auto took = std::chrono::steady_clock::now() - start;
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    RecordCostLocked(cost_key, took);
    --active_reads_;
    reader_lent_[index] = false;
    // Reads queued meanwhile found no idle reader and wait for a busy one: this one.
    wake = !reads_.empty() || stopping_ || open_error_.has_value();
    if (!wake) {
      idle_readers_.push_back(index);
      reader_idle_[index] = true;
    }
  }
  if (wake) reader_wakeups_[index].notify_one();
  state_changed_.notify_all();
}

size_t Backend::TakeIdleReaderLocked() {
  const auto lowest = std::min_element(idle_readers_.begin(), idle_readers_.end());
  const size_t index = *lowest;
  idle_readers_.erase(lowest);
  reader_idle_[index] = false;
  return index;
}

bool Backend::KnownShortLocked(size_t cost_key) const {
  if (options_.inline_read_budget.count() <= 0) return false;
  const auto found = read_is_short_.find(cost_key);
  return found != read_is_short_.end() && found->second;
}

void Backend::RecordCostLocked(std::optional<size_t> cost_key,
                               std::chrono::steady_clock::duration took) {
  if (!cost_key || options_.inline_read_budget.count() <= 0) return;
  constexpr size_t kMaxRememberedReads = 4096;
  if (read_is_short_.size() >= kMaxRememberedReads && !read_is_short_.contains(*cost_key)) {
    read_is_short_.clear();
  }
  read_is_short_[*cost_key] = took <= options_.inline_read_budget;
}

void Backend::WakeAllReaders() {
  for (std::condition_variable& wakeup : reader_wakeups_) wakeup.notify_all();
}

void Backend::SubmitWrite(UpdateSource source, StoreJob job) {
  std::optional<Error> refusal;
  {
    const std::lock_guard lock(mutex_);
    refusal = RefusalLocked();
    if (!refusal) {
      (source == UpdateSource::kMiner ? miner_writes_ : interactive_writes_)
          .push_back(std::move(job));
    }
  }
  if (refusal) return job.fail(*refusal);
  writes_ready_.notify_one();
}

void Backend::Shutdown() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  WakeAllReaders();
  writes_ready_.notify_all();
  if (writer_thread_.joinable()) writer_thread_.join();
  for (std::jthread& reader : reader_threads_) {
    if (reader.joinable()) reader.join();
  }
  CloseConnections();
}

void Backend::WriterLoop() {
  status_.SetBusy(0.0);
  auto opened = OpenConnections(true);
  // Idle before the first queued read is answered: a client that got an answer sees Idle.
  if (opened) status_.SetIdle();
  {
    const std::lock_guard lock(mutex_);
    open_finished_ = true;
    if (opened)
      serving_ = true;
    else
      open_error_ = opened.error();
  }
  state_changed_.notify_all();
  WakeAllReaders();
  if (!opened) {
    LogError(opened.error().ToString());
    FailQueued(opened.error());
    return;
  }
  // After writes, the full-text index merges its segments and the WAL is folded into the
  // database and truncated once no write came for kIdleCheckpointDelay: commits never wait for
  // them, and an idle database has no WAL beside it (sqlite/database.cpp: the writer's own
  // checkpoint comes only every 10,000 pages).
  bool wal_written = false;
  for (;;) {
    bool idle = false;
    std::optional<StoreJob> job =
        NextWrite(wal_written ? std::optional(kIdleCheckpointDelay) : std::nullopt, idle);
    if (idle) {
      wal_written = false;
      if (!writer_store_) continue;
      MergeFullTextWhileIdle();
      if (auto folded = writer_store_->database().TruncateWal(); !folded) {
        LogWarning(fmt::format("checkpoint of the idle database: {}", folded.error().ToString()));
      }
      continue;
    }
    if (!job) break;
    if (writer_store_) {
      job->run(*writer_store_);
      wal_written = true;
      continue;
    }
    // A restore could neither open the new file nor reopen the old one.
    const std::lock_guard lock(mutex_);
    job->fail(open_error_.value_or(Error(Errc::kInternal, "the database is closed")));
  }
}

bool Backend::WritePending() {
  const std::lock_guard lock(mutex_);
  return stopping_ || !interactive_writes_.empty() || !miner_writes_.empty();
}

// FTS5 merges segments only when asked (schema/fts.h, issue 5): here, in small steps, each its
// own transaction, and a write that arrives waits for the running step only. What is left is
// merged at the next idle moment.
void Backend::MergeFullTextWhileIdle() {
  while (!WritePending()) {
    auto merged = writer_store_->MergeFullText(options_.idle_merge_pages);
    if (options_.after_idle_merge_step) options_.after_idle_merge_step();
    if (!merged) {
      LogWarning(
          fmt::format("full-text merge of the idle database: {}", merged.error().ToString()));
      return;
    }
    if (!*merged) return;
  }
}

// The next write job, interactive first; nullopt once stopping and nothing is left.
std::optional<StoreJob> Backend::NextWrite(std::optional<std::chrono::milliseconds> idle_after,
                                           bool& idle) {
  std::unique_lock lock(mutex_);
  const auto ready = [this] {
    return stopping_ || !interactive_writes_.empty() || !miner_writes_.empty();
  };
  if (!idle_after) {
    writes_ready_.wait(lock, ready);
  } else if (!writes_ready_.wait_for(lock, *idle_after, ready)) {
    idle = true;
    return std::nullopt;
  }
  std::deque<StoreJob>& queue = interactive_writes_.empty() ? miner_writes_ : interactive_writes_;
  if (queue.empty()) return std::nullopt;
  running_source_ = &queue == &miner_writes_ ? UpdateSource::kMiner : UpdateSource::kInteractive;
  StoreJob job = std::move(queue.front());
  queue.pop_front();
  return job;
}

void Backend::ReaderLoop(size_t index) {
  for (;;) {
    ReadJob job;
    {
      std::unique_lock lock(mutex_);
      // While its connection is lent (RunLent), the reader takes nothing.
      const auto ready = [this, index] {
        return !reader_lent_[index] &&
               ((serving_ && !reads_.empty()) || (stopping_ && reads_.empty()) || open_error_);
      };
      while (!ready()) {
        if (!reader_idle_[index] && !reader_lent_[index]) {  // (again) idle
          idle_readers_.push_back(index);
          reader_idle_[index] = true;
        }
        reader_wakeups_[index].wait(lock);
      }
      if (reader_idle_[index]) {
        idle_readers_.erase(std::find(idle_readers_.begin(), idle_readers_.end(), index));
        reader_idle_[index] = false;
      }
      if (reads_.empty() || open_error_) return;
      job = std::move(reads_.front());
      reads_.pop_front();
      ++active_reads_;
    }
    const auto start = std::chrono::steady_clock::now();
    job.job.run(*reader_stores_[index]);
    const auto took = std::chrono::steady_clock::now() - start;
    {
      const std::lock_guard lock(mutex_);
      RecordCostLocked(job.cost_key, took);
      --active_reads_;
      // Idle from now on, not from when this thread next takes the lock: the next read may
      // already be submitted (and could run inline with this connection).
      if (reads_.empty() && !reader_idle_[index]) {
        idle_readers_.push_back(index);
        reader_idle_[index] = true;
      }
    }
    state_changed_.notify_all();
  }
}

void Backend::FailQueued(const Error& error) {
  std::deque<StoreJob> failed;
  {
    const std::lock_guard lock(mutex_);
    for (ReadJob& read : reads_) failed.push_back(std::move(read.job));
    reads_.clear();
    for (auto* queue : {&interactive_writes_, &miner_writes_}) {
      for (StoreJob& job : *queue) failed.push_back(std::move(job));
      queue->clear();
    }
  }
  for (StoreJob& job : failed) job.fail(error);
}

Result<void> Backend::OpenConnections(bool at_start) {
  const engine::StoreOptions writer_options{options_.directory, options_.ontology_dir, false,
                                            options_.open_mode};
  QUARRY_ASSIGN_OR_RETURN(OpenedStore opened, OpenServiceStore(writer_options));
  if (!opened.recovery_note.empty()) status_.SetMessage(opened.recovery_note);
  for (const std::string& change : opened.store->migration_summary()) {
    LogInfo(fmt::format("{}: {}", opened.store->database_file().string(), change));
  }
  writer_store_ = std::move(opened.store);
  if (options_.change_sink) QUARRY_TRY(writer_store_->SetChangeSink(options_.change_sink));
  if (at_start) status_.SetBusy(0.5);
  // The readers share the writer's Ontology object (ontology/loader.h).
  const engine::StoreOptions reader_options{options_.directory, options_.ontology_dir, true,
                                            options_.open_mode};
  for (int i = 0; i < options_.reader_count; ++i) {
    auto reader = engine::Store::Open(reader_options);
    if (!reader) {
      CloseConnections();
      return std::move(reader).error().WithContext("read connection");
    }
    if (i >= options_.mapped_readers) {
      if (auto unmapped = (*reader)->database().Exec("PRAGMA mmap_size=0;"); !unmapped.ok()) {
        CloseConnections();
        return std::move(unmapped).error().WithContext(
            fmt::format("read connection {}: turning its mapping of meta.db off", i));
      }
    }
    reader_stores_.push_back(std::move(*reader));
  }
  return Ok();
}

void Backend::CloseConnections() {
  reader_stores_.clear();
  writer_store_.reset();
}

void Backend::PauseReads() {
  std::unique_lock lock(mutex_);
  serving_ = false;
  state_changed_.wait(lock, [this] { return active_reads_ == 0; });
}

void Backend::ResumeReads() {
  {
    const std::lock_guard lock(mutex_);
    serving_ = writer_store_ != nullptr;
  }
  WakeAllReaders();
}

Result<void> Backend::ReplaceDatabase(const std::filesystem::path& staged) {
  PauseReads();
  const std::filesystem::path live = database_file();
  const std::filesystem::path previous = live.string() + ".before-restore";
  // Folds what it can of the WAL into the old file without waiting for other processes'
  // readers (the WAL moves aside with it, so nothing depends on this).
  (void)writer_store_->database().Exec("PRAGMA wal_checkpoint(PASSIVE)");
  CloseConnections();
  Result<void> outcome = MoveDatabaseFiles(live, previous);
  if (!outcome) {
    PutBackDatabaseFiles(previous, live);
  } else {
    outcome = Rename(staged, live);
    if (outcome) outcome = OpenConnections(false);
    if (!outcome) {
      CloseConnections();
      RemoveDatabaseFiles(live);
      PutBackDatabaseFiles(previous, live);
    }
  }
  if (outcome) RemoveDatabaseFiles(previous);
  Result<void> serving = writer_store_ ? Ok() : OpenConnections(false);
  {
    const std::lock_guard lock(mutex_);
    serving_ = serving.ok();
    if (!serving) open_error_ = serving.error();
  }
  WakeAllReaders();
  if (!serving) {
    LogError(serving.error().ToString());
    FailQueued(serving.error());
  }
  return outcome;
}

}  // namespace quarry::ipc
