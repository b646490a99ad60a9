// The hand-off to extraction (DESIGN.md "Crawling and extraction are decoupled"): miner-fs
// records each file whose content is new or changed once its basic facts are acknowledged by
// the store, and the miner hands the recorded URIs to org.quarry.Extract1.Queue after each
// committed batch (ExtractSink). When no extractor runs the URIs are dropped: quarry-extract
// queues every file the store marks as not yet extracted when it starts, so nothing is lost,
// and the miner's memory stays bounded. PendingExtraction is also bounded (`max_size`, oldest
// dropped first) for the same reason: the store, not this queue, is the durable record.
// Thread-safety: PendingExtraction is internally locked (the miner thread adds, the D-Bus
// thread reads counts). ExtractSink is called from the miner thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "quarry/result.h"

namespace quarry::miner {

class ExtractionQueue {
 public:
  virtual ~ExtractionQueue() = default;
  virtual void Enqueue(std::vector<std::string> uris) = 0;
  // A file deleted or moved away before extraction: drop it (moved files keep their data).
  virtual void Forget(const std::string& uri) = 0;
};

// Where handed-off URIs go: org.quarry.Extract1.Queue(as) in quarry-miner-fs.
class ExtractSink {
 public:
  virtual ~ExtractSink() = default;
  // Errc::kNotFound when no extractor owns its bus name; other errors when it refused or failed.
  virtual Result<void> Queue(const std::vector<std::string>& uris) = 0;
};

class PendingExtraction final : public ExtractionQueue {
 public:
  static constexpr size_t kDefaultMaxSize = 100'000;
  explicit PendingExtraction(size_t max_size = kDefaultMaxSize) : max_size_(max_size) {}

  void Enqueue(std::vector<std::string> uris) override;
  void Forget(const std::string& uri) override;
  // Takes up to `limit` URIs, oldest first.
  std::vector<std::string> Take(size_t limit);
  size_t size() const;
  // URIs dropped because the queue was full.
  uint64_t dropped() const;

 private:
  mutable std::mutex mutex_;
  size_t max_size_;
  std::deque<std::string> uris_;
  uint64_t dropped_ = 0;
};

// What happened to the URIs handed off so far (for GetCounts and `quarry status`).
struct HandOffCounts {
  uint64_t handed_off = 0;  // accepted by Extract1.Queue
  uint64_t deferred = 0;    // no extractor on the bus: it finds these files when it starts
};

// Drains `pending` into `sink` in chunks of `chunk` URIs. A missing extractor defers the URIs
// (they are dropped here); another error is returned after deferring the chunk that failed, so
// one bad call never grows the queue.
Result<void> HandOff(PendingExtraction& pending, ExtractSink& sink, size_t chunk,
                     HandOffCounts& counts);

}  // namespace quarry::miner
