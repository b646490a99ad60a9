// RowStreamCursor: the rows of a Steroids FD stream (DESIGN.md "FD result stream"), decoded in
// place from the bytes the client read off the pipe. Each row is
//   int32 n_columns, n_columns × int32 value_type, n_columns × int32 end_offset, string data
// (each value NUL-terminated; a language-tagged value is "text NUL lang NUL"), host byte order.
// Getters return views into the buffer. A malformed row is an Errc::kCorrupt error naming the
// row and the reason. Thread-safety: one thread at a time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/client/backend.h"

namespace quarry {

class RowStreamCursor final : public Cursor::Impl {
 public:
  RowStreamCursor(std::string stream, std::vector<std::string> variable_names);

  Result<bool> Next() override;
  int ColumnCount() const override { return static_cast<int>(names_.size()); }
  const std::string& VariableName(int column) const override { return names_[column]; }
  ValueKind Kind(int column) const override;
  std::string_view GetString(int column) override;
  std::string_view GetLanguage(int column) override;
  int64_t GetInteger(int column) const override;
  double GetDouble(int column) const override;
  bool GetBoolean(int column) const override;

 private:
  Result<void> DecodeRow();
  bool HasValue(int column) const;

  std::string stream_;
  std::vector<std::string> names_;
  size_t offset_ = 0;
  int row_number_ = 0;  // 1-based, for messages
  std::vector<ValueKind> kinds_;
  std::vector<std::string_view> texts_;
  std::vector<std::string_view> languages_;
};

}  // namespace quarry
