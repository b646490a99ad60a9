// ChildProcess: a program the tests start (dbus-daemon, quarry-store), always reaped.
//
// The destructor stops a still-running child (SIGTERM, then SIGKILL after 5 s) and waits for
// it, so a failing REQUIRE never leaks a process; PR_SET_PDEATHSIG kills the child should the
// test binary itself die.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace quarry::testing {

class ChildProcess {
 public:
  // Starts `argv`; with `capture_stdout`, the child's stdout is readable through stdout_fd().
  ChildProcess(const std::vector<std::string>& argv, bool capture_stdout) {
    int out[2] = {-1, -1};
    if (capture_stdout) REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) ExecChild(argv, out[1]);
    if (capture_stdout) {
      ::close(out[1]);
      stdout_fd_ = out[0];
    }
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
  [[noreturn]] static void ExecChild(const std::vector<std::string>& argv, int stdout_write) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (stdout_write >= 0) ::dup2(stdout_write, STDOUT_FILENO);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::optional<int> exit_status_;
};

}  // namespace quarry::testing
