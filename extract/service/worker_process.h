// The service's side of one worker process: spawn (fork + exec of this binary in --worker
// mode), hand it one file at a time with a time limit, and tell what happened when it crashed,
// hung (then it is SIGKILLed) or ran out of memory. A dead worker is replaced by the caller
// spawning a new one; the file it died on is reported as that file's failure.
// Thread-safety: one thread per WorkerProcess (each worker slot owns one).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extract/service/worker_protocol.h"
#include "store/common/result.h"

namespace quarry::extract::service {

struct Outcome {
  enum class Kind {
    kExtracted,  // text = the file's SPARQL update
    kNothing,    // no module for the type: text = why
    kFailed,     // text = the reason (the module's error, a crash, a timeout)
  };
  Kind kind = Kind::kFailed;
  std::string module;  // the module that ran, when the worker got that far
  std::string text;
};

class WorkerProcess {
 public:
  // `argv` runs the worker (argv[0] = this binary, then --worker and its limits).
  static Result<std::unique_ptr<WorkerProcess>> Spawn(const std::vector<std::string>& argv);
  ~WorkerProcess();  // closes the pipe, then SIGKILLs a worker that does not exit at once
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Waits for the worker's ready frame (it has entered its sandbox and loaded the modules);
  // a worker that dies or stays silent until `limit` is killed and named in the error.
  Result<void> WaitReady(std::chrono::milliseconds limit);
  // One file: its path, its URL as the store spells it and the file resource to write onto
  // ("" for both: named by FileUrl as `quarry extract` does). On a crash or timeout the worker
  // is dead afterwards (alive() false).
  Outcome Run(const std::string& path, const std::string& url, const std::string& file_iri,
              std::optional<int64_t> mtime_us,
              std::chrono::milliseconds time_limit);
  bool alive() const { return alive_; }
  // CPU time the worker process has used so far (user + system); nullopt once it is gone.
  std::optional<std::chrono::microseconds> CpuTime() const;
  pid_t pid() const { return pid_; }

 private:
  WorkerProcess(pid_t pid, int to_worker, int from_worker);
  std::string Reap(bool killed_for_time);
  pid_t pid_;
  int to_worker_;
  int from_worker_;
  FrameReader reader_;
  bool alive_ = true;
};

}  // namespace quarry::extract::service
