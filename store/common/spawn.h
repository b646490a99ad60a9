// SpawnChild: fork + exec with the set-up every child process of Quarry's needs: it dies with
// its parent (PR_SET_PDEATHSIG), starts with no signal blocked (a parent that reads signals
// through a signalfd blocks them, and the mask survives exec), and gets the descriptors it is
// given as its stdin/stdout/stderr. The extractor's workers and the test fixtures' services use
// it. Reaping the child is the caller's business.
// Thread-safety: any thread. Between fork and exec the child calls only async-signal-safe
// functions (the argument array is built before the fork), so a multi-threaded parent is fine.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "store/common/result.h"

namespace quarry {

struct SpawnOptions {
  // Each >= 0 becomes the child's fd 0, 1 or 2; -1 leaves the parent's.
  int stdin_fd = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  // Look argv[0] up in PATH (execvp) rather than take it as a path (execv).
  bool search_path = false;
};

// Starts argv[0] with `argv`. kIo when fork fails; an exec that fails shows as the child's
// exit status 127.
Result<pid_t> SpawnChild(const std::vector<std::string>& argv, const SpawnOptions& options = {});

}  // namespace quarry
