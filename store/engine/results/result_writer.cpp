#include "store/engine/results/result_writer.h"

namespace quarry::engine::results {
namespace {

class EngineSolutions final : public Solutions {
 public:
  explicit EngineSolutions(Cursor& cursor) : cursor_(cursor) {}
  Result<bool> Next() override { return cursor_.Next(); }
  int ColumnCount() const override { return cursor_.ColumnCount(); }
  const std::string& VariableName(int column) const override {
    return cursor_.VariableName(column);
  }
  bool IsBound(int column) const override { return cursor_.IsBound(column); }
  std::string_view GetString(int column) override { return cursor_.GetString(column); }
  std::string_view GetLanguage(int column) override { return cursor_.GetLanguage(column); }
  std::optional<schema::RdfTerm> GetTerm(int column) override { return cursor_.GetTerm(column); }

 private:
  Cursor& cursor_;
};

}  // namespace

Result<uint64_t> WriteSolutions(Solutions& cursor, ResultWriter& writer) {
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

Result<uint64_t> WriteSolutions(Cursor& cursor, ResultWriter& writer) {
  EngineSolutions solutions(cursor);
  return WriteSolutions(solutions, writer);
}

}  // namespace quarry::engine::results
