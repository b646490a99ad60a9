#include "store/ipc/row_encoder.h"

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace quarry::ipc {
namespace {

void AppendInt32(std::string& out, int32_t value) {
  char bytes[sizeof value];
  std::memcpy(bytes, &value, sizeof value);
  out.append(bytes, sizeof value);
}

void WriteInt32At(std::string& out, size_t position, int32_t value) {
  std::memcpy(out.data() + position, &value, sizeof value);
}

// One row from anything with the cursor's getters (engine::Cursor, ValueRow).
// Each value's kind is asked once: on a cursor Kind() is several sqlite3_column_* calls (perf of
// the 300,000-row stream, issue 4: a fifth of the store's CPU when it was asked twice per value).
template <typename Row>
void AppendRowFrom(Row& row, int columns, std::string& out) {
  thread_local std::vector<engine::ValueKind> kinds;
  kinds.resize(static_cast<size_t>(columns));
  AppendInt32(out, columns);
  for (int column = 0; column < columns; ++column) {
    kinds[column] = row.Kind(column);
    AppendInt32(out, static_cast<int32_t>(kinds[column]));
  }
  // Offsets are known only once the values are written: reserve, then fill in.
  const size_t offsets_at = out.size();
  out.append(sizeof(int32_t) * static_cast<size_t>(columns), '\0');
  const size_t data_at = out.size();
  for (int column = 0; column < columns; ++column) {
    const engine::ValueKind kind = kinds[column];
    if (kind != engine::ValueKind::kUnbound) out.append(row.GetString(column));
    out.push_back('\0');
    if (kind == engine::ValueKind::kLangString) {
      out.append(row.GetLanguage(column));
      out.push_back('\0');
    }
    const size_t end_offset = out.size() - 1 - data_at;
    WriteInt32At(out, offsets_at + sizeof(int32_t) * static_cast<size_t>(column),
                 static_cast<int32_t>(end_offset));
  }
}

// StreamValues seen through the cursor's getters.
struct ValueRow {
  std::span<const StreamValue> values;
  engine::ValueKind Kind(int column) const { return values[column].kind; }
  std::string_view GetString(int column) const { return values[column].text; }
  std::string_view GetLanguage(int column) const { return values[column].lang; }
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
