// StatusReport: what `quarry status` shows (issue 5 "Progress and control"): each miner's
// state with a progress bar, counts, ETA, the file being worked on, why it is paused, whether
// the watch limit was reached, its last errors; the extractor's queue; the store's state and
// the database size. FormatStatus() is pure so the layout is tested without a bus.
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "miner-fs/miner_status.h"

namespace quarry::miner {

struct MinerReport {
  std::string name;  // "Files"
  std::string state;
  double progress = 0;
  int remaining_seconds = -1;
  std::map<std::string, uint64_t> counts;  // GetCounts()
  std::string current;
  std::vector<PauseRecord> pauses;
  std::vector<std::string> errors;
};

// org.quarry.Extract1.GetStatus (extract/README.md).
struct ExtractReport {
  std::string state;  // starting, idle, extracting
  uint64_t queued = 0;
  std::vector<std::string> current;
  uint64_t extracted = 0;
  uint64_t failed = 0;
  uint64_t skipped = 0;
  uint64_t workers = 0;
};

struct StatusReport {
  std::optional<std::string> store_state;  // nullopt: quarry-store is not running
  std::optional<MinerReport> miner;        // nullopt: quarry-miner-fs is not running
  std::optional<ExtractReport> extractor;  // nullopt: quarry-extract is not running
  std::optional<uint64_t> database_bytes;  // nullopt: no database at the path
  std::string database_path;
};

// "[#########-----------]" of `width` cells for progress 0..1.
std::string ProgressBar(double progress, int width);
// "1:05", "1:02:03", "?" for a negative count.
std::string FormatDuration(int seconds);
// "12.3 MB" (powers of 1000, as `du --si`), "512 B".
std::string FormatBytes(uint64_t bytes);
// The multi-line block `quarry status` prints; `width` is the terminal's column count.
std::string FormatStatus(const StatusReport& report, int width = 80);
// True when nothing is left to do: every running service is idle (a paused miner is not).
bool IsIdle(const StatusReport& report);

}  // namespace quarry::miner
