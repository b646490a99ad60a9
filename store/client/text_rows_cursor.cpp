#include "store/client/text_rows_cursor.h"

#include "store/client/text_value.h"

namespace quarry {

TextRowsCursor::TextRowsCursor(sdbus::MethodReply reply) : reply_(std::move(reply)) {
  in_rows_ = static_cast<bool>(reply_.enterContainer("as"));
  first_pending_ = ReadRow(first_row_);
  names_.resize(first_row_.size());
}

bool TextRowsCursor::ReadRow(std::vector<std::string_view>& into) {
  into.clear();
  if (!in_rows_) return false;
  if (!reply_.enterContainer("s")) {  // the end of the rows
    reply_.clearFlags();
    reply_.exitContainer();
    in_rows_ = false;
    return false;
  }
  for (;;) {
    char* value = nullptr;
    if (!(reply_ >> value)) break;
    into.emplace_back(value);  // points into the message, which lives as long as this cursor
  }
  reply_.clearFlags();
  reply_.exitContainer();
  return true;
}

Result<bool> TextRowsCursor::Next() {
  if (first_pending_) {
    first_pending_ = false;
    row_.swap(first_row_);
    has_row_ = true;
    return true;
  }
  has_row_ = ReadRow(row_);
  return has_row_;
}

std::string_view TextRowsCursor::Value(int column) const {
  if (!has_row_ || column < 0 || static_cast<size_t>(column) >= row_.size()) return {};
  return row_[column];
}

ValueKind TextRowsCursor::Kind(int column) const {
  return Value(column).empty() ? ValueKind::kUnbound : ValueKind::kString;
}
std::string_view TextRowsCursor::GetString(int column) { return Value(column); }
int64_t TextRowsCursor::GetInteger(int column) const { return IntegerFromText(Value(column)); }
double TextRowsCursor::GetDouble(int column) const { return DoubleFromText(Value(column)); }
bool TextRowsCursor::GetBoolean(int column) const { return BooleanFromText(Value(column)); }

}  // namespace quarry
