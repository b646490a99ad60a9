#include "store/ipc/backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <system_error>

#include "store/ipc/database_recovery.h"
#include "store/ipc/log.h"

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

void Backend::SubmitRead(StoreJob job) {
  std::optional<Error> refusal;
  std::optional<size_t> wake;
  {
    const std::lock_guard lock(mutex_);
    refusal = RefusalLocked();
    if (!refusal) {
      reads_.push_back(std::move(job));
      if (!idle_readers_.empty()) {  // else a busy reader takes it when its job is done
        wake = idle_readers_.back();
        idle_readers_.pop_back();
        reader_idle_[*wake] = false;
      }
    }
  }
  if (refusal) return job.fail(*refusal);
  if (wake) reader_wakeups_[*wake].notify_one();
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
  // After writes, the WAL is folded into the database and truncated once no write came for
  // kIdleCheckpointDelay: commits never wait for it, and an idle database has no WAL beside it
  // (sqlite/database.cpp: the writer's own checkpoint comes only every 10,000 pages).
  bool wal_written = false;
  for (;;) {
    bool idle = false;
    std::optional<StoreJob> job =
        NextWrite(wal_written ? std::optional(kIdleCheckpointDelay) : std::nullopt, idle);
    if (idle) {
      wal_written = false;
      if (!writer_store_) continue;
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
    StoreJob job;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [this] {
        return (serving_ && !reads_.empty()) || (stopping_ && reads_.empty()) || open_error_;
      };
      while (!ready()) {
        if (!reader_idle_[index]) {  // (again) the most recently idle reader
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
    job.run(*reader_stores_[index]);
    {
      const std::lock_guard lock(mutex_);
      --active_reads_;
    }
    state_changed_.notify_all();
  }
}

void Backend::FailQueued(const Error& error) {
  std::deque<StoreJob> failed;
  {
    const std::lock_guard lock(mutex_);
    for (auto* queue : {&reads_, &interactive_writes_, &miner_writes_}) {
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
  const engine::StoreOptions reader_options{options_.directory, options_.ontology_dir, true,
                                            options_.open_mode};
  for (int i = 0; i < options_.reader_count; ++i) {
    auto reader = engine::Store::Open(reader_options);
    if (!reader) {
      CloseConnections();
      return std::move(reader).error().WithContext("read connection");
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
