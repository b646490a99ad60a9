#include "store/engine/query_cache.h"

namespace quarry::engine {

std::shared_ptr<const sparql::SqlQuery> QueryCache::Find(std::string_view text) {
  const auto found = index_.find(text);
  if (found == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  entries_.splice(entries_.begin(), entries_, found->second);  // now most recently used
  return found->second->compiled;
}

std::shared_ptr<const sparql::SqlQuery> QueryCache::Insert(std::string_view text,
                                                           sparql::SqlQuery compiled) {
  auto shared = std::make_shared<const sparql::SqlQuery>(std::move(compiled));
  if (const auto found = index_.find(text); found != index_.end()) {
    found->second->compiled = shared;
    entries_.splice(entries_.begin(), entries_, found->second);
    return shared;
  }
  entries_.push_front(Entry{std::string(text), shared});
  index_.emplace(entries_.front().text, entries_.begin());
  while (entries_.size() > capacity_ && entries_.size() > 1) {
    index_.erase(entries_.back().text);
    entries_.pop_back();
  }
  return shared;
}

}  // namespace quarry::engine
