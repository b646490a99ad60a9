#include "store/client/row_stream_cursor.h"

#include <fmt/format.h>

#include <cstring>

#include "store/client/text_value.h"

namespace quarry {
namespace {

constexpr int32_t kLastValueKind = static_cast<int32_t>(ValueKind::kLangString);

}  // namespace

RowStreamCursor::RowStreamCursor(std::string stream, std::vector<std::string> variable_names)
    : stream_(std::move(stream)), names_(std::move(variable_names)) {}

Result<bool> RowStreamCursor::Next() {
  kinds_.clear();
  texts_.clear();
  languages_.clear();
  if (offset_ == stream_.size()) return false;
  ++row_number_;
  auto decoded = DecodeRow();
  if (!decoded) {
    offset_ = stream_.size();  // nothing after a broken row can be trusted
    kinds_.clear();
    return std::move(decoded).error().WithContext(fmt::format("FD result stream row {}", row_number_));
  }
  return true;
}

Result<void> RowStreamCursor::DecodeRow() {
  const auto read_int32 = [this](int32_t* value) {
    if (stream_.size() - offset_ < sizeof(int32_t)) return false;
    std::memcpy(value, stream_.data() + offset_, sizeof(int32_t));
    offset_ += sizeof(int32_t);
    return true;
  };
  int32_t n_columns = 0;
  if (!read_int32(&n_columns)) return Error(Errc::kCorrupt, "truncated column count");
  if (n_columns != ColumnCount()) {
    return Error(Errc::kCorrupt, fmt::format("{} columns, but the query has {} variables",
                                             n_columns, ColumnCount()));
  }
  std::vector<int32_t> types(n_columns);
  std::vector<int32_t> ends(n_columns);
  for (int32_t& type : types) {
    if (!read_int32(&type)) return Error(Errc::kCorrupt, "truncated value types");
    if (type < 0 || type > kLastValueKind) {
      return Error(Errc::kCorrupt, fmt::format("unknown value type {}", type));
    }
  }
  for (int32_t& end : ends) {
    if (!read_int32(&end)) return Error(Errc::kCorrupt, "truncated end offsets");
  }
  if (!ends.empty() && ends.back() < 0) return Error(Errc::kCorrupt, "negative end offset");
  const size_t data_size = ends.empty() ? 0 : static_cast<size_t>(ends.back()) + 1;
  if (stream_.size() - offset_ < data_size) return Error(Errc::kCorrupt, "truncated string data");
  const std::string_view data(stream_.data() + offset_, data_size);
  offset_ += data_size;
  int32_t start = 0;
  for (int32_t column = 0; column < n_columns; ++column) {
    const int32_t end = ends[column];
    if (end < start || static_cast<size_t>(end) >= data_size || data[end] != '\0') {
      return Error(Errc::kCorrupt, fmt::format("bad end offset {} for column {}", end, column));
    }
    std::string_view value = data.substr(start, end - start);
    std::string_view language;
    const auto kind = static_cast<ValueKind>(types[column]);
    if (kind == ValueKind::kLangString) {
      const size_t separator = value.find('\0');
      if (separator == std::string_view::npos) {
        return Error(Errc::kCorrupt, fmt::format("language-tagged column {} has no tag", column));
      }
      language = value.substr(separator + 1);
      value = value.substr(0, separator);
    }
    kinds_.push_back(kind);
    texts_.push_back(value);
    languages_.push_back(language);
    start = end + 1;
  }
  return Ok();
}

bool RowStreamCursor::HasValue(int column) const {
  return column >= 0 && static_cast<size_t>(column) < kinds_.size();
}

ValueKind RowStreamCursor::Kind(int column) const {
  return HasValue(column) ? kinds_[column] : ValueKind::kUnbound;
}
std::string_view RowStreamCursor::GetString(int column) {
  return HasValue(column) ? texts_[column] : std::string_view();
}
std::string_view RowStreamCursor::GetLanguage(int column) {
  return HasValue(column) ? languages_[column] : std::string_view();
}
int64_t RowStreamCursor::GetInteger(int column) const {
  return HasValue(column) ? IntegerFromText(texts_[column]) : 0;
}
double RowStreamCursor::GetDouble(int column) const {
  return HasValue(column) ? DoubleFromText(texts_[column]) : 0;
}
bool RowStreamCursor::GetBoolean(int column) const {
  return HasValue(column) && BooleanFromText(texts_[column]);
}

}  // namespace quarry
