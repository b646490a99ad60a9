// TextTable: rows of text printed as aligned columns for a terminal, the header underlined.
// Widths count characters (UTF-8 code points), not bytes; control characters in cells are
// shown escaped (\n, \t) so one row stays one line.
// Thread-safety: a plain value.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace quarry::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header, std::string separator = " | ")
      : header_(std::move(header)), separator_(std::move(separator)) {}

  void AddRow(std::vector<std::string> cells);
  size_t size() const { return rows_.size(); }
  // Header, a rule of '-', then the rows; no trailing spaces.
  void Print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::string separator_;
  std::vector<std::vector<std::string>> rows_;
};

// `text` with control characters escaped for one-line display.
std::string EscapeForDisplay(std::string_view text);
// Number of characters (UTF-8 code points) in `text`.
size_t DisplayWidth(std::string_view text);

}  // namespace quarry::cli
