// Running compiled SQL: binding constants and `~name` parameters, and reading solution rows.
// Thread-safety: as the Database.
#pragma once

#include <vector>

#include "store/common/result.h"
#include "store/engine/cursor.h"
#include "store/engine/sqlite/database.h"
#include "store/sparql/sql_query.h"

namespace quarry::engine {

// Prepares `query` and binds its constants and parameters.
Result<Statement> PrepareQuery(Database& db, const sparql::SqlQuery& query,
                               const QueryParameters& parameters);
// Binds the constants and parameters of `query` to `statement`, compiled from query.sql (a
// cached statement is rebound this way, without recompiling).
Result<void> BindQuery(Statement& statement, const sparql::SqlQuery& query,
                       const QueryParameters& parameters);

// All rows of a solution query, materialized (an update reads before it writes).
struct Solutions {
  std::vector<sparql::OutputColumn> columns;
  std::vector<std::vector<schema::SqlValue>> rows;
};
Result<Solutions> ReadSolutions(Database& db, const sparql::SqlQuery& query);

}  // namespace quarry::engine
