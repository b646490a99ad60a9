// StatusClient: the bus calls behind `quarry status` — org.quarry.Store1.Status of quarry-store,
// the org.quarry.Miner and org.quarry.Miner.Files.Index methods of quarry-miner-fs and
// org.quarry.Extract1.GetStatus. One bus connection serves every refresh of `--follow`: its
// proxies address the services by their well-known names, so a service that goes away is
// kNotFound until it is back, and then answers on the same connection.
// sdbus-c++ stays in this unit (ARCHITECTURE.md §4).
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>

#include "miner-fs/status_report.h"
#include "quarry/connection.h"
#include "quarry/result.h"

namespace quarry::miner {

class StatusClient {
 public:
  // `bus_address` empty: the session bus.
  static Result<std::unique_ptr<StatusClient>> Connect(const std::string& bus_address = {});
  ~StatusClient();

  // Errc::kNotFound when the service is not on the bus.
  Result<StoreStatus> Store();
  Result<MinerReport> Miner();
  Result<ExtractReport> Extractor();

  class Impl;

 private:
  explicit StatusClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry::miner
