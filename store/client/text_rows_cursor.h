// TextRowsCursor: the rows of a plain D-Bus SparqlQuery reply (aas). That reply carries text
// only: every non-empty value reads as ValueKind::kString, an empty one as unbound (the two
// cannot be told apart), language tags are lost and the variable names are unknown (""). Use
// the FD stream when types matter. Thread-safety: one thread at a time.
#pragma once

#include <string>
#include <vector>

#include "store/client/backend.h"

namespace quarry {

class TextRowsCursor final : public Cursor::Impl {
 public:
  explicit TextRowsCursor(std::vector<std::vector<std::string>> rows);

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
  const std::string* Value(int column) const;

  std::vector<std::vector<std::string>> rows_;
  std::vector<std::string> names_;
  size_t next_row_ = 0;
  const std::vector<std::string>* row_ = nullptr;
};

}  // namespace quarry
