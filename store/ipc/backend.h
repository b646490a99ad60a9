// Backend: the threads of quarry-store around its database — one writer, a pool of readers —
// and the queues that feed them (DESIGN.md "one writer, many readers").
//
// - The writer thread owns the writable Store. It first opens the database (creation,
//   migration, recovery of a broken file: status Busy), then runs write jobs one at a time,
//   interactive ones before miner batches (UpdateSource), so an application's edit never
//   waits behind a crawl.
// - Each reader thread owns a read-only Store on the same file (a WAL reader: it never blocks
//   the writer nor waits for it) and takes read jobs from one shared queue. A read known to be
//   short runs on the submitting thread with an idle reader's connection instead (inline reads).
// - While the database is unavailable (opening, a restore swapping files) jobs queue up and
//   run afterwards; nothing is refused for being busy.
// - Shutdown() stops accepting, then runs every queued job before closing: an update that was
//   acknowledged has committed.
// Thread-safety: Submit*() and Shutdown() from any thread; ReplaceDatabase() only from a write
// job (the writer thread). Jobs run on the backend's threads.
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <chrono>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "store/common/result.h"
#include "store/engine/store.h"
#include "store/ipc/status_board.h"

namespace quarry::ipc {

// Where an update comes from. Miner batches (BatchSparqlUpdate with "source": "miner") run
// after interactive work; the writeback wave reads the source of the running job to decide
// which changes produce a Writeback signal (DESIGN.md "Writeback").
enum class UpdateSource { kInteractive, kMiner };

// A unit of work: `run` gets the thread's Store; `fail` is called instead when the store
// cannot run it (the database never opened, or the store is stopping).
struct StoreJob {
  std::function<void(engine::Store&)> run;
  std::function<void(const Error&)> fail;
};

struct BackendOptions {
  std::filesystem::path directory;     // holds meta.db
  std::filesystem::path ontology_dir;  // empty = engine::DefaultOntologyDir()
  // `--ontology none`: a new database in open mode (SCHEMA.md "Open mode"), any predicate kept
  // in the quad table. An existing open-mode database opens in open mode either way.
  bool open_mode = false;
  int reader_count = 4;
  // The first mapped_readers read connections map meta.db (mmap_size, engine/sqlite/database.cpp);
  // the others read it through their page cache. Each mapping counts the pages it touched in
  // quarry-store's RSS once more, and one client's serial reads do not all land on one reader
  // (its reply leaves before the reader is idle again, the likely cause): with 4 mapped readers
  // and the most recently idle reader chosen first a 12,800-contact
  // phonebook run left 3 mappings of 19-26 MiB each (bench/phonebook/RESULTS.md, capturemem2).
  // New reads go to the lowest-numbered idle reader, so a mapped one while one is idle.
  int mapped_readers = 1;
  // A read whose query ran within this budget the last time (on any reader) runs on the thread
  // that submits it (the bus thread), with the lowest-numbered idle reader's connection,
  // when a reader is idle and no read is queued: no hand-off to a reader thread and back
  // (issue 7, store reads: ~2 context switches per small query). Measured on each run, so a
  // text that turns slow goes back to the reader threads. Zero: never inline.
  std::chrono::microseconds inline_read_budget{1000};
  // Installed on the writer's Store (also after a restore reopens it): receives each commit's
  // changes for the class signals (signal_emitter.h). Empty = no change capture.
  engine::ChangeSink change_sink;
  // Full-text segment merging while the writer is idle (MergeFullTextWhileIdle): leaf pages per
  // step, and a test's hook run after each step on the writer thread (empty: none).
  int idle_merge_pages = 64;
  std::function<void()> after_idle_merge_step;
};

class Backend {
 public:
  Backend(BackendOptions options, StatusBoard& status);
  ~Backend();
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // Starts the threads; the writer opens the database while jobs queue up.
  void Start();
  // Blocks until the first open finished: Ok, or why the store cannot serve.
  Result<void> WaitUntilOpen();

