// The rows of a client cursor (quarry::Cursor, e.g. from quarry-store over D-Bus) as the result
// writers read them (engine::results::Solutions), so `quarry sparql` prints the store's answers
// with the same writers as the --database path. Terms are rebuilt from the stream value types
// (store/ipc/graph_stream.h: a literal of another datatype than the stream's typed ones reads as
// a plain string; plain D-Bus replies read as plain strings throughout).
// Thread-safety: the thread that owns the cursor.
#pragma once

#include "quarry/cursor.h"
#include "store/engine/results/result_writer.h"

namespace quarry::cli {

class ClientSolutions final : public engine::results::Solutions {
 public:
  explicit ClientSolutions(Cursor& cursor) : cursor_(cursor) {}
  Result<bool> Next() override { return cursor_.Next(); }
  int ColumnCount() const override { return cursor_.ColumnCount(); }
  const std::string& VariableName(int column) const override {
    return cursor_.VariableName(column);
  }
  bool IsBound(int column) const override { return cursor_.IsBound(column); }
  std::string_view GetString(int column) override { return cursor_.GetString(column); }
  std::string_view GetLanguage(int column) override { return cursor_.GetLanguage(column); }
  std::optional<schema::RdfTerm> GetTerm(int column) override;

 private:
  Cursor& cursor_;
};

}  // namespace quarry::cli
