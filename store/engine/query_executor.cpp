#include "store/engine/query_executor.h"

#include <fmt/format.h>

#include "store/engine/sql_value_io.h"

namespace quarry::engine {

Result<Statement> PrepareQuery(Database& db, const sparql::SqlQuery& query,
                               const QueryParameters& parameters) {
  QUARRY_ASSIGN_OR_RETURN(Statement statement, db.Prepare(query.sql));
  QUARRY_TRY(BindQuery(statement, query, parameters));
  return statement;
}

Result<void> BindQuery(Statement& statement, const sparql::SqlQuery& query,
                       const QueryParameters& parameters) {
  // SQLite numbers up to the highest ?N the SQL names: a trailing slot whose SQL was dropped
  // (a constant or ~parameter of an unused branch) is not there to bind.
  const int last_index = statement.BindParameterCount();
  for (size_t i = 0; i < query.binds.size() && static_cast<int>(i) < last_index; ++i) {
    QUARRY_TRY(BindValue(statement, static_cast<int>(i) + 1, query.binds[i]));
  }
  for (const sparql::NamedParameter& parameter : query.parameters) {
    const auto found = parameters.find(parameter.name);
    if (found == parameters.end()) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("parameter ~{} has no value", parameter.name));
    }
    const int index = parameter.index;
    if (index > last_index) continue;
    if (parameter.as_resource) {
      QUARRY_TRY(statement.Bind(index, std::string_view(found->second.value)));
      continue;
    }
    auto value = schema::EncodeLiteral(found->second, parameter.type);
    if (!value) return std::move(value).error().WithContext("parameter ~" + parameter.name);
    QUARRY_TRY(BindValue(statement, index, *value));
  }
  return Ok();
}

Result<Solutions> ReadSolutions(Database& db, const sparql::SqlQuery& query) {
  QUARRY_ASSIGN_OR_RETURN(Statement statement, PrepareQuery(db, query, {}));
  Solutions solutions;
  solutions.columns = query.columns;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
    if (!has_row) break;
    std::vector<schema::SqlValue> row;
    row.reserve(query.columns.size());
    for (size_t i = 0; i < query.columns.size(); ++i) {
      row.push_back(ReadValue(statement, static_cast<int>(i)));
    }
    solutions.rows.push_back(std::move(row));
  }
  return solutions;
}

}  // namespace quarry::engine
