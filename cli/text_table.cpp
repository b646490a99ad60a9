#include "cli/text_table.h"

#include <fmt/format.h>

#include <algorithm>

namespace quarry::cli {

std::string EscapeForDisplay(std::string_view text) {
  std::string shown;
  shown.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '\n': shown += "\\n"; break;
      case '\r': shown += "\\r"; break;
      case '\t': shown += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          shown += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          shown += c;
        }
    }
  }
  return shown;
}

size_t DisplayWidth(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

void TextTable::AddRow(std::vector<std::string> cells) {
  cells.resize(header_.size());
  for (std::string& cell : cells) cell = EscapeForDisplay(cell);
  rows_.push_back(std::move(cells));
}

void TextTable::Print(std::ostream& out) const {
  std::vector<size_t> widths(header_.size());
  for (size_t i = 0; i < header_.size(); ++i) widths[i] = DisplayWidth(header_[i]);
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], DisplayWidth(row[i]));
  }
  const auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) line += separator_;
      line += cells[i];
      if (i + 1 < cells.size()) line.append(widths[i] - DisplayWidth(cells[i]), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  print_row(header_);
  std::string rule;
  for (size_t i = 0; i < widths.size(); ++i) {
    if (i > 0) {
      // The rule crosses the separator: "-+-" under " | ".
      std::string cross = separator_;
      std::replace(cross.begin(), cross.end(), ' ', '-');
      std::replace(cross.begin(), cross.end(), '|', '+');
      rule += cross;
    }
    rule.append(widths[i], '-');
  }
  out << rule << '\n';
  for (const auto& row : rows_) print_row(row);
}

}  // namespace quarry::cli
