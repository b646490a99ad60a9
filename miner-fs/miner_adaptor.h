// The D-Bus face of quarry-miner-fs (DESIGN.md "D-Bus"): org.quarry.Miner on
// /org/quarry/Miner/Files under the name org.quarry.Miner.Files — GetStatus, GetProgress,
// GetRemainingTime, Pause(application, reason) -> cookie, Resume(cookie), GetPauseDetails,
// signal Progress(status, progress, remaining_seconds) — and org.quarry.Miner.Files.Index for
// the `quarry` command: IndexFile(path), Reload(), GetCounts() -> a{st}, GetErrors() -> as,
// GetCurrent() -> s (the folder or file being worked on).
// sdbus-c++ stays in this unit (ARCHITECTURE.md §4).
// Thread-safety: construct and destroy on the main thread; handlers run on the bus thread.
#pragma once

#include <memory>
#include <string>

#include "miner-fs/miner.h"
#include "miner-fs/miner_status.h"
#include "quarry/result.h"

namespace quarry::miner {

inline constexpr const char* kMinerBusName = "org.quarry.Miner.Files";
inline constexpr const char* kMinerObjectPath = "/org/quarry/Miner/Files";
inline constexpr const char* kMinerInterface = "org.quarry.Miner";
inline constexpr const char* kMinerIndexInterface = "org.quarry.Miner.Files.Index";

class MinerService {
 public:
  // Connects to `bus_address` (empty: the session bus), exports the object and takes the name.
  static Result<std::unique_ptr<MinerService>> Start(const std::string& bus_address,
                                                     MinerStatus& status, Miner& miner);
  ~MinerService();
  // The bus went away (dbus-daemon gone): the service has sent SIGTERM to the process.
  bool lost() const;
  class Impl;

 private:
  explicit MinerService(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry::miner
