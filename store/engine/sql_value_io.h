// Moving SqlValue in and out of statements, and the statement-cache shorthand the engine uses.
// Thread-safety: as the Database the statements belong to.
#pragma once

#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/schema/rdf_term.h"
#include "store/engine/sqlite/database.h"

namespace quarry::engine {

using schema::Blob;
using schema::RdfTerm;
using schema::SqlValue;

// A cached, reset statement for `sql` (compiled once per database connection).
Result<Statement*> Cached(Database& db, std::string_view sql);
Result<void> BindValue(Statement& statement, int index, const SqlValue& value);
SqlValue ReadValue(Statement& statement, int column);
// A stored value as a user reads it in an error message.
std::string DescribeValue(const SqlValue& value, ontology::ValueType type);

}  // namespace quarry::engine
