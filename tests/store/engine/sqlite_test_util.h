// Helpers for the SQLite layer tests: a temporary directory and a forked child process that
// tells its parent when it is ready (e.g. holds a lock) so the parent can act at that moment.
//
// SQLite must not carry an open connection across fork(): tests close every connection to a
// file before forking a child that opens it.
#pragma once

#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"

namespace quarry::engine::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "quarry-sqlite-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const char* name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// A forked child running `body(signal_ready)`; body's return value is the exit code.
class Child {
 public:
  using Body = std::function<int(const std::function<void()>& signal_ready)>;

  explicit Child(const Body& body) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::close(fds[0]);
      const int write_end = fds[1];
      const int code = body([write_end] { (void)!::write(write_end, "r", 1); });
      ::_exit(code);  // no doctest reporting, no atexit handlers in the child
    }
    ::close(fds[1]);
    ready_fd_ = fds[0];
  }
  ~Child() {
    if (pid_ > 0) {
      Kill();
      Wait();
    }
    if (ready_fd_ >= 0) ::close(ready_fd_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // True once the child called signal_ready (false on timeout or if it died first).
  bool WaitReady(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    pollfd poll_fd{ready_fd_, POLLIN, 0};
    if (::poll(&poll_fd, 1, static_cast<int>(timeout.count())) != 1) return false;
    char byte = 0;
    return ::read(ready_fd_, &byte, 1) == 1;
  }
  void Kill() { ::kill(pid_, SIGKILL); }
  // The exit code, or -signal when killed.
  int Wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0) {
    }
    pid_ = -1;
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return WEXITSTATUS(status);
  }

 private:
  pid_t pid_ = -1;
  int ready_fd_ = -1;
};

template <typename T>
T Unwrap(Result<T> result) {
  if (!result) FAIL(result.error().ToString());
  return std::move(result).value();
}

inline void Check(const Result<void>& result) {
  if (!result) FAIL_CHECK(result.error().ToString());
}

// The single integer a query returns (e.g. SELECT count(*)).
inline int64_t QueryInt(Database& db, std::string_view sql) {
  Statement statement = Unwrap(db.Prepare(sql));
  const bool has_row = Unwrap(statement.Step());
  REQUIRE(has_row);
  return statement.ColumnInt64(0);
}

inline std::string QueryText(Database& db, std::string_view sql) {
  Statement statement = Unwrap(db.Prepare(sql));
  const bool has_row = Unwrap(statement.Step());
  REQUIRE(has_row);
  return std::string(statement.ColumnText(0));
}

inline std::chrono::milliseconds Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start);
}

}  // namespace quarry::engine::testing
