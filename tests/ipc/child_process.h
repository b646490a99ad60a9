// ChildProcess: a program the tests start (dbus-daemon, quarry-store), always reaped.
//
// The destructor stops a still-running child (SIGTERM, then SIGKILL after 5 s) and waits for
// it, so a failing REQUIRE never leaks a process; SpawnChild's PR_SET_PDEATHSIG kills the child
// should the test binary itself die.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/common/spawn.h"
#include "store/common/unique_fd.h"

namespace quarry::testing {

class ChildProcess {
 public:
  // Starts `argv` (looked up in PATH); with `capture_stdout`, the child's stdout is readable
  // through stdout_fd(); with `stderr_file`, its stderr is appended to that file.
  ChildProcess(const std::vector<std::string>& argv, bool capture_stdout,
               const std::filesystem::path& stderr_file = {}) {
    int out[2] = {-1, -1};
    if (capture_stdout) REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
    const UniqueFd err(stderr_file.empty()
                           ? -1
                           : ::open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
    if (!stderr_file.empty()) REQUIRE_MESSAGE(err.valid(), stderr_file.string());
    auto pid = SpawnChild(argv, {.stdout_fd = out[1], .stderr_fd = err.get(), .search_path = true});
    if (capture_stdout) ::close(out[1]);
    REQUIRE_MESSAGE(pid.ok(), (pid ? std::string() : pid.error().ToString()));
    pid_ = *pid;
    stdout_fd_ = out[0];
  }
  ~ChildProcess() {
    if (stdout_fd_ >= 0) ::close(stdout_fd_);
    if (!exit_status_) Stop(SIGTERM, std::chrono::seconds(5));
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  int stdout_fd() const { return stdout_fd_; }

  // Sends `signal_number` and waits up to `patience`, then SIGKILLs. Returns the wait status.
  int Stop(int signal_number, std::chrono::milliseconds patience) {
    if (exit_status_) return *exit_status_;
    ::kill(pid_, signal_number);
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (TryReap()) return *exit_status_;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    exit_status_ = status;
    return status;
  }
  // True (and the status recorded) when the child has exited.
  bool TryReap() {
    if (exit_status_) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
    exit_status_ = status;
    return true;
  }

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::optional<int> exit_status_;
};

}  // namespace quarry::testing
