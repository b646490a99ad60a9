// quarry-extract's queue of file URLs (DESIGN.md: extraction runs behind the crawl from its own
// queue): files the user just touched (Queue calls) are taken before the backlog (files found
// unextracted in the store at start). A URL is queued once; queuing a backlog URL again as
// urgent moves it ahead.
// Thread-safety: internally locked; Take blocks until there is work or Close().
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
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

 private:
  bool TakeFrom(std::deque<std::string>& from, bool urgent, std::vector<std::string>& out,
                size_t limit);
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::string> urgent_;
  std::deque<std::string> backlog_;
  std::unordered_map<std::string, bool> queued_;  // URL -> queued as urgent
  bool closed_ = false;
};

}  // namespace quarry::extract::service
