// quarry::Cursor: the rows of a query, read in place.
//
// Getters return views into the store's memory, valid until the next Next(): no copy per value.
// Kind() says how to read a column (the FD-stream value types of DESIGN.md).
// Thread-safety: the thread that owns the Connection it came from; must not outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "quarry/result.h"

namespace quarry {

enum class ValueKind {
  kUnbound = 0, kIri = 1, kString = 2, kInteger = 3, kDouble = 4, kDateTime = 5,
  kBlankNode = 6, kBoolean = 7, kLangString = 8,
};

class Cursor {
 public:
  class Impl;
  explicit Cursor(std::unique_ptr<Impl> impl);
  Cursor(Cursor&&) noexcept;
  Cursor& operator=(Cursor&&) noexcept;
  ~Cursor();

  // Advances to the next row; false at the end.
  Result<bool> Next();
  int ColumnCount() const;
  const std::string& VariableName(int column) const;
  ValueKind Kind(int column) const;
  bool IsBound(int column) const;
  std::string_view GetString(int column);    // lexical form; IRIs as text; "" when unbound
  std::string_view GetLanguage(int column);  // "" when the value has no language tag
  int64_t GetInteger(int column) const;
  double GetDouble(int column) const;
  bool GetBoolean(int column) const;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry
