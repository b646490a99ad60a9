// ExtractClient: the ExtractSink of quarry-miner-fs, org.quarry.Extract1.Queue(as uris) on
// /org/quarry/Extract1 (extract/README.md). The call has a short timeout: the miner thread
// makes it between batches and must not hang on a busy extractor.
// sdbus-c++ stays in this unit, miner_adaptor.cpp and miner_bus_client.cpp (ARCHITECTURE.md §4).
// Thread-safety: one thread at a time (the miner thread).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "miner-fs/extraction_queue.h"

namespace quarry::miner {

inline constexpr const char* kExtractBusName = "org.quarry.Extract1";
inline constexpr const char* kExtractObjectPath = "/org/quarry/Extract1";
inline constexpr const char* kExtractInterface = "org.quarry.Extract1";

class ExtractClient final : public ExtractSink {
 public:
  // Its own connection to `bus_address` (empty: the session bus), opened by the first Queue()
  // (a failure to connect is that call's error; the next call tries again). The extractor need
  // not be running: Queue() then fails with Errc::kNotFound.
  static Result<std::unique_ptr<ExtractClient>> Connect(
      const std::string& bus_address,
      std::chrono::milliseconds timeout = std::chrono::milliseconds(2000));
  ~ExtractClient() override;

  Result<void> Queue(const std::vector<std::string>& uris) override;

  class Impl;

 private:
  explicit ExtractClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry::miner
