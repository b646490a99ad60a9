#include "store/ipc/row_encoder.h"

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace quarry::ipc {
namespace {

// One row from anything with GetValue() (engine::Cursor, ValueRow), in two passes: every
// value's kind and text first (one SQLite type lookup per value, views valid until the next
// step), then the row written into `out` grown once, header and data by memcpy (perf of the
// 300,000-row stream, issue 4: value-kind lookups and per-value appends were a third of the
// store's CPU).
template <typename Row>
void AppendRowFrom(Row& row, int columns, std::string& out) {
  thread_local std::vector<engine::ValueView> values;
  values.resize(static_cast<size_t>(columns));
  size_t data_size = 0;
  for (int column = 0; column < columns; ++column) {
    engine::ValueView& value = values[static_cast<size_t>(column)];
    value = row.GetValue(column);
    if (value.kind == engine::ValueKind::kUnbound) value.text = {};
    data_size += value.text.size() + 1;
    if (value.kind == engine::ValueKind::kLangString) data_size += value.lang.size() + 1;
  }
  const size_t header_size = sizeof(int32_t) * (1 + 2 * static_cast<size_t>(columns));
  const size_t row_at = out.size();
  out.resize(row_at + header_size + data_size);
  char* header = out.data() + row_at;
  char* types = header + sizeof(int32_t);
  char* ends = types + sizeof(int32_t) * static_cast<size_t>(columns);
  char* const data = header + header_size;
  char* cursor = data;
  const int32_t count = columns;
  std::memcpy(header, &count, sizeof count);
  for (int column = 0; column < columns; ++column) {
    const engine::ValueView& value = values[static_cast<size_t>(column)];
    const auto type = static_cast<int32_t>(value.kind);
    std::memcpy(types + sizeof(int32_t) * static_cast<size_t>(column), &type, sizeof type);
    if (!value.text.empty()) std::memcpy(cursor, value.text.data(), value.text.size());
    cursor += value.text.size();
    *cursor++ = '\0';
    if (value.kind == engine::ValueKind::kLangString) {
      if (!value.lang.empty()) std::memcpy(cursor, value.lang.data(), value.lang.size());
      cursor += value.lang.size();
      *cursor++ = '\0';
    }
    const auto end_offset = static_cast<int32_t>(cursor - 1 - data);
    std::memcpy(ends + sizeof(int32_t) * static_cast<size_t>(column), &end_offset,
                sizeof end_offset);
  }
}

// StreamValues seen through the cursor's getter.
struct ValueRow {
  std::span<const StreamValue> values;
  engine::ValueView GetValue(int column) const {
    const StreamValue& value = values[static_cast<size_t>(column)];
    return {value.kind, value.text,
            value.kind == engine::ValueKind::kLangString ? value.lang : std::string_view()};
  }
};

}  // namespace

void AppendRow(engine::Cursor& cursor, std::string& out) {
  AppendRowFrom(cursor, cursor.ColumnCount(), out);
}

void AppendRow(std::span<const StreamValue> values, std::string& out) {
  ValueRow row{values};
  AppendRowFrom(row, static_cast<int>(values.size()), out);
}

}  // namespace quarry::ipc
