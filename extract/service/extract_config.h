// What quarry-extract reads from quarry.toml (issue 6 "throttle from the config"): the
// [throttle] section miner-fs reads, through miner-fs's own loader (miner-fs/config.h), so the
// two services never disagree on a key, a range or a default. cpu_percent (or Tracker's
// `level`, read when cpu_percent is absent) is each worker's budget in percent of one core.
// A bad value keeps the default and is reported with its key ("throttle.cpu_percent: 250 is
// outside 1..100; using default 60"); a file that is not TOML is an error naming the file.
// Thread-safety: pure functions (LoadExtractConfig reads the file and the environment).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "miner-fs/config.h"
#include "quarry/result.h"

namespace quarry::extract::service {

struct ExtractConfig {
  int cpu_percent = miner::MinerConfig{}.cpu_percent;  // per worker, 1..100 (100: no limit)
  std::vector<std::string> warnings;  // "throttle.<key>: reason; using default ..."
};

// Reads `file` (missing: the defaults, no warnings). Only the [throttle] warnings are kept:
// the miner reports the others.
Result<ExtractConfig> LoadExtractConfig(const std::filesystem::path& file);

}  // namespace quarry::extract::service
