// The heart of quarry-extract (issue 6, DESIGN.md org.quarry.Extract1): a queue of file URLs,
// a dispatcher that looks the files up in the store (one query per batch: the resource named
// by nie:url, the mtime it was extracted at) and skips files already extracted at their current
// mtime, worker slots that run each file in a sandboxed worker process (replaced when it
// crashes, hangs or runs out of memory), and a writer that sends each file's one SPARQL update
// through the store (BatchSparqlUpdate, source=miner), onto the miner's file resource.
//
// A failed file keeps its basic facts and gets its failure (reason, module) recorded with the
// mtime tried, so it is not retried until it changes; the pipeline never stops on one file. On
// start the files the store marks as not yet extracted are queued behind any Queue call.
// While the store is away (stopped, restarting, crashed) results wait in memory, up to
// max_unwritten of them, and are written when it is back; a result beyond that bound is
// dropped and its file goes back to the queue, to be extracted again: no file is lost.
// GetMetadata runs on the worker slots, ahead of the queue, and answers through a callback, so
// the D-Bus thread never waits for an extraction.
// Thread-safety: Queue, GetMetadata and Status from any thread (the D-Bus thread); Start and
// Stop from the owner's thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "extract/service/file_queue.h"
#include "extract/service/worker_process.h"
#include "quarry/connection.h"

namespace quarry::extract::service {

struct ServiceSettings {
  BusOptions store;                      // where quarry-store runs
  std::vector<std::string> worker_argv;  // runs one worker (this binary --worker ...)
  unsigned workers = 2;
  std::chrono::milliseconds time_limit{30'000};  // per file
  // Each worker's CPU budget in percent of one core (quarry.toml [throttle]): after a file the
  // slot rests until the worker's CPU time over the wall time is within it. 100: no rest.
  int cpu_percent = 100;
  // Results kept while the store is away or busy, at most max_unwritten of them and
  // max_unwritten_bytes of SPARQL (one result always fits): the bytes bound memory when the
  // texts are large (PDFs, up to max_text_bytes each); 4 MiB is some 300 results of a mixed
  // home folder, several write batches, so the workers still do not wait for the store.
  size_t max_unwritten = 256;
  size_t max_unwritten_bytes = size_t{4} << 20;
  // While more files are in flight (queued, being looked up or extracted), the writer waits up
  // to this long for a batch of results to fill before it sends it: one BatchSparqlUpdate (one
  // store transaction) for many files instead of one for every file or two. With nothing else
  // in flight a result is written at once.
  std::chrono::milliseconds write_linger{250};
  // The writer gives freed heap back while busy, after a batch is written (BusyHeapTrimmer);
  // off under QUARRY_MALLOC=glibc.
  bool trim_heap = false;
};

// URLs per store lookup (one nie:url query per batch).
inline constexpr size_t kLookupBatch = 16;

// Whether the dispatcher looks the next batch up now, with `ready` jobs looked up and waiting
// for `workers` worker slots: while a batch's worth is still ready, so the workers never wait
// for a lookup's round trip (or for a write in progress), and not earlier, so files queued by
// a Queue call overtake the backlog after at most kLookupBatch + workers files.
inline bool NeedsLookup(size_t ready, size_t workers) { return ready < kLookupBatch + workers; }

// GetStatus (extract/README.md lists the keys).
struct StatusSnapshot {
  std::string state;  // "starting", "idle", "extracting"
  uint32_t queued = 0;
  std::vector<std::string> current;
  uint64_t extracted = 0;
  uint64_t failed = 0;
  uint64_t skipped = 0;
  uint32_t unwritten = 0;  // results waiting to be written (the store is slow or away)
  uint64_t write_batches = 0;  // BatchSparqlUpdate calls the store accepted
  // Where the worker slots waited (milliseconds, summed over slots, since start): for a job
  // while files were queued or being looked up (the dispatcher fell behind), and for room to
  // keep a result (the store writes slower than the workers extract).
  uint64_t starved_ms = 0;
  uint64_t blocked_ms = 0;
  uint32_t cpu_percent = 100;
  std::vector<int32_t> worker_pids;
};

// GetMetadata's answer: the SPARQL update, or why there is none. Called once, on a slot thread
// (or on the caller's thread for a bad URL or a stopping service).
using MetadataReply = std::function<void(Result<std::string>)>;

class ExtractorService {
 public:
  explicit ExtractorService(ServiceSettings settings);
  ~ExtractorService();  // Stop()
  ExtractorService(const ExtractorService&) = delete;
  ExtractorService& operator=(const ExtractorService&) = delete;

