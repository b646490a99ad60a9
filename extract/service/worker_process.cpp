#include "extract/service/worker_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "store/common/spawn.h"

namespace quarry::extract::service {
namespace {

std::string DescribeStatus(int status) {
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    const char* name = sigabbrev_np(signal_number);
    std::string reason = fmt::format("worker crashed (signal SIG{})", name ? name : "?");
    // The kernel's OOM killer, or the limit hit inside a library that aborts on bad_alloc.
    if (signal_number == SIGKILL) reason = "worker killed (SIGKILL: out of memory or killed)";
    return reason;
  }
  if (WIFEXITED(status)) return fmt::format("worker exited with status {}", WEXITSTATUS(status));
  return "worker vanished";
}

}  // namespace

Result<std::unique_ptr<WorkerProcess>> WorkerProcess::Spawn(const std::vector<std::string>& argv) {
  int requests[2] = {-1, -1};
  int answers[2] = {-1, -1};
  if (::pipe2(requests, O_CLOEXEC) != 0 || ::pipe2(answers, O_CLOEXEC) != 0) {
    const int pipe_errno = errno;
    for (const int fd : {requests[0], requests[1], answers[0], answers[1]}) {
      if (fd >= 0) ::close(fd);
    }
    return Error(Errc::kIo, fmt::format("cannot create the worker pipes: {}", strerror(pipe_errno)));
  }
  // A worker never outlives the service (SpawnChild's PR_SET_PDEATHSIG).
  Result<pid_t> pid = SpawnChild(argv, {.stdin_fd = requests[0], .stdout_fd = answers[1]});
  ::close(requests[0]);
  ::close(answers[1]);
  if (!pid) {
    ::close(requests[1]);
    ::close(answers[0]);
    return std::move(pid).error().WithContext("worker");
  }
  return std::unique_ptr<WorkerProcess>(new WorkerProcess(*pid, requests[1], answers[0]));
}

WorkerProcess::WorkerProcess(pid_t pid, int to_worker, int from_worker)
    : pid_(pid), to_worker_(to_worker), from_worker_(from_worker), reader_(from_worker) {}

WorkerProcess::~WorkerProcess() {
  ::close(to_worker_);
  ::close(from_worker_);
  if (!alive_) return;
  // An idle worker exits when its stdin closes; give it a moment, then make sure.
  for (int i = 0; i < 20; ++i) {
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

std::string WorkerProcess::Reap(bool killed_for_time) {
  int status = 0;
  if (!killed_for_time) {
    // The pipe closed: the worker is dying. One that closed its stdout and lingers is killed.
    for (int i = 0; i < 200; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        alive_ = false;
        return DescribeStatus(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  alive_ = false;
  return DescribeStatus(status);
}

Result<void> WorkerProcess::WaitReady(std::chrono::milliseconds limit) {
  std::string frame;
  const auto status = reader_.Read(frame, std::chrono::steady_clock::now() + limit);
  if (status == FrameReader::Status::kFrame && frame == std::string(1, kTagReady)) return {};
  const std::string reason = status == FrameReader::Status::kTimeout
                                 ? fmt::format("silent for {} ms", limit.count())
                                 : Reap(/*killed_for_time=*/status != FrameReader::Status::kEof);
  if (alive_) Reap(/*killed_for_time=*/true);
  return Error(Errc::kIo, fmt::format("worker {} did not start: {}", pid_, reason));
}

Outcome WorkerProcess::Run(const std::string& path, const std::string& url,
                           const std::string& file_iri, std::optional<int64_t> mtime_us,
                           std::chrono::milliseconds time_limit) {
  Outcome outcome;
  const std::string mtime = mtime_us ? std::to_string(*mtime_us) : std::string();
  if (!WriteFrames(to_worker_, {path, url, file_iri, mtime})) {
    outcome.text = Reap(/*killed_for_time=*/true);
    return outcome;
  }
  const auto deadline = std::chrono::steady_clock::now() + time_limit;
  std::string frame;
  for (;;) {
    const FrameReader::Status status = reader_.Read(frame, deadline);
    if (status == FrameReader::Status::kTimeout) {
      Reap(/*killed_for_time=*/true);
      outcome.text = fmt::format("timed out after {} ms", time_limit.count());
      return outcome;
    }
    if (status == FrameReader::Status::kEof) {
      outcome.text = Reap(/*killed_for_time=*/false);
      return outcome;
    }
    if (frame.empty()) {  // a worker that breaks the protocol is not trusted further
      Reap(/*killed_for_time=*/true);
      outcome.text = "worker sent a malformed answer";
      return outcome;
    }
    const char tag = frame.front();
    frame.erase(0, 1);
    if (tag == kTagModule) {
      outcome.module = std::move(frame);
      continue;
    }
    outcome.kind = tag == kTagResult    ? Outcome::Kind::kExtracted
                   : tag == kTagNothing ? Outcome::Kind::kNothing
                                        : Outcome::Kind::kFailed;
    outcome.text = std::move(frame);
    return outcome;
  }
}

std::optional<std::chrono::microseconds> WorkerProcess::CpuTime() const {
  if (!alive_) return std::nullopt;
  clockid_t clock{};
  timespec used{};
  if (::clock_getcpuclockid(pid_, &clock) != 0 || ::clock_gettime(clock, &used) != 0) {
    return std::nullopt;
  }
  return std::chrono::seconds(used.tv_sec) +
         std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::nanoseconds(used.tv_nsec));
}

}  // namespace quarry::extract::service
