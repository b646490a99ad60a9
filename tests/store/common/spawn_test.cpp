// SpawnChild: the child gets the descriptors it is given, an empty signal mask, and exit status
// 127 when its program cannot run.
#include "store/common/spawn.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "tests/support/pipe.h"

namespace quarry {
namespace {

// Everything the read end gives until EOF.
std::string ReadAll(int fd) {
  std::string text;
  char buffer[256];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) return text;
    text.append(buffer, static_cast<size_t>(got));
  }
}

int Reap(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return status;
}

using testing::Pipe;

TEST_CASE("SpawnChild: stdin, stdout and stderr are the descriptors given") {
  Pipe in, out, err;
  auto pid = SpawnChild({"/bin/sh", "-c", "read line; echo \"out:$line\"; echo \"err:$line\" >&2"},
                        {.stdin_fd = in.read_end.get(),
                         .stdout_fd = out.write_end.get(),
                         .stderr_fd = err.write_end.get()});
  REQUIRE(pid.ok());
  in.read_end.reset();
  out.write_end.reset();
  err.write_end.reset();
  REQUIRE(::write(in.write_end.get(), "hello\n", 6) == 6);
  in.write_end.reset();
  CHECK(ReadAll(out.read_end.get()) == "out:hello\n");
  CHECK(ReadAll(err.read_end.get()) == "err:hello\n");
  const int status = Reap(*pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("SpawnChild: the child starts with no signal blocked") {
  // A service that reads SIGTERM through a signalfd blocks it; its children must not inherit that.
  sigset_t blocked, previous;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  REQUIRE(::sigprocmask(SIG_BLOCK, &blocked, &previous) == 0);
  Pipe out;
  auto pid = SpawnChild({"/bin/sh", "-c", "grep SigBlk /proc/self/status"},
                        {.stdout_fd = out.write_end.get()});
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  REQUIRE(pid.ok());
  out.write_end.reset();
  CHECK(ReadAll(out.read_end.get()) == "SigBlk:\t0000000000000000\n");
  CHECK(WEXITSTATUS(Reap(*pid)) == 0);
}

TEST_CASE("SpawnChild: PATH lookup only when asked, and exit status 127 when the program cannot run") {
  auto searched = SpawnChild({"sh", "-c", "exit 3"}, {.search_path = true});
  REQUIRE(searched.ok());
  CHECK(WEXITSTATUS(Reap(*searched)) == 3);
  auto not_searched = SpawnChild({"sh", "-c", "exit 3"});
  REQUIRE(not_searched.ok());
  CHECK(WEXITSTATUS(Reap(*not_searched)) == 127);
  CHECK_FALSE(SpawnChild({}).ok());
}

}  // namespace
}  // namespace quarry
