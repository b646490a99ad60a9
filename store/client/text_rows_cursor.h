// TextRowsCursor: the rows of a plain D-Bus SparqlQuery reply (aas), read from the reply
// message as the caller steps: each value is a view into the message (issue 4, bench/ipc:
// copying the reply into a vector<vector<string>> first cost one allocation per value). That
// reply carries text only: every non-empty value reads as ValueKind::kString, an empty one as
// unbound (the two cannot be told apart), language tags are lost and the variable names are
// unknown (""). Use the FD stream when types matter. Thread-safety: one thread at a time.
#pragma once

#include <sdbus-c++/Message.h>

#include <string>
#include <string_view>
#include <vector>

#include "store/client/backend.h"

namespace quarry {

class TextRowsCursor final : public Cursor::Impl {
 public:
  // `reply` is positioned before its `aas` argument.
  explicit TextRowsCursor(sdbus::MethodReply reply);

  Result<bool> Next() override;
  int ColumnCount() const override { return static_cast<int>(names_.size()); }
  const std::string& VariableName(int column) const override { return names_[column]; }
  ValueKind Kind(int column) const override;
  std::string_view GetString(int column) override;
  std::string_view GetLanguage(int) override { return {}; }
  int64_t GetInteger(int column) const override;
  double GetDouble(int column) const override;
  bool GetBoolean(int column) const override;

 private:
  // Reads the next row of the message into `into`; false at the end of the rows.
  bool ReadRow(std::vector<std::string_view>& into);
  std::string_view Value(int column) const;

  sdbus::MethodReply reply_;
  bool in_rows_ = false;                      // inside the outer array
  std::vector<std::string_view> row_;         // the current row (after Next())
  std::vector<std::string_view> first_row_;   // read ahead: it gives the column count
  bool first_pending_ = false;
  bool has_row_ = false;
  std::vector<std::string> names_;
};

}  // namespace quarry
