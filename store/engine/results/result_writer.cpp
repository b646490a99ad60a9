#include "store/engine/results/result_writer.h"

namespace quarry::engine::results {

Result<uint64_t> WriteSolutions(Cursor& cursor, ResultWriter& writer) {
  std::vector<std::string> variables;
  for (int i = 0; i < cursor.ColumnCount(); ++i) variables.push_back(cursor.VariableName(i));
  writer.Begin(variables);
  uint64_t rows = 0;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    writer.Row(cursor);
    ++rows;
  }
  writer.End(rows);
  return rows;
}

}  // namespace quarry::engine::results
