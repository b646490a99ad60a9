#include "store/client/row_stream_cursor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "store/client/text_value.h"

namespace quarry {
namespace {

constexpr int32_t kLastValueKind = static_cast<int32_t>(ValueKind::kLangString);
// The pipe holds 1 MiB (bus_backend.cpp): one read can empty it.
constexpr size_t kBlockSize = 1 << 20;

int32_t Int32At(std::string_view bytes, size_t position) {
  int32_t value;
  std::memcpy(&value, bytes.data() + position, sizeof value);
  return value;
}

// A whole stream already in memory.
class MemorySource final : public RowSource {
 public:
  MemorySource(std::string stream, std::vector<std::string> names)
      : stream_(std::move(stream)), names_(std::move(names)) {}
  Result<size_t> Read(char* out, size_t max) override {
    const size_t count = std::min(max, stream_.size() - read_);
    std::memcpy(out, stream_.data() + read_, count);
    read_ += count;
    return count;
  }
  Result<std::vector<std::string>> Names() override { return names_; }

 private:
  std::string stream_;
  size_t read_ = 0;
  std::vector<std::string> names_;
};

}  // namespace

RowStreamCursor::RowStreamCursor(std::unique_ptr<RowSource> source) : source_(std::move(source)) {}

RowStreamCursor::RowStreamCursor(std::string stream, std::vector<std::string> variable_names)
    : source_(std::make_unique<MemorySource>(std::move(stream), variable_names)),
      expected_columns_(static_cast<int>(variable_names.size())),
      names_(std::move(variable_names)),
      names_known_(true) {}

const std::vector<std::string>& RowStreamCursor::Names() const {
  if (!names_known_) {
    auto names = source_->Names();
    if (names)
      names_ = std::move(*names);
    else
      source_error_ = std::move(names).error();
    names_known_ = true;
  }
  return names_;
}

int RowStreamCursor::ColumnCount() const {
  if (names_known_) return static_cast<int>(names_.size());
  if (expected_columns_ >= 0) return expected_columns_;
  // Before the first row is decoded: its column count (asking the store for the names would
  // mean keeping the whole rest of the stream in memory).
  const_cast<RowStreamCursor*>(this)->PeekColumnCount();
  if (end_ - begin_ >= sizeof(int32_t)) return Int32At(View(), 0);
  return static_cast<int>(Names().size());
}

const std::string& RowStreamCursor::VariableName(int column) const {
  static const std::string kNone;
  const std::vector<std::string>& names = Names();
  return column >= 0 && static_cast<size_t>(column) < names.size() ? names[column] : kNone;
}

void RowStreamCursor::PeekColumnCount() {
  while (end_ - begin_ < sizeof(int32_t) && !source_ended_) {
    if (!Fill(sizeof(int32_t))) return;  // Next() meets the error again
  }
}

size_t RowStreamCursor::RowSizeSoFar() const {
  const std::string_view at = View();
  if (at.size() < sizeof(int32_t)) return 0;
  const int32_t n_columns = Int32At(at, 0);
  // A count that cannot be right: let DecodeRow name the fault with what is here.
  if (n_columns < 0 || (expected_columns_ >= 0 && n_columns != expected_columns_)) {
    return at.size();
  }
  const size_t header = sizeof(int32_t) * (1 + 2 * static_cast<size_t>(n_columns));
  if (at.size() < header) return 0;
  if (n_columns == 0) return header;
  const int32_t last_end = Int32At(at, header - sizeof(int32_t));
  if (last_end < 0) return at.size();
  return header + static_cast<size_t>(last_end) + 1;
}

// Reads once from the source, keeping room for `wanted` bytes of the current row.
Result<bool> RowStreamCursor::Fill(size_t wanted) {
  if (begin_ > 0) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  const size_t capacity = std::max({wanted, end_ + kBlockSize / 4, kBlockSize});
  if (capacity_ < capacity) {
    auto grown = std::make_unique_for_overwrite<char[]>(capacity);
    if (end_ > 0) std::memcpy(grown.get(), buffer_.get(), end_);
    buffer_ = std::move(grown);
    capacity_ = capacity;
  }
  QUARRY_ASSIGN_OR_RETURN(const size_t got, source_->Read(buffer_.get() + end_, capacity_ - end_));
  end_ += got;
  if (got == 0) source_ended_ = true;
  return got > 0;
}

Result<bool> RowStreamCursor::Next() {
  kinds_.clear();
  texts_.clear();
  languages_.clear();
  if (done_) return false;
  for (;;) {
    const size_t row_size = RowSizeSoFar();
    if (row_size != 0 && end_ - begin_ >= row_size) {
      ++row_number_;
      auto decoded = DecodeRow(std::string_view(buffer_.get() + begin_, row_size));
      if (!decoded) {
        done_ = true;  // nothing after a broken row can be trusted
        kinds_.clear();
        return std::move(decoded).error().WithContext(
            fmt::format("FD result stream row {}", row_number_));
      }
      begin_ += row_size;
      return true;
    }
    if (source_ended_) return EndOfStream();
    QUARRY_TRY(Fill(row_size));
  }
}

// The source has no more bytes: the store's error if it sent one, else a partial row left
// over is corrupt, else the end.
Result<bool> RowStreamCursor::EndOfStream() {
  done_ = true;
  const std::vector<std::string>& names = Names();
  if (source_error_) return *source_error_;
  if (begin_ < end_) {
    ++row_number_;
    auto decoded = DecodeRow(View());
    kinds_.clear();
    const Error error = decoded ? Error(Errc::kCorrupt, "bytes after the last row")
                                : std::move(decoded).error();
    return Error(error).WithContext(fmt::format("FD result stream row {}", row_number_));
  }
  if (row_number_ > 0 && expected_columns_ != static_cast<int>(names.size())) {
    return Error(Errc::kCorrupt, fmt::format("FD result stream: {} columns, but the query has {} "
                                             "variables",
                                             expected_columns_, names.size()));
  }
  return false;
}

Result<void> RowStreamCursor::DecodeRow(std::string_view row) {
  if (row.size() < sizeof(int32_t)) return Error(Errc::kCorrupt, "truncated column count");
  const int32_t n_columns = Int32At(row, 0);
  const int expected = expected_columns_ >= 0 ? expected_columns_ : n_columns;
  if (n_columns != expected || n_columns < 0) {
    return Error(Errc::kCorrupt, fmt::format("{} columns, but the query has {} variables",
                                             n_columns, expected));
  }
  expected_columns_ = n_columns;
  const size_t types_at = sizeof(int32_t);
  const size_t ends_at = types_at + sizeof(int32_t) * static_cast<size_t>(n_columns);
  const size_t data_at = ends_at + sizeof(int32_t) * static_cast<size_t>(n_columns);
  if (row.size() < ends_at) return Error(Errc::kCorrupt, "truncated value types");
  if (row.size() < data_at) return Error(Errc::kCorrupt, "truncated end offsets");
  for (int32_t column = 0; column < n_columns; ++column) {
    const int32_t type = Int32At(row, types_at + sizeof(int32_t) * column);
    if (type < 0 || type > kLastValueKind) {
      return Error(Errc::kCorrupt, fmt::format("unknown value type {}", type));
    }
  }
  const int32_t last_end =
      n_columns == 0 ? -1 : Int32At(row, ends_at + sizeof(int32_t) * (n_columns - 1));
  if (n_columns > 0 && last_end < 0) return Error(Errc::kCorrupt, "negative end offset");
  const size_t data_size = static_cast<size_t>(last_end + 1);
  if (row.size() - data_at < data_size) return Error(Errc::kCorrupt, "truncated string data");
  const std::string_view data = row.substr(data_at, data_size);
  int32_t start = 0;
  for (int32_t column = 0; column < n_columns; ++column) {
    const int32_t end = Int32At(row, ends_at + sizeof(int32_t) * column);
    if (end < start || static_cast<size_t>(end) >= data_size || data[end] != '\0') {
      return Error(Errc::kCorrupt, fmt::format("bad end offset {} for column {}", end, column));
    }
    std::string_view value = data.substr(start, end - start);
    std::string_view language;
    const auto kind = static_cast<ValueKind>(Int32At(row, types_at + sizeof(int32_t) * column));
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
