// quarry daemon start|stop|status: quarry-store's life cycle from the command line. start runs
// the binary detached (its own session, stdin/stdout on /dev/null, stderr inherited for its
// log) and waits until it owns the bus name; stop sends SIGTERM to the name's owner and waits
// until the name and the process are gone (the store finishes queued work first).
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/cli_common.h"
#include "cli/store_commands.h"
#include "quarry/store_process.h"
#include "store/ipc/store_service.h"

namespace quarry::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollInterval = std::chrono::milliseconds(50);

// $QUARRY_STORE_BIN, else quarry-store beside this binary (installed), else the build tree's
// store/daemon/quarry-store, else whatever PATH finds.
std::string StoreBinary() {
  if (const char* overridden = std::getenv("QUARRY_STORE_BIN"); overridden && *overridden) {
    return overridden;
  }
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    for (const auto& candidate : {self.parent_path() / "quarry-store",
                                  self.parent_path() / ".." / "store" / "daemon" / "quarry-store"}) {
      if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
    }
  }
  return "quarry-store";
}

// The detached store logs to DIR/quarry-store.log: the terminal that started it may be gone.
Result<pid_t> Spawn(const std::vector<std::string>& argv_text, const std::string& log_path) {
  std::vector<char*> argv;
  for (const std::string& arg : argv_text) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return Error(Errc::kIo, fmt::format("cannot fork: {}", std::strerror(errno)));
  if (pid == 0) {
    ::setsid();  // no controlling terminal: a closed shell does not take the store down
    const int null_fd = ::open("/dev/null", O_RDWR);
    if (null_fd >= 0) {
      ::dup2(null_fd, STDIN_FILENO);
      ::dup2(null_fd, STDOUT_FILENO);
      if (null_fd > STDERR_FILENO) ::close(null_fd);
    }
    const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log_fd >= 0) ::dup2(log_fd, STDERR_FILENO);  // dup2 clears O_CLOEXEC on the copy
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "quarry: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  return pid;
}

// Waits until quarry-store owns the name, or the child exits, or the time is up.
Result<pid_t> WaitForName(pid_t child, double timeout_seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const std::optional<pid_t> owner, StoreProcessId());
    if (owner) return *owner;
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) {
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return Error(Errc::kIo, fmt::format("quarry-store exited with status {} before taking "
                                          "its bus name (see its log, quarry-store.log in the database folder)", code));
    }
    if (Clock::now() >= deadline) {
      return Error(Errc::kBusy, fmt::format("quarry-store (pid {}) did not take its bus name "
                                            "within {} s", child, timeout_seconds));
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

int Start(const DaemonArgs& args) {
  const auto running = StoreProcessId();
  if (!running) return ReportError("daemon start", running.error());
  if (*running) {
    std::cout << fmt::format("quarry-store is already running (pid {})\n", **running);
    return 0;
  }
  std::vector<std::string> argv{StoreBinary(), "--database",
                                args.database.empty() ? ipc::DefaultDatabaseDir() : args.database};
  if (!args.ontology.empty()) argv.insert(argv.end(), {"--ontology", args.ontology});
  std::error_code ignored;
  std::filesystem::create_directories(argv[2], ignored);
  const auto child = Spawn(argv, (std::filesystem::path(argv[2]) / "quarry-store.log").string());
  if (!child) return ReportError("daemon start", child.error());
  const auto owner = WaitForName(*child, args.timeout_seconds);
  if (!owner) return ReportError("daemon start", owner.error());
  std::cout << fmt::format("quarry-store started (pid {})\n", *owner);
  return 0;
}

int Stop(const DaemonArgs& args) {
  const auto running = StoreProcessId();
  if (!running) return ReportError("daemon stop", running.error());
  if (!*running) {
    std::cout << "quarry-store is not running\n";
    return 0;
  }
  const pid_t pid = **running;
  if (::kill(pid, SIGTERM) != 0) {
    return ReportError("daemon stop", Error(Errc::kIo, fmt::format("cannot signal pid {}: {}", pid,
                                                                   std::strerror(errno))));
  }
  const auto deadline = Clock::now() + std::chrono::duration<double>(args.timeout_seconds);
  for (;;) {
    // Our own child (started by this process) would linger as a zombie: reap it if so.
    ::waitpid(pid, nullptr, WNOHANG);
    const auto owner = StoreProcessId();
    if (!owner) return ReportError("daemon stop", owner.error());
    if (!*owner && ::kill(pid, 0) != 0 && errno == ESRCH) break;
    if (Clock::now() >= deadline) {
      return ReportError("daemon stop", Error(Errc::kBusy, fmt::format(
                                                 "quarry-store (pid {}) still runs after {} s",
                                                 pid, args.timeout_seconds)));
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  std::cout << fmt::format("quarry-store stopped (pid {})\n", pid);
  return 0;
}

int Status() {
  const auto running = StoreProcessId();
  if (!running) return ReportError("daemon status", running.error());
  if (!*running) {
    std::cout << "quarry-store is not running\n";
    return kExitNotRunning;
  }
  std::cout << fmt::format("quarry-store is running (pid {})\n", **running);
  return 0;
}

}  // namespace

CLI::App* AddDaemonCommand(CLI::App& app, DaemonArgs& args) {
  CLI::App* command = app.add_subcommand("daemon", "Start, stop or check quarry-store");
  command->require_subcommand(1);
  args.start = command->add_subcommand("start", "Start quarry-store on the session bus, detached");
  args.start->add_option("--database", args.database,
                         "Database directory (default: $XDG_CACHE_HOME/quarry)")
      ->type_name("DIR");
  args.start->add_option("--ontology", args.ontology, "Ontology directory")->type_name("DIR");
  args.stop = command->add_subcommand("stop", "Stop quarry-store (it finishes queued work)");
  for (CLI::App* sub : {args.start, args.stop}) {
    sub->add_option("--timeout", args.timeout_seconds, "Seconds to wait")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
  }
  args.status = command->add_subcommand("status", "Say whether quarry-store runs (exit 3: not)");
  return command;
}

int RunDaemon(const DaemonArgs& args) {
  if (args.start->parsed()) return Start(args);
  if (args.stop->parsed()) return Stop(args);
  return Status();
}

}  // namespace quarry::cli
