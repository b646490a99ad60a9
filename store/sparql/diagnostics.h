// Parse error messages that show where the input went wrong.
//
// A message reads "line:column: what\n<the source line>\n<caret under the column>", e.g.
//   3:12: expected '}' but found 'SELECT'
//   SELECT * { ?s ?p ?o SELECT
//                       ^
// Lines and columns are 1-based; columns count Unicode codepoints, tabs are kept in the caret
// line so it lines up in a terminal. Very long lines (a 100 MB INSERT DATA on one line) are
// cut to a window around the column. Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::sparql {

struct SourcePosition {
  size_t line = 1;
  size_t column = 1;
};

// Position of the byte at `offset` (clamped to the end of `source`).
SourcePosition PositionOf(std::string_view source, size_t offset);

// The excerpt shown under a message: the source line and the caret line, without a final
// newline.
std::string SourceExcerpt(std::string_view source, size_t offset);

// Error{Errc::kParse, "line:column: message\n" + SourceExcerpt()}.
Error MakeParseError(std::string_view source, size_t offset, std::string_view message);

}  // namespace quarry::sparql
