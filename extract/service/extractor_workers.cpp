// ExtractorService's worker slots (one thread and one worker process each) and its writer.
#include <map>

#include "extract/service/extract_state.h"
#include "extract/service/extractor_service.h"
#include "extract/service/log.h"

namespace quarry::extract::service {
namespace {

constexpr size_t kWriteBatch = 64;  // file updates per BatchSparqlUpdate
constexpr auto kRespawnPause = std::chrono::seconds(1);
// Start-up of a worker (exec, libraries, sandbox) on a busy machine; not part of any file's time.
constexpr auto kStartLimit = std::chrono::milliseconds(60'000);
constexpr auto kThrottleStep = std::chrono::milliseconds(25);

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
    {
      std::unique_lock lock(mutex_);
      jobs_changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) break;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      current_[slot] = job.url;
    }
    jobs_changed_.notify_all();  // the dispatcher may fetch the next batch
    EnsureWorker(slot, worker);
    Outcome outcome;
    if (worker) {
      outcome = worker->Run(job.path, job.url, job.file_iri, settings_.time_limit);
    } else {
      outcome.text = "cannot start a worker process";
      std::this_thread::sleep_for(kRespawnPause);
    }
    // Killed by Stop(): not the file's fault; it stays unextracted for the next start.
    if (!stopping_) Finish(job, std::move(outcome));
    {
      const std::lock_guard lock(mutex_);
      current_[slot].clear();
    }
    if (!stopping_) EnsureWorker(slot, worker);  // a dead worker is replaced at once
    if (settings_.throttle > 0) std::this_thread::sleep_for(kThrottleStep * settings_.throttle);
  }
  const std::lock_guard lock(mutex_);
  worker_pids_[slot] = 0;
}

void ExtractorService::Finish(const Job& job, Outcome outcome) {
  Written written{job, std::move(outcome), {}};
  const Outcome& result = written.outcome;
  switch (result.kind) {
    case Outcome::Kind::kExtracted:
      written.update = result.text + " ;\n" + SuccessState(job.file_iri, job.mtime_us);
      break;
    case Outcome::Kind::kNothing:
      written.update = StateOnlyUpdate(job.file_iri, job.url, job.mtime_us, "", "");
      break;
    case Outcome::Kind::kFailed:
      LogWarning(fmt::format("{}: {}{}", job.path,
                             result.module.empty() ? "" : "extractor " + result.module + ": ",
                             result.text));
      written.update =
          StateOnlyUpdate(job.file_iri, job.url, job.mtime_us, result.text, result.module);
      break;
  }
  {
    const std::lock_guard lock(mutex_);
    to_write_.push_back(std::move(written));
  }
  written_changed_.notify_all();
}

// ---- writer: one update per file, many files per BatchSparqlUpdate ----

void ExtractorService::WriterLoop() {
  for (;;) {
    std::vector<Written> batch;
    {
      std::unique_lock lock(mutex_);
      written_changed_.wait(lock, [this] {
        return !to_write_.empty() || (stopping_ && slots_done_);
      });
      if (to_write_.empty()) return;
      while (!to_write_.empty() && batch.size() < kWriteBatch) {
        batch.push_back(std::move(to_write_.front()));
        to_write_.pop_front();
      }
      writing_ = true;
    }
    WriteBatch(batch);
    const std::lock_guard lock(mutex_);
    writing_ = false;
  }
}

void ExtractorService::Counted(const Written& written) {
  const std::lock_guard lock(mutex_);
  if (written.outcome.kind == Outcome::Kind::kFailed) {
    ++failed_;
  } else {
    ++extracted_;
  }
}

void ExtractorService::WriteBatch(std::vector<Written>& batch) {
  const std::lock_guard store_lock(store_mutex_);
  Connection* store = StoreLocked();
  if (store == nullptr) {
    // The files stay unextracted in the store and are picked up when the service restarts.
    LogWarning(fmt::format("{} results not written: no store", batch.size()));
    return;
  }
  Batch request = store->CreateBatch();
  for (const Written& written : batch) request.Add(written.update);
  if (request.Execute()) {
    for (const Written& written : batch) Counted(written);
    return;
  }
  // One bad update must not lose the others: each alone, and a refused one as a failure.
  for (Written& written : batch) {
    auto done = store->Update(written.update);
    if (!done) {
      written.outcome.kind = Outcome::Kind::kFailed;
      written.outcome.text = "the store refused the result: " + done.error().ToString();
      LogWarning(fmt::format("{}: {}", written.job.path, written.outcome.text));
      done = store->Update(StateOnlyUpdate(written.job.file_iri, written.job.url,
                                           written.job.mtime_us, written.outcome.text,
                                           written.outcome.module));
    }
    if (done) Counted(written);
  }
}

}  // namespace quarry::extract::service
