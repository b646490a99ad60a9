#include "store/ipc/row_encoder.h"

#include <cstdint>
#include <cstring>
#include <string_view>

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

}  // namespace

void AppendRow(engine::Cursor& cursor, std::string& out) {
  const int columns = cursor.ColumnCount();
  AppendInt32(out, columns);
  for (int column = 0; column < columns; ++column) {
    AppendInt32(out, static_cast<int32_t>(cursor.Kind(column)));
  }
  // Offsets are known only once the values are written: reserve, then fill in.
  const size_t offsets_at = out.size();
  out.append(sizeof(int32_t) * static_cast<size_t>(columns), '\0');
  const size_t data_at = out.size();
  for (int column = 0; column < columns; ++column) {
    const engine::ValueKind kind = cursor.Kind(column);
    if (kind != engine::ValueKind::kUnbound) out.append(cursor.GetString(column));
    out.push_back('\0');
    if (kind == engine::ValueKind::kLangString) {
      out.append(cursor.GetLanguage(column));
      out.push_back('\0');
    }
    const size_t end_offset = out.size() - 1 - data_at;
    WriteInt32At(out, offsets_at + sizeof(int32_t) * static_cast<size_t>(column),
                 static_cast<int32_t>(end_offset));
  }
}

}  // namespace quarry::ipc
