// The a{sv} options of BatchSparqlUpdate and Steroids.Query (README.md "Options").
// Unknown keys and wrongly typed values are refused with kInvalidArgument, naming the key:
// a misspelt "source" would otherwise silently make a miner's batch interactive.
// Thread-safety: pure functions.
#pragma once

#include <sdbus-c++/Types.h>

#include <map>
#include <string>

#include "store/common/result.h"
#include "store/ipc/backend.h"

namespace quarry::ipc {

using CallOptions = std::map<std::string, sdbus::Variant>;

// "source": "miner" → kMiner; "source": "interactive" or no source → kInteractive.
Result<UpdateSource> ParseBatchOptions(const CallOptions& options);
// "version": 1 (any D-Bus integer type) or absent; the stream format version to write.
Result<int> ParseStreamOptions(const CallOptions& options);

}  // namespace quarry::ipc
