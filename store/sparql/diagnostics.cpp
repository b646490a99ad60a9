#include "store/sparql/diagnostics.h"

#include <fmt/format.h>

namespace quarry::sparql {

namespace {

// Lines shown longer than this are cut to a window around the error.
constexpr size_t kMaxShownBytes = 120;
constexpr size_t kWindowBytes = 60;

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

size_t LineStart(std::string_view source, size_t offset) {
  size_t start = offset;
  while (start > 0 && source[start - 1] != '\n' && source[start - 1] != '\r') --start;
  return start;
}

size_t LineEnd(std::string_view source, size_t offset) {
  size_t end = offset;
  while (end < source.size() && source[end] != '\n' && source[end] != '\r') ++end;
  return end;
}

}  // namespace

SourcePosition PositionOf(std::string_view source, size_t offset) {
  offset = std::min(offset, source.size());
  SourcePosition position;
  for (size_t i = 0; i < offset; ++i) {
    const char c = source[i];
    if (c == '\n' || (c == '\r' && (i + 1 >= source.size() || source[i + 1] != '\n'))) {
      ++position.line;
      position.column = 1;
    } else if (c != '\r' && !IsContinuationByte(c)) {
      ++position.column;
    }
  }
  return position;
}

std::string SourceExcerpt(std::string_view source, size_t offset) {
  offset = std::min(offset, source.size());
  size_t begin = LineStart(source, offset);
  size_t end = LineEnd(source, offset);
  const bool cut_front = end - begin > kMaxShownBytes && offset - begin > kWindowBytes;
  if (cut_front) {
    begin = offset - kWindowBytes;
    while (begin < offset && IsContinuationByte(source[begin])) ++begin;
  }
  const bool cut_back = end - begin > kMaxShownBytes && end - offset > kWindowBytes;
  if (cut_back) {
    end = offset + kWindowBytes;
    while (end > offset && IsContinuationByte(source[end])) --end;
  }
  std::string excerpt;
  if (cut_front) excerpt += "...";
  excerpt.append(source.substr(begin, end - begin));
  if (cut_back) excerpt += "...";
  excerpt += '\n';
  if (cut_front) excerpt += "   ";
  for (size_t i = begin; i < offset; ++i) {
    if (source[i] == '\t') {
      excerpt += '\t';
    } else if (!IsContinuationByte(source[i])) {
      excerpt += ' ';
    }
  }
  excerpt += '^';
  return excerpt;
}

Error MakeParseError(std::string_view source, size_t offset, std::string_view message) {
  const SourcePosition position = PositionOf(source, offset);
  return Error(Errc::kParse, fmt::format("{}:{}: {}\n{}", position.line, position.column, message,
                                         SourceExcerpt(source, offset)));
}

}  // namespace quarry::sparql
