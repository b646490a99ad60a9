#include "store/client/text_rows_cursor.h"

#include "store/client/text_value.h"

namespace quarry {

TextRowsCursor::TextRowsCursor(std::vector<std::vector<std::string>> rows)
    : rows_(std::move(rows)), names_(rows_.empty() ? 0 : rows_.front().size()) {}

Result<bool> TextRowsCursor::Next() {
  if (next_row_ == rows_.size()) {
    row_ = nullptr;
    return false;
  }
  row_ = &rows_[next_row_++];
  return true;
}

const std::string* TextRowsCursor::Value(int column) const {
  if (!row_ || column < 0 || static_cast<size_t>(column) >= row_->size()) return nullptr;
  return &(*row_)[column];
}

ValueKind TextRowsCursor::Kind(int column) const {
  const std::string* value = Value(column);
  return value && !value->empty() ? ValueKind::kString : ValueKind::kUnbound;
}
std::string_view TextRowsCursor::GetString(int column) {
  const std::string* value = Value(column);
  return value ? std::string_view(*value) : std::string_view();
}
int64_t TextRowsCursor::GetInteger(int column) const {
  const std::string* value = Value(column);
  return value ? IntegerFromText(*value) : 0;
}
double TextRowsCursor::GetDouble(int column) const {
  const std::string* value = Value(column);
  return value ? DoubleFromText(*value) : 0;
}
bool TextRowsCursor::GetBoolean(int column) const {
  const std::string* value = Value(column);
  return value && BooleanFromText(*value);
}

}  // namespace quarry