  // `cost_key` names the query (a hash of its text) for the inline-read rule above; nullopt:
  // always a reader thread. Called from the bus thread, the job may have run when this returns.
  void SubmitRead(StoreJob job, std::optional<size_t> cost_key = std::nullopt);
  void SubmitWrite(UpdateSource source, StoreJob job);
  // The source of the write job now running (writer thread only).
  UpdateSource running_source() const { return running_source_; }

  // Writer thread only, inside a write job: stops handing out read jobs and waits for the
  // running ones; new reads queue until ResumeReads() or the end of ReplaceDatabase(). A
  // restore pauses first, so a query that arrives while it runs is answered afterwards, with
  // the restored data (never with the old data, never refused). Safe to call twice.
  void PauseReads();
  void ResumeReads();

  // Writer thread only, inside a write job: pauses reads, closes every connection, moves the
  // live database aside with its -wal and -shm, renames `staged` over it and reopens, then
  // resumes reads. Moving the companions too keeps another process's reader (a Direct client
  // mid-read) on the old file's own WAL and index, and the new file starts with none of the
  // old frames. The previous files are kept until the new one opens and put back when it does
  // not. The Store passed to the running job is gone afterwards.
  Result<void> ReplaceDatabase(const std::filesystem::path& staged);

  const BackendOptions& options() const { return options_; }
  std::filesystem::path database_file() const;

  // Stops accepting jobs (they fail with kBusy), runs every queued one, closes the database.
  void Shutdown();

 private:
  std::optional<Error> RefusalLocked() const;  // why a job cannot be queued; holds mutex_
  void WriterLoop();
  bool WritePending();
  void MergeFullTextWhileIdle();
  void ReaderLoop(size_t index);
  Result<void> OpenConnections(bool at_start);
  void CloseConnections();
  // The next write job; with `idle_after`, nullopt and `idle` set when none came for that long.
  std::optional<StoreJob> NextWrite(std::optional<std::chrono::milliseconds> idle_after, bool& idle);
  void FailQueued(const Error& error);
  void WakeAllReaders();
  // Runs `job` on this thread with reader `index`'s connection, lent by SubmitRead.
  void RunLent(size_t index, StoreJob job, size_t cost_key);
  bool KnownShortLocked(size_t cost_key) const;
  // Removes the lowest-numbered reader from idle_readers_ (not empty) and returns it.
  size_t TakeIdleReaderLocked();
  void RecordCostLocked(std::optional<size_t> cost_key, std::chrono::steady_clock::duration took);

  struct ReadJob {
    StoreJob job;
    std::optional<size_t> cost_key;
  };

  BackendOptions options_;
  StatusBoard& status_;

  std::mutex mutex_;
  // One per reader: a read job for it, or serving/stopping changed. A new job wakes the
  // lowest-numbered idle reader (TakeIdleReaderLocked), so one client's queries keep landing on
  // the same warm (and mapped: mapped_readers) connection: each read connection has its own page
  // cache and its own mmap of meta.db, and on this VM the first scan through a cold one cost
  // 2-6x a warm one (bench/ipc, issue 4).
  std::deque<std::condition_variable> reader_wakeups_;
  std::vector<size_t> idle_readers_;  // waiting readers
  std::vector<bool> reader_idle_;     // reader i is in idle_readers_
  std::vector<bool> reader_lent_;     // reader i's connection runs a read on another thread
  // Query (cost key) → its last run was within inline_read_budget. Bounded: cleared when full.
  std::unordered_map<size_t, bool> read_is_short_;
  std::condition_variable writes_ready_;   // a write job arrived, or stopping
  std::condition_variable state_changed_;  // open finished, readers went idle
  std::deque<ReadJob> reads_;
  std::deque<StoreJob> interactive_writes_;
  std::deque<StoreJob> miner_writes_;
  bool serving_ = false;   // readers may run jobs
  bool stopping_ = false;  // no new jobs
  bool open_finished_ = false;
  std::optional<Error> open_error_;
  int active_reads_ = 0;

  std::unique_ptr<engine::Store> writer_store_;                // writer thread
  std::vector<std::unique_ptr<engine::Store>> reader_stores_;  // one per reader thread
  UpdateSource running_source_ = UpdateSource::kInteractive;

  std::vector<std::jthread> reader_threads_;
  std::jthread writer_thread_;
};

}  // namespace quarry::ipc
