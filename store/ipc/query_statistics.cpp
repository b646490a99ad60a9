// The store's half of query_parameters.h: queries run through a Store, counted. Apart from
// query_parameters.cpp (the wire codec), which the bus client links without the engine
// (quarry_ipc_wire).
#include "store/engine/query_cache.h"
#include "store/ipc/query_parameters.h"

namespace quarry::ipc {

QueryStatistics &ProcessQueryStatistics() {
  static QueryStatistics statistics;
  return statistics;
}

Result<engine::Cursor> CountedQuery(engine::Store &store, const std::string &text,
                                    const engine::QueryParameters &parameters) {
  const uint64_t misses_before = store.query_cache().misses();
  auto cursor = store.Query(text, parameters);
  QueryStatistics &statistics = ProcessQueryStatistics();
  if (store.query_cache().misses() != misses_before)
    statistics.translated.fetch_add(1, std::memory_order_relaxed);
  else
    statistics.reused.fetch_add(1, std::memory_order_relaxed);
  return cursor;
}

}  // namespace quarry::ipc
