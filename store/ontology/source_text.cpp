#include "store/ontology/source_text.h"

#include <algorithm>

namespace quarry::ontology {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Characters that end a prefixed name, keyword or number in Turtle.
bool EndsWord(char c) {
  return IsSpace(c) || std::string_view("<>\"'{}|^`[]();,#").find(c) != std::string_view::npos;
}

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

SourceText::SourceText(std::string file, std::string_view text)
    : file_(std::move(file)), text_(text) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

SourceLocation SourceText::Locate(size_t offset) const {
  offset = std::min(offset, text_.size());
  const auto next_line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line_index = static_cast<size_t>(next_line - line_starts_.begin()) - 1;
  const size_t line_start = line_starts_[line_index];
  int column = 1;
  for (size_t i = line_start; i < offset; ++i) {
    if (!IsUtf8Continuation(text_[i])) ++column;
  }
  return SourceLocation{file_, static_cast<int>(line_index) + 1, column};
}

size_t SourceText::SkipSpace(size_t from) const {
  size_t pos = from;
  while (pos < text_.size()) {
    if (IsSpace(text_[pos])) {
      ++pos;
    } else if (text_[pos] == '#') {
      const size_t end = text_.find('\n', pos);
      pos = end == std::string_view::npos ? text_.size() : end + 1;
    } else {
      break;
    }
  }
  return pos;
}

size_t SourceText::SkipString(size_t quote) const {
  const char delimiter = text_[quote];
  const bool is_long = text_.substr(quote, 3) == std::string(3, delimiter);
  size_t pos = quote + (is_long ? 3 : 1);
  while (pos < text_.size()) {
    if (text_[pos] == '\\') {
      pos += 2;
    } else if (is_long ? text_.substr(pos, 3) == std::string(3, delimiter)
                       : text_[pos] == delimiter) {
      return pos + (is_long ? 3 : 1);
    } else {
      ++pos;
    }
  }
  return text_.size();
}

size_t SourceText::SkipIri(size_t open) const {
  const size_t close = text_.find('>', open + 1);
  return close == std::string_view::npos ? text_.size() : close + 1;
}

size_t SourceText::SkipWord(size_t from) const {
  size_t pos = from;
  while (pos < text_.size() && !EndsWord(text_[pos])) pos += text_[pos] == '\\' ? 2 : 1;
  pos = std::min(pos, text_.size());
  // A prefixed name may hold dots but never end with one: that dot ends the statement.
  while (pos > from + 1 && text_[pos - 1] == '.') --pos;
  return pos;
}

size_t SourceText::SkipLiteralSuffix(size_t from) const {
  if (from < text_.size() && text_[from] == '@') return SkipWord(from + 1);
  if (text_.substr(from, 2) != "^^") return from;
  const size_t datatype = from + 2;
  if (datatype < text_.size() && text_[datatype] == '<') return SkipIri(datatype);
  return SkipWord(datatype);
}

std::vector<size_t> SourceText::TermStarts(size_t from, size_t to) const {
  std::vector<size_t> starts;
  to = std::min(to, text_.size());
  size_t pos = SkipSpace(from);
  while (pos < to) {
    const char c = text_[pos];
    const bool is_decimal_point =
        c == '.' && pos + 1 < text_.size() && text_[pos + 1] >= '0' && text_[pos + 1] <= '9';
    if (std::string_view(";,.])").find(c) != std::string_view::npos && !is_decimal_point) {
      ++pos;
    } else if (c == '[' || c == '(') {
      starts.push_back(pos++);
    } else if (c == '<') {
      starts.push_back(pos);
      pos = SkipIri(pos);
    } else if (c == '"' || c == '\'') {
      starts.push_back(pos);
      pos = SkipLiteralSuffix(SkipString(pos));
    } else {
      starts.push_back(pos);
      pos = std::max(SkipWord(pos), pos + 1);
    }
    pos = SkipSpace(pos);
  }
  return starts;
}

}  // namespace quarry::ontology
