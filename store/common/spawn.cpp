#include "store/common/spawn.h"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>

namespace quarry {
namespace {

[[noreturn]] void ExecChild(char* const* args, const SpawnOptions& options, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died before the line above: then no signal is coming.
  if (::getppid() != parent) ::_exit(127);
  const int targets[] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO};
  const int sources[] = {options.stdin_fd, options.stdout_fd, options.stderr_fd};
  for (int i = 0; i < 3; ++i) {
    if (sources[i] >= 0 && ::dup2(sources[i], targets[i]) < 0) ::_exit(127);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (options.search_path) {
    ::execvp(args[0], args);
  } else {
    ::execv(args[0], args);
  }
  ::_exit(127);
}

}  // namespace

Result<pid_t> SpawnChild(const std::vector<std::string>& argv, const SpawnOptions& options) {
  if (argv.empty()) return Error(Errc::kInvalidArgument, "no program to start");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    return Error(Errc::kIo, fmt::format("cannot start {}: {}", argv[0], strerror(errno)));
  }
  if (pid == 0) ExecChild(args.data(), options, parent);
  return pid;
}

}  // namespace quarry
