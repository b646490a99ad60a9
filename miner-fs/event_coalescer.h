// EventCoalescer: turns the monitor's raw events into the few actions worth a write (issue 5
// "Monitor", ARCHITECTURE.md §1: pure, no clock of its own — the caller passes `now`).
//
// - A file being written waits for IN_CLOSE_WRITE, or for a quiet period without events when
//   the writer never closes it (a log file): a 20 GB copy is one change, not one per write.
// - IN_MOVED_FROM and IN_MOVED_TO with the same cookie become one move; a MOVED_FROM left
//   unpaired when the next batch of events is processed, or after kMovePairWindow when no
//   more events come, is a delete (moved out of the indexed trees); an unpaired MOVED_TO a
//   create.
// - Several events on one path collapse into the latest meaningful one; a create followed by a
//   delete before it was due is a delete of something the store may never have held (harmless).
// Thread-safety: the miner thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace quarry::miner {

enum class FsEventKind { kCreated, kModified, kClosedWrite, kDeleted, kMovedFrom, kMovedTo };

struct FsEvent {
  FsEventKind kind;
  std::string path;  // absolute
  bool is_folder = false;
  uint32_t cookie = 0;  // moves only
};

enum class ActionKind { kIndex, kDelete, kMove };

struct FsAction {
  ActionKind kind;
  std::string path;      // kIndex, kDelete: the path; kMove: the new path
  std::string old_path;  // kMove only
  bool is_folder = false;
  bool operator==(const FsAction&) const = default;
};

class EventCoalescer {
 public:
  static constexpr std::chrono::milliseconds kMovePairWindow{250};
  using Clock = std::chrono::steady_clock;
  explicit EventCoalescer(std::chrono::milliseconds quiet_period) : quiet_period_(quiet_period) {}

  // Events in the order inotify delivered them (one read() at a time).
  void Add(const FsEvent& event, Clock::time_point now);
  // Pairs left open since the previous call are resolved now: inotify delivers a move's two
  // halves in one read, so a half still alone one read later has no partner.
  void EndOfRead();
  // Actions due at `now`, in the order their paths were first seen.
  std::vector<FsAction> TakeReady(Clock::time_point now);
  // The earliest time an action becomes due; nullopt when nothing waits.
  std::optional<Clock::time_point> NextDue() const;
  bool empty() const { return pending_.empty() && moved_from_.empty(); }

 private:
  struct Pending {
    FsAction action;
    Clock::time_point due;
    uint64_t order = 0;
  };
  void Put(FsAction action, Clock::time_point due);
  void ResolveUnpaired(uint32_t cookie);

  std::chrono::milliseconds quiet_period_;
  std::map<std::string, Pending> pending_;  // by path
  struct MovedFrom {
    FsEvent event;
    Clock::time_point at;
  };
  std::map<uint32_t, MovedFrom> moved_from_;  // by cookie, waiting for its MOVED_TO
  std::vector<uint32_t> moved_from_previous_read_;
  uint64_t next_order_ = 0;
};

}  // namespace quarry::miner
