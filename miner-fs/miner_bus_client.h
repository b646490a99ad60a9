// Calls `quarry index` makes to a running quarry-miner-fs (org.quarry.Miner.Files.Index).
// Errc::kNotFound when no miner owns org.quarry.Miner.Files on the bus.
// Thread-safety: free functions; each opens its own bus connection.
#pragma once

#include <string>

#include "quarry/result.h"

namespace quarry::miner {

// `bus_address` empty: the session bus.
Result<void> MinerReload(const std::string& bus_address = {});
Result<void> MinerIndexFile(const std::string& absolute_path, const std::string& bus_address = {});

}  // namespace quarry::miner
