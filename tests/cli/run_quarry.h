// Runs the `quarry` binary built by this tree with arguments, capturing exit code, stdout and
// stderr (through files in a temp dir, so large outputs cannot block on a pipe).
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

extern char** environ;

namespace quarry::testing {

struct QuarryRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string ReadAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline QuarryRun RunQuarry(const std::vector<std::string>& args) {
  TempDir io;
  const std::string out_file = (io / "stdout").string();
  const std::string err_file = (io / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  std::vector<std::string> argv_text{QUARRY_CLI_BIN};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, QUARRY_CLI_BIN, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(spawned == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  QuarryRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = ReadAll(out_file);
  run.err = ReadAll(err_file);
  return run;
}

// Runs and requires success; returns stdout.
inline std::string QuarryOk(const std::vector<std::string>& args) {
  const QuarryRun run = RunQuarry(args);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.empty());
  return run.out;
}

}  // namespace quarry::testing
