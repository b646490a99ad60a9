// SQL functions the SPARQL compiler emits and SQLite lacks (quarry_text, quarry_lang,
// quarry_datetime, quarry_regex, quarry_lower, quarry_upper). Registered on every connection
// that runs compiled queries, including read-only direct-access ones.
#pragma once

#include <sqlite3.h>

#include "store/common/result.h"

namespace quarry::engine {

Result<void> RegisterSqlFunctions(sqlite3* db);

}  // namespace quarry::engine
