#include "store/engine/query_executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <variant>

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

BindPlan PlanBinds(const sparql::SqlQuery& query) {
  BindPlan plan;
  for (size_t i = 0; i < query.binds.size(); ++i) {
    if (!std::holds_alternative<std::monostate>(query.binds[i])) {
      plan.constants.push_back(static_cast<int>(i));
    }
  }
  for (const sparql::NamedParameter& parameter : query.parameters) {
    // One entry per (name, encoding): a name used as an IRI and as a literal binds two forms.
    auto same = std::find_if(plan.parameters.begin(), plan.parameters.end(), [&](const auto& p) {
      return p.name == parameter.name && p.as_resource == parameter.as_resource &&
             p.type == parameter.type;
    });
    if (same == plan.parameters.end()) {
      same = plan.parameters.insert(plan.parameters.end(),
                                    {parameter.name, parameter.as_resource, parameter.type, {}});
    }
    same->indices.push_back(parameter.index);
  }
  return plan;
}

Result<void> BindQuery(Statement& statement, const sparql::SqlQuery& query, const BindPlan& plan,
                       const QueryParameters& parameters) {
  const int last_index = statement.BindParameterCount();  // as above: trailing slots may be gone
  for (const int i : plan.constants) {
    if (i + 1 > last_index) break;
    QUARRY_TRY(BindValue(statement, i + 1, query.binds[static_cast<size_t>(i)]));
  }
  for (const BindPlan::Parameter& parameter : plan.parameters) {
    const auto found = parameters.find(parameter.name);
    if (found == parameters.end()) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("parameter ~{} has no value", parameter.name));
    }
    if (parameter.as_resource) {
      for (const int index : parameter.indices) {
        if (index > last_index) continue;
        QUARRY_TRY(statement.Bind(index, std::string_view(found->second.value)));
      }
      continue;
    }
    auto value = schema::EncodeLiteral(found->second, parameter.type);
    if (!value) return std::move(value).error().WithContext("parameter ~" + parameter.name);
    for (const int index : parameter.indices) {
      if (index > last_index) continue;
      QUARRY_TRY(BindValue(statement, index, *value));
    }
  }
  return Ok();
}

Result<Solutions> ReadSolutions(Database& db, const sparql::SqlQuery& query) {
  // From the connection's StatementCache: an update's WHERE repeats its SQL text whenever its
  // shape repeats (constants are ?N binds), e.g. the extractor's per-file DELETE ... WHERE, so
  // SQLite compiles it once. The borrowed handle is reset and cleared when it is dropped.
  QUARRY_ASSIGN_OR_RETURN(Statement statement, db.cache().Borrow(query.sql));
  QUARRY_TRY(BindQuery(statement, query, {}));
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
