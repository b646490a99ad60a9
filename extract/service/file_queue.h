// quarry-extract's queue of file URLs (DESIGN.md: extraction runs behind the crawl from its own
// queue): files the user just touched (Queue calls) are taken before the backlog (files found
// unextracted in the store at start). A URL is queued once; queuing a backlog URL again as
// urgent moves it ahead.
// Memory: each URL is held once, in entries_; the two queues hold pointers to its entry (the
// miner queues every file of a first crawl at once, 20,000 URLs or more, well ahead of the
// workers). An entry is freed when no queue points to it any more.
// Thread-safety: internally locked; Take blocks until there is work or Close().
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace quarry::extract::service {

class FileQueue {
 public:
  void PushUrgent(const std::vector<std::string>& urls);
  void PushBacklog(const std::vector<std::string>& urls);
  // Up to `limit` URLs, urgent ones first, waiting while the queue is empty; empty once closed.
  std::vector<std::string> Take(size_t limit);
  size_t size() const;
  void Close();
  // URLs held, taken ones still named by a stale queue slot included (tests: none leak).
  size_t held() const;

 private:
  enum class State : uint8_t { kBacklog, kUrgent, kTaken };
  struct Entry {
    State state = State::kTaken;
    uint32_t slots = 0;  // places in urgent_ and backlog_ that point here
  };
  using Entries = std::unordered_map<std::string, Entry>;
  using Slot = Entries::value_type*;  // nodes of an unordered_map never move
  void Push(const std::string& url, State state, std::deque<Slot>& to);
  bool TakeFrom(std::deque<Slot>& from, State state, std::vector<std::string>& out, size_t limit);
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Slot> urgent_;
  std::deque<Slot> backlog_;
  Entries entries_;
  size_t queued_ = 0;  // entries in state kBacklog or kUrgent
  bool closed_ = false;
};

}  // namespace quarry::extract::service
