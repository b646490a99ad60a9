// Running compiled SQL: binding constants and `~name` parameters, and reading solution rows.
// Thread-safety: as the Database.
#pragma once

#include <string>
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

// BindQuery's work for one compiled query, planned once for a statement that runs many times
// (Store::Run, the direct backend's prepared Statement): the constant slots, and each distinct
// `~name` (with its encoding) with all the slots it fills. The translator gives every use of a
// name its own slot, and a UNION repeats its selector in each branch: a contact read by UID
// has 10 slots of ~u0, a read of 256 IDs 2,560 slots of 256 names (issue 7). BindQuery looked
// up and encoded the value once per slot; with the plan it is once per name, and the parameter
// slots (NULL in SqlQuery::binds) are not bound twice.
struct BindPlan {
  struct Parameter {
    std::string name;
    bool as_resource = false;
    ontology::ValueType type = ontology::ValueType::kString;
    std::vector<int> indices;  // SQL parameter numbers, ascending
  };
  std::vector<int> constants;  // indices into SqlQuery::binds of the non-NULL constants
  std::vector<Parameter> parameters;
};
BindPlan PlanBinds(const sparql::SqlQuery& query);
// BindQuery with `plan` (PlanBinds(query)), onto a statement whose bindings are clear (a
// StatementCache statement is handed out cleared): the same values bound.
Result<void> BindQuery(Statement& statement, const sparql::SqlQuery& query, const BindPlan& plan,
                       const QueryParameters& parameters);

// All rows of a solution query, materialized (an update reads before it writes). Its statement
// comes from db.cache(), so a repeated SQL text is not compiled again.
struct Solutions {
  std::vector<sparql::OutputColumn> columns;
  std::vector<std::vector<schema::SqlValue>> rows;
};
Result<Solutions> ReadSolutions(Database& db, const sparql::SqlQuery& query);

}  // namespace quarry::engine
