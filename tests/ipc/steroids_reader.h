// A reader of the Steroids row stream (store/ipc/row_encoder.h) for the tests: decodes rows
// from bytes, checking every length and offset, so a malformed stream fails the test.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace quarry::testing {

struct StreamValue {
  int32_t type = 0;
  std::string text;
  std::string lang;
};
using StreamRow = std::vector<StreamValue>;

inline int32_t ReadInt32(std::string_view bytes, size_t& position) {
  REQUIRE(position + 4 <= bytes.size());
  int32_t value = 0;
  std::memcpy(&value, bytes.data() + position, 4);
  position += 4;
  return value;
}

// Decodes one row at `position`, advancing it past the row.
inline StreamRow ReadRow(std::string_view bytes, size_t& position) {
  const int32_t columns = ReadInt32(bytes, position);
  REQUIRE(columns >= 0);
  std::vector<int32_t> types;
  std::vector<int32_t> ends;
  for (int32_t i = 0; i < columns; ++i) types.push_back(ReadInt32(bytes, position));
  for (int32_t i = 0; i < columns; ++i) ends.push_back(ReadInt32(bytes, position));
  const size_t data = position;
  StreamRow row;
  int32_t start = 0;
  for (int32_t i = 0; i < columns; ++i) {
    REQUIRE(ends[i] >= start);
    REQUIRE(data + static_cast<size_t>(ends[i]) < bytes.size());
    REQUIRE(bytes[data + static_cast<size_t>(ends[i])] == '\0');
    const std::string_view value = bytes.substr(data + start, static_cast<size_t>(ends[i] - start));
    StreamValue decoded{types[i], std::string(value.substr(0, value.find('\0'))), {}};
    if (types[i] == 8) {
      REQUIRE(value.find('\0') != std::string_view::npos);
      decoded.lang = std::string(value.substr(value.find('\0') + 1));
    }
    row.push_back(std::move(decoded));
    start = ends[i] + 1;
  }
  position = data + static_cast<size_t>(start);
  return row;
}

inline std::vector<StreamRow> ReadRows(std::string_view bytes) {
  std::vector<StreamRow> rows;
  size_t position = 0;
  while (position < bytes.size()) rows.push_back(ReadRow(bytes, position));
  CHECK(position == bytes.size());
  return rows;
}

}  // namespace quarry::testing
