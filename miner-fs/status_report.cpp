#include "miner-fs/status_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace quarry::miner {
namespace {

uint64_t Count(const MinerReport& miner, const char* key) {
  const auto found = miner.counts.find(key);
  return found == miner.counts.end() ? 0 : found->second;
}

// Keeps the end of a long path (the file name is the useful part).
std::string Shorten(const std::string& text, size_t width) {
  if (text.size() <= width || width < 4) return text;
  return "…" + text.substr(text.size() - (width - 1));
}

// `waiting`: files not extracted yet, in the miner's queue or the extractor's (or left for the
// extractor to find when it starts).
void AppendMiner(const MinerReport& miner, uint64_t waiting, int width, std::string& out) {
  const bool is_busy = miner.state != "Idle" && miner.state != "Paused";
  out += fmt::format("Miner {:<7} {}", miner.name, miner.state);
  if (is_busy) {
    out += fmt::format("  {} {:3}%", ProgressBar(miner.progress, 24), std::lround(miner.progress * 100));
    if (miner.remaining_seconds >= 0) out += fmt::format("  ETA {}", FormatDuration(miner.remaining_seconds));
  }
  out += '\n';
  out += fmt::format("  files: {} found, {} indexed, {} waiting for extraction, {} failed\n",
                     Count(miner, "found"), Count(miner, "indexed"),
                     waiting, Count(miner, "failed"));
  out += fmt::format("  folders: {} listed, {} watched\n", Count(miner, "folders"), Count(miner, "watched"));
  if (Count(miner, "watch_limit_reached") != 0) {
    out += fmt::format("  inotify watch limit reached: {} folders are crawled periodically instead of watched\n",
                       Count(miner, "unwatched"));
  }
  if (is_busy && !miner.current.empty()) {
    out += fmt::format("  now: {}\n", Shorten(miner.current, static_cast<size_t>(std::max(width - 7, 10))));
  }
  for (const PauseRecord& pause : miner.pauses) {
    out += fmt::format("  paused by {}: {}\n", pause.application, pause.reason);
  }
  for (const std::string& error : miner.errors) out += fmt::format("  error: {}\n", error);
}

void AppendExtractor(const ExtractReport& extractor, int width, std::string& out) {
  out += fmt::format("Extractor     {}  {} queued, {} extracted, {} failed, {} unchanged ({} workers)\n",
                     extractor.state, extractor.queued, extractor.extracted, extractor.failed,
                     extractor.skipped, extractor.workers);
  for (const std::string& uri : extractor.current) {
    out += fmt::format("  now: {}\n", Shorten(uri, static_cast<size_t>(std::max(width - 7, 10))));
  }
}

}  // namespace

std::string ProgressBar(double progress, int width) {
  const double clamped = std::clamp(progress, 0.0, 1.0);
  const int filled = static_cast<int>(std::lround(clamped * width));
  return "[" + std::string(static_cast<size_t>(filled), '#') +
         std::string(static_cast<size_t>(width - filled), '-') + "]";
}

std::string FormatDuration(int seconds) {
  if (seconds < 0) return "?";
  if (seconds >= 3600) return fmt::format("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  return fmt::format("{}:{:02}", seconds / 60, seconds % 60);
}

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB"};
  if (bytes < 1000) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1000;
  size_t unit = 0;
  while (value >= 1000 && unit + 1 < std::size(kUnits)) {
    value /= 1000;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::string FormatStatus(const StatusReport& report, int width) {
  std::string out = fmt::format("Store         {}\n", report.store_state.value_or("not running"));
  if (report.miner) {
    const uint64_t elsewhere = report.extractor ? report.extractor->queued : Count(*report.miner, "deferred");
    AppendMiner(*report.miner, Count(*report.miner, "waiting") + elsewhere, width, out);
  } else {
    out += "Miner Files   not running\n";
  }
  if (report.extractor) {
    AppendExtractor(*report.extractor, width, out);
  } else {
    out += "Extractor     not running\n";
  }
  if (report.database_bytes) {
    out += fmt::format("Database      {}  {}\n", FormatBytes(*report.database_bytes), report.database_path);
  } else {
    out += fmt::format("Database      none at {}\n", report.database_path);
  }
  return out;
}

bool IsIdle(const StatusReport& report) {
  const bool is_store_idle = !report.store_state || *report.store_state == "Idle";
  const bool is_miner_idle = !report.miner || report.miner->state == "Idle";
  const bool is_extractor_idle = !report.extractor || report.extractor->state == "idle";
  return is_store_idle && is_miner_idle && is_extractor_idle;
}

}  // namespace quarry::miner
