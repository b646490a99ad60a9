// Pipe: both ends of a pipe(2) (O_CLOEXEC), each owned by a UniqueFd, for tests that feed or
// read a child process or a reader.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include "store/common/unique_fd.h"

namespace quarry::testing {

struct Pipe {
  Pipe() {
    int ends[2];
    REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    read_end = UniqueFd(ends[0]);
    write_end = UniqueFd(ends[1]);
  }
  UniqueFd read_end;
  UniqueFd write_end;
};

}  // namespace quarry::testing
