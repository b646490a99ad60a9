// The Steroids row format of DESIGN.md "FD result stream" (Tracker 0.9–3.6 compatible).
//
// Version log:
//   1 (issue 4): per row, host byte order: int32 n_columns; n_columns × int32 value_type
//     (engine::ValueKind numbering); n_columns × int32 end_offset (position in the row's string
//     data of the NUL ending value i); the string data, each value NUL-terminated, a
//     language-tagged value as `text NUL lang NUL` (its end offset at the last NUL); an unbound
//     value is an empty string of type 0.
// Thread-safety: pure functions over the caller's cursor and buffer.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "store/engine/cursor.h"

namespace quarry::ipc {

inline constexpr int kStreamFormatVersion = 1;
// The store writes the stream in blocks of this size (the last one may be shorter).
inline constexpr size_t kStreamBlockSize = 64 * 1024;

// Appends the cursor's current row to `out`.
void AppendRow(engine::Cursor& cursor, std::string& out);

// One value of a row built by hand (graph_stream.h): `text` is the lexical form ("_:b1" for a
// blank node), `lang` only for kLangString.
struct StreamValue {
  engine::ValueKind kind = engine::ValueKind::kUnbound;
  std::string_view text;
  std::string_view lang;
};
void AppendRow(std::span<const StreamValue> values, std::string& out);

}  // namespace quarry::ipc
