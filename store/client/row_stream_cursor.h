// RowStreamCursor: the rows of a Steroids FD stream (DESIGN.md "FD result stream"), decoded
// block by block as they arrive. Each row is
//   int32 n_columns, n_columns × int32 value_type, n_columns × int32 end_offset, string data
// (each value NUL-terminated; a language-tagged value is "text NUL lang NUL"), host byte order.
// Bytes come from a RowSource: the pipe while the store still writes (bus_backend.cpp), or a
// string in memory. Getters return views into the cursor's block buffer, valid until the next
// Next(). A malformed row is an Errc::kCorrupt error naming the row and the reason; the
// source's own error (the store's error reply) comes from Next() once the rows before it are
// read. Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/client/backend.h"

namespace quarry {

// Where a RowStreamCursor's bytes and variable names come from.
class RowSource {
 public:
  virtual ~RowSource() = default;
  // Up to `max` bytes into `out`, blocking until some arrive; 0 at the end of the stream.
  virtual Result<size_t> Read(char* out, size_t max) = 0;
  // The variable names once the whole stream is sent, or the error that cut it short.
  virtual Result<std::vector<std::string>> Names() = 0;
};

class RowStreamCursor final : public Cursor::Impl {
 public:
  explicit RowStreamCursor(std::unique_ptr<RowSource> source);
  // A complete stream held in memory (tests, the wire decoder on its own).
  RowStreamCursor(std::string stream, std::vector<std::string> variable_names);

  Result<bool> Next() override;
  int ColumnCount() const override;
  const std::string& VariableName(int column) const override;
  ValueKind Kind(int column) const override;
  std::string_view GetString(int column) override;
  std::string_view GetLanguage(int column) override;
  int64_t GetInteger(int column) const override;
  double GetDouble(int column) const override;
  bool GetBoolean(int column) const override;

 private:
  // Bytes the row starting at begin_ needs in all, as far as the bytes at hand tell; 0 when
  // even its header is incomplete.
  size_t RowSizeSoFar() const;
  std::string_view View() const { return {buffer_.get() + begin_, end_ - begin_}; }
  Result<bool> Fill(size_t wanted);
  // Before the first row: reads until its column count is here (or the stream ended).
  void PeekColumnCount();
  Result<void> DecodeRow(std::string_view row);
  Result<bool> EndOfStream();
  const std::vector<std::string>& Names() const;
  bool HasValue(int column) const;

  std::unique_ptr<RowSource> source_;
  // Bytes [begin_, end_) not decoded yet. Not zero-filled: pages are touched only as bytes
  // arrive (a fresh page costs a fault; small results touch few).
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool source_ended_ = false;
  bool done_ = false;
  int expected_columns_ = -1;  // from the names, else from the first row
  mutable std::vector<std::string> names_;
  mutable bool names_known_ = false;
  mutable std::optional<Error> source_error_;
  int row_number_ = 0;  // 1-based, for messages
  std::vector<ValueKind> kinds_;
  std::vector<std::string_view> texts_;
  std::vector<std::string_view> languages_;
};

}  // namespace quarry
