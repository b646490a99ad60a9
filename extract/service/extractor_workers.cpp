// ExtractorService's worker slots (one thread and one worker process each) and its writer.
#include <map>

#include "extract/service/extract_state.h"
#include "extract/service/extractor_service.h"
#include "extract/service/log.h"
#include "miner-fs/cpu_budget.h"
#include "store/common/process_memory.h"

namespace quarry::extract::service {
namespace {

// File updates per BatchSparqlUpdate (one store transaction). Each transaction ends with new
// FTS5 segments, merged as they pile up: 128 with the store's FTS5 hashsize of 4 MiB
// (schema/fts.h; with 1 MiB a batch flushed mid-transaction and 128 gained 0.3 %) cost
// quarry-store 9.0 % fewer instructions per text file than 64 (8,001 text files,
// tests/extract/store_cost_driver.cpp, issue 5); 256: 6.9 %. Half of
// max_unwritten, so the workers still fill the next batch while one is written.
constexpr size_t kWriteBatch = 128;
constexpr auto kRespawnPause = std::chrono::seconds(1);
constexpr auto kStoreRetryPause = std::chrono::seconds(1);
// Start-up of a worker (exec, libraries, sandbox) on a busy machine; not part of any file's time.
constexpr auto kStartLimit = std::chrono::milliseconds(60'000);

// The store is away (not running, restarting, lost) or cannot write just now: the update is
// fine and is tried again later. Anything else is the store refusing this update.
bool IsStoreAway(const Error& error) {
  return error.code() == Errc::kIo || error.code() == Errc::kBusy ||
         error.code() == Errc::kNoSpace;
}

// GetMetadata's answer from a worker's outcome.
Result<std::string> MetadataOf(Outcome outcome) {
  if (outcome.kind == Outcome::Kind::kExtracted) return std::move(outcome.text);
  if (outcome.kind == Outcome::Kind::kNothing) return Error(Errc::kUnsupported, outcome.text);
  return Error(Errc::kInvalidArgument,
               outcome.module.empty() ? outcome.text
                                      : fmt::format("extractor {}: {}", outcome.module, outcome.text));
}

}  // namespace

// ---- worker slots: job -> sandboxed worker -> outcome ----

void ExtractorService::EnsureWorker(size_t slot, std::unique_ptr<WorkerProcess>& worker) {
  if (worker && worker->alive()) return;
  worker.reset();
  auto spawned = WorkerProcess::Spawn(settings_.worker_argv);
  if (!spawned) {
    LogWarning(spawned.error().ToString());
  } else if (auto ready = (*spawned)->WaitReady(kStartLimit); !ready) {
    LogWarning(ready.error().ToString());
  } else {
    worker = std::move(*spawned);
  }
  const std::lock_guard lock(mutex_);
  worker_pids_[slot] = worker ? worker->pid() : 0;
}

void ExtractorService::SlotLoop(size_t slot) {
  std::unique_ptr<WorkerProcess> worker;
  EnsureWorker(slot, worker);  // at once, so GetStatus lists every worker before any file
  while (!stopping_) {
    Job job;
    bool wake_dispatcher = false;
    {
      std::unique_lock lock(mutex_);
      if (jobs_.empty() && !stopping_) {
        // Starved when files wait in the queue or in the dispatcher's hands (not when there is
        // nothing to do): the clock is read only when the slot finds no job.
        const bool work_waits = queue_.size() > 0 || dispatching_;
        const auto since = std::chrono::steady_clock::now();
        jobs_changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (work_waits) starved_ += std::chrono::steady_clock::now() - since;
      }
      if (stopping_) break;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      current_[slot] = job.url;
      // The dispatcher fetches the next batch once the jobs run low (NeedsLookup), not before.
      wake_dispatcher = NeedsLookup(jobs_.size(), settings_.workers);
    }
    if (wake_dispatcher) lookup_wanted_.notify_one();
    RunJob(slot, worker, job);
  }
  const std::lock_guard lock(mutex_);
  worker_pids_[slot] = 0;
}

void ExtractorService::RunJob(size_t slot, std::unique_ptr<WorkerProcess>& worker, Job& job) {
  EnsureWorker(slot, worker);
  Outcome outcome;
  std::chrono::microseconds cpu_used{0};
  const auto started = std::chrono::steady_clock::now();
  if (worker) {
    // The worker's CPU time only matters under a budget (100% never rests): two clock calls
    // per file saved otherwise.
    const bool budgeted = settings_.cpu_percent < 100;
    const auto cpu_before = budgeted ? worker->CpuTime() : std::nullopt;
    outcome = worker->Run(job.path, job.url, job.file_iri, job.mtime_us, settings_.time_limit);
    // nullopt when the worker died on the file
    const auto cpu_after = budgeted ? worker->CpuTime() : std::nullopt;
    if (cpu_before && cpu_after) cpu_used = *cpu_after - *cpu_before;
  } else {
    outcome.text = "cannot start a worker process";
    std::this_thread::sleep_for(kRespawnPause);
  }
  const auto wall = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  if (job.reply) {
    job.reply(stopping_ ? Result<std::string>(Error(Errc::kUnsupported, "quarry-extract is stopping"))
                        : MetadataOf(std::move(outcome)));
  } else if (!stopping_) {
    // Killed by Stop(): not the file's fault; it stays unextracted for the next start.
    Finish(job, std::move(outcome));
  }
  bool wake_writer = false;
  {
    const std::lock_guard lock(mutex_);
    current_[slot].clear();
    wake_writer = WriterMayProceedLocked();
  }
  if (wake_writer) written_changed_.notify_all();  // it may have all there is now
  if (!stopping_) EnsureWorker(slot, worker);  // a dead worker is replaced at once
  RestFor(miner::RestAfter(cpu_used, wall, settings_.cpu_percent));
}

void ExtractorService::RestFor(std::chrono::microseconds rest) {
  if (rest.count() <= 0) return;
  std::unique_lock lock(mutex_);
  stop_requested_.wait_for(lock, rest, [this] { return stopping_.load(); });
}

void ExtractorService::Finish(const Job& job, Outcome outcome) {
  // A file never tried before has no failure to clear: its two DELETE ... WHERE (a translated
  // query each in the store, per file) are left out. A failure always clears (rare, and its
  // module may differ from the one recorded).
  const bool clear_failure = job.may_have_failure || outcome.kind == Outcome::Kind::kFailed;
  Written written{job, std::move(outcome), {}, clear_failure};
  Outcome& result = written.outcome;
  switch (result.kind) {
    case Outcome::Kind::kExtracted: {
      // The worker's text already records the mtime extracted (its file template); moved, so
      // a result waiting for the store holds its text once.
      written.update = std::move(result.text);
      if (clear_failure) AppendClearFailure(written.update, job.file_iri);
      std::string().swap(result.text);
      break;
    }
    case Outcome::Kind::kNothing:
      written.update = StateOnlyUpdate(job.file_iri, job.url, job.mtime_us, "", "", clear_failure);
      break;
    case Outcome::Kind::kFailed:
      LogWarning(fmt::format("{}: {}{}", job.path,
                             result.module.empty() ? "" : "extractor " + result.module + ": ",
                             result.text));
      written.update =
          StateOnlyUpdate(job.file_iri, job.url, job.mtime_us, result.text, result.module);
      break;
  }
  bool wake_writer = true;  // a result that goes back to the queue changes nothing: harmless
  {
    std::unique_lock lock(mutex_);
    const auto fits = [&] {
      return unwritten_ == 0 ||
             (unwritten_ < settings_.max_unwritten &&
              unwritten_bytes_ + written.update.size() <= settings_.max_unwritten_bytes);
    };
    // The store is there but busy (its writes slower than the workers): wait for the writer to
    // make room rather than drop a result whose file would be extracted again.
    if (!fits() && !store_away_ && !stopping_) {
      const auto since = std::chrono::steady_clock::now();
      room_freed_.wait(lock, [&] { return fits() || store_away_ || stopping_; });
      blocked_ += std::chrono::steady_clock::now() - since;
    }
    const bool has_room = fits();
    if (has_room) {
      ++unwritten_;
      unwritten_bytes_ += written.update.size();
      to_write_.push_back(std::move(written));
      wake_writer = WriterMayProceedLocked();
    } else if (!overflow_reported_) {
      overflow_reported_ = true;
      LogWarning(fmt::format("{} results wait for the store: further files go back to the queue",
                             unwritten_));
    }
    if (!has_room) queue_.PushBacklog({job.url});  // extracted again once there is room
  }
  if (wake_writer) written_changed_.notify_all();
}

// ---- writer: one update per file, many files per BatchSparqlUpdate (one transaction) ----

void ExtractorService::WriterLoop() {
  BusyHeapTrimmer trimmer(settings_.trim_heap);
  for (;;) {
    std::vector<Written> batch;
    {
      std::unique_lock lock(mutex_);
      written_changed_.wait(lock, [this] {
        return !to_write_.empty() || (stopping_ && slots_done_);
      });
      if (to_write_.empty()) return;
      // More results are coming: let the batch fill (write_linger in the header).
      const auto deadline = std::chrono::steady_clock::now() + settings_.write_linger;
      written_changed_.wait_until(lock, deadline, [this] {
        return to_write_.size() >= kWriteBatch || to_write_.size() >= settings_.max_unwritten ||
               stopping_ || !MoreInFlightLocked();
      });
      while (!to_write_.empty() && batch.size() < kWriteBatch) {
        batch.push_back(std::move(to_write_.front()));
        to_write_.pop_front();
      }
      writing_ = true;
    }
    std::vector<Written> kept = WriteBatch(batch);
    batch.clear();
    trimmer.AfterWork();
    std::unique_lock lock(mutex_);
    writing_ = false;
    if (kept.empty()) continue;
    if (stopping_ && slots_done_) {
      // One last try failed: the files stay unextracted in the store, picked up next start.
      LogWarning(fmt::format("{} results not written: the store is away", unwritten_));
      to_write_.clear();
      unwritten_ = 0;
      unwritten_bytes_ = 0;
      return;
    }
    // The store is away: keep the results, in order, and try again.
    for (auto written = kept.rbegin(); written != kept.rend(); ++written) {
      to_write_.push_front(std::move(*written));
    }
    written_changed_.wait_for(lock, kStoreRetryPause, [this] { return stopping_ && slots_done_; });
  }
}

// Whether the writer, waiting for results (WriterLoop), would now go on: the first result
// (it waits for one), a full batch, or nothing more to wait for. Anything else would wake it
// only to sleep again, a context switch per file.
bool ExtractorService::WriterMayProceedLocked() const {
  return to_write_.size() == 1 || to_write_.size() >= kWriteBatch ||
         to_write_.size() >= settings_.max_unwritten || !MoreInFlightLocked();
}

bool ExtractorService::MoreInFlightLocked() const {
  if (!jobs_.empty() || in_dispatch_ > 0 || dispatching_ || queue_.size() > 0) return true;
  for (const std::string& url : current_) {
    if (!url.empty()) return true;
  }
  return false;
}

void ExtractorService::Counted(const Written& written) {
  const std::lock_guard lock(mutex_);
  if (written.outcome.kind == Outcome::Kind::kFailed) {
    ++failed_;
  } else {
    ++extracted_;
  }
  --unwritten_;
  unwritten_bytes_ -= written.update.size();
  overflow_reported_ = false;
}

void ExtractorService::SetStoreAway(bool away) {
  {
    const std::lock_guard lock(mutex_);
    store_away_ = away;
  }
  room_freed_.notify_all();  // results written, or slots waiting for room must not wait on
}

// In write order: a result written without ClearFailure whose file got a failure from this
// process earlier (in an earlier batch or earlier in this one) gets it appended (its own
// operations never touch the failure, so after them is as good as before).
void ExtractorService::ClearFailuresWritten(std::vector<Written>& batch) {
  for (Written& written : batch) {
    if (!written.clears_failure && failures_written_.contains(written.job.file_iri)) {
      const size_t before = written.update.size();
      AppendClearFailure(written.update, written.job.file_iri);
      written.clears_failure = true;
      const std::lock_guard lock(mutex_);
      unwritten_bytes_ += written.update.size() - before;
    }
    if (written.outcome.kind == Outcome::Kind::kFailed) {
      failures_written_.insert(written.job.file_iri);
    } else {
      failures_written_.erase(written.job.file_iri);
    }
  }
}

std::vector<ExtractorService::Written> ExtractorService::WriteBatch(std::vector<Written>& batch) {
  ClearFailuresWritten(batch);
  const std::lock_guard store_lock(write_link_.mutex);
  Connection* store = StoreLocked(write_link_);
  if (store == nullptr) {
    SetStoreAway(true);
    return std::move(batch);
  }
  Batch request = store->CreateBatch();
  for (const Written& written : batch) request.Add(written.update);
  const auto executed = request.Execute();
  if (executed) {
    {
      const std::lock_guard lock(mutex_);
      ++write_batches_;
    }
    for (const Written& written : batch) Counted(written);
    SetStoreAway(false);
    return {};
  }
  if (IsStoreAway(executed.error())) {
    LogWarning(executed.error().ToString());
    write_link_.connection.reset();
    SetStoreAway(true);
    return std::move(batch);
  }
  // One bad update must not lose the others: each alone, and a refused one as a failure.
  for (size_t i = 0; i < batch.size(); ++i) {
    Written& written = batch[i];
    auto done = store->Update(written.update);
    if (!done && !IsStoreAway(done.error())) {
      written.outcome.kind = Outcome::Kind::kFailed;
      written.outcome.text = "the store refused the result: " + done.error().ToString();
      LogWarning(fmt::format("{}: {}", written.job.path, written.outcome.text));
      const size_t refused_size = written.update.size();
      written.update = StateOnlyUpdate(written.job.file_iri, written.job.url, written.job.mtime_us,
                                       written.outcome.text, written.outcome.module);
      written.clears_failure = true;
      failures_written_.insert(written.job.file_iri);
      {
        const std::lock_guard lock(mutex_);
        unwritten_bytes_ = unwritten_bytes_ - refused_size + written.update.size();
      }
      done = store->Update(written.update);
    }
    if (!done && IsStoreAway(done.error())) {
      write_link_.connection.reset();
      SetStoreAway(true);
      return {std::make_move_iterator(batch.begin() + static_cast<ptrdiff_t>(i)),
              std::make_move_iterator(batch.end())};
    }
    // A state-only update the store refuses too: counted, nothing more can be recorded.
    Counted(written);
  }
  SetStoreAway(false);
  return {};
}

}  // namespace quarry::extract::service
