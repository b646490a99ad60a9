// SQL functions the SPARQL compiler emits and SQLite lacks: quarry_text, quarry_lang,
// quarry_datetime, quarry_lower, quarry_upper here; the SPARQL function library in
// sql_string_functions.cpp, sql_term_functions.cpp, sql_tracker_functions.cpp; full text in
// sql_fts_functions.cpp. Registered on every connection that runs compiled queries, including
// read-only direct-access ones.
#pragma once

#include <sqlite3.h>

#include "store/common/result.h"

namespace quarry::engine {

Result<void> RegisterSqlFunctions(sqlite3* db);
// quarry_term_min / quarry_term_max (sql_aggregate_functions.cpp): MIN/MAX keeping the term.
Result<void> RegisterAggregateFunctions(sqlite3* db);
// quarry_fts_query() and the FTS5 auxiliary function quarry_offsets() (sql_fts_functions.cpp).
Result<void> RegisterFtsFunctions(sqlite3* db);

}  // namespace quarry::engine
