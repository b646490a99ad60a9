// UpdateBatcher: the miner's writes, sent as explicit batches (LocalSearch's SparqlBuffer,
// ARCHITECTURE.md §6): a batch goes to the store when it holds `max_updates` updates or its
// first update is `max_age` old. A file counts as stored only after its batch is
// acknowledged; only then is it handed to extraction. A batch the store refuses as a whole is
// retried one update at a time, so one bad file costs itself only; a store that cannot be
// reached keeps the batch for the next Flush().
// Thread-safety: the miner thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "miner-fs/extraction_queue.h"
#include "miner-fs/index_store.h"

namespace quarry::miner {

class UpdateBatcher {
 public:
  using Clock = std::chrono::steady_clock;
  UpdateBatcher(IndexStore& store, ExtractionQueue& extraction, size_t max_updates,
                std::chrono::milliseconds max_age);

  // Queues `update`; `extract_uri` (when set) goes to extraction after the ack. Sends the batch
  // when it is full.
  Result<void> Add(std::string update, std::optional<std::string> extract_uri = std::nullopt);
  // Sends the batch when it is old enough (call from the event loop).
  Result<void> FlushIfDue(Clock::time_point now);
  Result<void> Flush();

  size_t pending() const { return updates_.size(); }
  uint64_t applied() const { return applied_; }
  uint64_t failed() const { return failed_; }
  uint64_t batches() const { return batches_; }
  // When the current batch becomes due; nullopt when empty.
  std::optional<Clock::time_point> due() const;

 private:
  Result<void> RetryOneByOne();

  IndexStore& store_;
  ExtractionQueue& extraction_;
  size_t max_updates_;
  std::chrono::milliseconds max_age_;
  std::vector<std::string> updates_;
  std::vector<std::string> extract_uris_;
  Clock::time_point first_added_{};
  uint64_t applied_ = 0;
  uint64_t failed_ = 0;
  uint64_t batches_ = 0;
};

}  // namespace quarry::miner
