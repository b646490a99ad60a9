// QueryCache: compiled SPARQL queries (sparql::SqlQuery) keyed by their exact text, least
// recently used evicted first (issue 3: "compiled statements are cached by query text"). A
// repeated Store::Query() skips parsing and translation; its SQL then finds its prepared
// statement in the Database's StatementCache, and `~name` parameters are rebound, not compiled.
//
// Keyed by text alone: a Store's ontology and mode never change while it is open.
// Thread-safety: the thread that owns the Store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "store/sparql/sql_query.h"

namespace quarry::engine {

class QueryCache {
 public:
  static constexpr size_t kDefaultCapacity = 128;

  explicit QueryCache(size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

  // The compiled form of `text`, or null (counted as a hit or a miss).
  std::shared_ptr<const sparql::SqlQuery> Find(std::string_view text);
  // Remembers `compiled` for `text`, evicting the least recently used beyond the capacity.
  std::shared_ptr<const sparql::SqlQuery> Insert(std::string_view text, sparql::SqlQuery compiled);

  size_t size() const { return entries_.size(); }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct Entry {
    std::string text;
    std::shared_ptr<const sparql::SqlQuery> compiled;
  };
  using EntryList = std::list<Entry>;

  size_t capacity_;
  EntryList entries_;  // most recently used first
  std::unordered_map<std::string_view, EntryList::iterator> index_;  // views Entry::text
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace quarry::engine
