// The a{sv} options of BatchSparqlUpdate and Steroids.Query (README.md "Options").
// Unknown keys and wrongly typed values are refused with kInvalidArgument, naming the key:
// a misspelt "source" would otherwise silently make a miner's batch interactive.
// Thread-safety: pure functions.
#pragma once

#include <sdbus-c++/Types.h>

#include <map>
#include <string>

#include "store/common/result.h"
#include "store/engine/cursor.h"
#include "store/ipc/backend.h"

namespace quarry::ipc {

using CallOptions = std::map<std::string, sdbus::Variant>;

// "source": "miner" → kMiner; "source": "interactive" or no source → kInteractive.
Result<UpdateSource> ParseBatchOptions(const CallOptions& options);
// What Steroids.Query and SparqlQueryWithOptions were asked for.
struct QueryOptions {
  int version = 1;                      // the stream format version to write (Steroids only)
  engine::QueryParameters parameters;  // `~name` values (query_parameters.h)
  // Steroids.QueryRows: the caller's cap on the encoded rows in the reply (0: none beyond the
  // store's --max-reply-mib); Query ignores it.
  uint64_t max_bytes = 0;
};
// Steroids.Query and QueryRows: "version": 1 (any D-Bus integer type) or absent; "parameters"
// a{s(ssss)}; "max_bytes" (any non-negative D-Bus integer).
Result<QueryOptions> ParseStreamOptions(const CallOptions& options);
// Resources.SparqlQueryWithOptions: "parameters" only.
Result<engine::QueryParameters> ParsePlainQueryOptions(const CallOptions& options);

}  // namespace quarry::ipc
