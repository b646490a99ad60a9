// What quarry-extract reads from quarry.toml, through miner-fs's own loader (miner-fs/config.h),
// so the two services never disagree on a key, a range or a default:
// - [throttle] (issue 6 "throttle from the config"), the section miner-fs reads: cpu_percent
//   (or Tracker's `level`, read when cpu_percent is absent) is each worker's budget in percent
//   of one core;
// - [extract] text_allowlist (issue 5): globs on the file name whose plain text the text module
//   stores (Limits::text_allowlist), Tracker 3.4's text-allowlist policy.
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
  std::vector<std::string> text_allowlist = miner::MinerConfig{}.text_allowlist;
  std::vector<std::string> warnings;  // "throttle.<key>: reason; using default ..."
};

// Reads `file` (missing: the defaults, no warnings). Only the [throttle] and [extract]
// warnings are kept: the miner reports the others.
Result<ExtractConfig> LoadExtractConfig(const std::filesystem::path& file);

}  // namespace quarry::extract::service
