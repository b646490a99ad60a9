// The hand-off to extraction (DESIGN.md "Crawling and extraction are decoupled"): miner-fs
// records each file whose content is new or changed once its basic facts are acknowledged by
// the store. The extractor service (org.quarry.Extract1.Queue) is a later issue; until then
// PendingExtraction keeps the URIs in order, which GetStatus counts as "waiting for
// extraction", and a future ExtractClient will drain it over D-Bus.
// Thread-safety: PendingExtraction is internally locked (the miner thread adds, the D-Bus
// thread reads counts).
#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace quarry::miner {

class ExtractionQueue {
 public:
  virtual ~ExtractionQueue() = default;
  virtual void Enqueue(std::vector<std::string> uris) = 0;
  // A file deleted or moved away before extraction: drop it (moved files keep their data).
  virtual void Forget(const std::string& uri) = 0;
};

class PendingExtraction final : public ExtractionQueue {
 public:
  void Enqueue(std::vector<std::string> uris) override;
  void Forget(const std::string& uri) override;
  // Takes up to `limit` URIs, oldest first.
  std::vector<std::string> Take(size_t limit);
  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::string> uris_;
};

}  // namespace quarry::miner
