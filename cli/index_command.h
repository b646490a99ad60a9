// `quarry index`: the folders quarry-miner-fs indexes (cli/index_command.cpp).
// Thread-safety: main thread only.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/cli_common.h"

namespace quarry::cli {

struct IndexArgs {
  std::string add;
  std::string remove;
  std::string file;
  std::string config;  // empty: $XDG_CONFIG_HOME/quarry/quarry.toml
  bool list = false;
  bool no_recursive = false;
};
CLI::App* AddIndexCommand(CLI::App& app, IndexArgs& args);
int RunIndex(const IndexArgs& args);

}  // namespace quarry::cli
