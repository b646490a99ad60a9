#include "store/engine/sql_value_io.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include "store/common/datetime.h"

namespace quarry::engine {

Result<Statement*> Cached(Database& db, std::string_view sql) { return db.cache().Get(sql); }

Result<void> BindValue(Statement& statement, int index, const SqlValue& value) {
  if (const auto* number = std::get_if<int64_t>(&value)) return statement.Bind(index, *number);
  if (const auto* real = std::get_if<double>(&value)) return statement.Bind(index, *real);
  if (const auto* text = std::get_if<std::string>(&value)) {
    return statement.Bind(index, std::string_view(*text));
  }
  if (const auto* blob = std::get_if<Blob>(&value)) return statement.Bind(index, AsBlob(blob->bytes));
  return statement.Bind(index, nullptr);
}

SqlValue ReadValue(Statement& statement, int column) {
  switch (statement.ColumnType(column)) {
    case SQLITE_INTEGER: return statement.ColumnInt64(column);
    case SQLITE_FLOAT: return statement.ColumnDouble(column);
    case SQLITE_TEXT: return std::string(statement.ColumnText(column));
    case SQLITE_BLOB: {
      const auto bytes = statement.ColumnBlob(column);
      return Blob{std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size())};
    }
    default: return std::monostate();
  }
}

std::string DescribeValue(const SqlValue& value, ontology::ValueType type) {
  if (type == ontology::ValueType::kResource) {
    if (const auto* id = std::get_if<int64_t>(&value)) return fmt::format("resource #{}", *id);
  }
  return schema::DecodeLiteral(value, type).ToString();
}

}  // namespace quarry::engine