  void Start();
  // Kills the workers (their files stay unextracted in the store, picked up next start),
  // writes what was finished and joins every thread.
  void Stop();
  // file:// URLs, ahead of the backlog; anything else is kInvalidArgument naming it.
  Result<void> Queue(const std::vector<std::string>& urls);
  // One file on the next free worker slot, ahead of the queue, nothing stored: `reply` gets
  // the SPARQL update it would get. Returns at once.
  void GetMetadata(const std::string& url, MetadataReply reply);
  StatusSnapshot Status() const;

 private:
  struct Job {
    std::string url;
    std::string path;
    std::string file_iri;  // the miner's resource, or the URL when the store has none
    int64_t mtime_us = 0;
    MetadataReply reply;  // set for GetMetadata: answer it, store nothing
    // The lookup found the file tried before (StoredFile::tried): a failure may be recorded.
    bool may_have_failure = true;
  };
  struct Written {
    Job job;
    Outcome outcome;
    std::string update;
    bool clears_failure = true;  // `update` holds ClearFailure's operations
  };

  void DispatchLoop();
  void LoadBacklog();
  bool Dispatch(const std::vector<std::string>& urls);
  std::vector<Job> Resolve(const std::vector<std::string>& urls, Cursor& rows);
  void SlotLoop(size_t slot);
  void EnsureWorker(size_t slot, std::unique_ptr<WorkerProcess>& worker);
  void RunJob(size_t slot, std::unique_ptr<WorkerProcess>& worker, Job& job);
  void RestFor(std::chrono::microseconds rest);
  void Finish(const Job& job, Outcome outcome);
  void WriterLoop();
  std::vector<Written> WriteBatch(std::vector<Written>& batch);
  void ClearFailuresWritten(std::vector<Written>& batch);
  void Counted(const Written& written);
  void SetStoreAway(bool away);  // and wakes slots waiting for room
  void AnswerPendingMetadata();
  bool MoreInFlightLocked() const;  // holds mutex_
  bool WriterMayProceedLocked() const;  // holds mutex_
  // One bus connection per thread that talks to the store (the dispatcher's lookups, the
  // writer's batches), so a lookup never waits behind a write in progress: the store answers
  // queries on its reader threads while its writer commits.
  struct StoreLink {
    std::mutex mutex;  // the owning thread, and Stop()
    std::unique_ptr<Connection> connection;
  };
  Connection* StoreLocked(StoreLink& link);  // holds link.mutex

  const ServiceSettings settings_;
  FileQueue queue_;
  std::atomic<bool> stopping_{false};

  mutable std::mutex mutex_;  // guards everything below up to the threads
  std::condition_variable jobs_changed_;   // jobs for the slots
  std::condition_variable lookup_wanted_;  // the dispatcher: jobs ran low (NeedsLookup)
  std::condition_variable written_changed_;
  std::condition_variable stop_requested_;  // wakes slots resting for the CPU budget
  std::condition_variable room_freed_;  // the writer wrote results, or found the store away
  std::deque<Job> jobs_;
  std::deque<Written> to_write_;
  std::vector<std::string> current_;  // per slot
  std::vector<pid_t> worker_pids_;    // per slot, 0 when none
  size_t unwritten_ = 0;        // results in to_write_ or in the writer's hands
  size_t unwritten_bytes_ = 0;
  bool overflow_reported_ = false;
  // The writer's last attempt found the store away (no connection, or a connection error).
  // Only then does a result past max_unwritten go back to the queue; while the store is there
  // but slower than the workers, a slot waits for room instead of extracting a file twice.
  bool store_away_ = false;
  size_t in_dispatch_ = 0;      // URLs the dispatcher holds (waiting for the store lookup)
  bool loaded_ = false;
  bool dispatching_ = false;
  bool writing_ = false;
  bool slots_done_ = false;  // the writer drains, then ends
  uint64_t extracted_ = 0;
  uint64_t failed_ = 0;
  uint64_t skipped_ = 0;
  uint64_t write_batches_ = 0;
  std::chrono::steady_clock::duration starved_{};  // StatusSnapshot::starved_ms
  std::chrono::steady_clock::duration blocked_{};  // StatusSnapshot::blocked_ms

  // The writer's alone: file resources whose failure this process wrote (and no later result
  // of the file cleared). A file queued again while in flight is looked up before its first
  // result is written, so its lookup cannot see that failure; its next result clears it.
  std::unordered_set<std::string> failures_written_;

  StoreLink lookup_link_;  // the dispatcher's
  StoreLink write_link_;   // the writer's
  std::atomic<bool> store_away_reported_{false};

  std::thread dispatcher_;
  std::thread writer_;
  std::vector<std::thread> slots_;
};

}  // namespace quarry::extract::service
