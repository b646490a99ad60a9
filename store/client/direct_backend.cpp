// The direct/embedded backend: an engine::Store in this process, cursors over its statements.
#include <fmt/format.h>

#include "store/client/backend.h"
#include "store/engine/store.h"

namespace quarry {
namespace {

class DirectCursor final : public Cursor::Impl {
 public:
  explicit DirectCursor(engine::Cursor cursor) : cursor_(std::move(cursor)) {}
  Result<bool> Next() override { return cursor_.Next(); }
  int ColumnCount() const override { return cursor_.ColumnCount(); }
  const std::string& VariableName(int column) const override {
    return cursor_.VariableName(column);
  }
  ValueKind Kind(int column) const override {
    return static_cast<ValueKind>(cursor_.Kind(column));
  }
  std::string_view GetString(int column) override { return cursor_.GetString(column); }
  std::string_view GetLanguage(int column) override { return cursor_.GetLanguage(column); }
  int64_t GetInteger(int column) const override { return cursor_.GetInteger(column); }
  double GetDouble(int column) const override { return cursor_.GetDouble(column); }
  bool GetBoolean(int column) const override { return cursor_.GetBoolean(column); }

 private:
  engine::Cursor cursor_;
};

Cursor Wrap(engine::Cursor cursor) {
  return Cursor(std::make_unique<DirectCursor>(std::move(cursor)));
}

class DirectStatement final : public Statement::Impl {
 public:
  DirectStatement(engine::Store& store, sparql::SqlQuery compiled)
      : store_(store), compiled_(std::move(compiled)) {}
  Result<Cursor> Execute() override {
    QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, store_.Run(compiled_, parameters));
    return Wrap(std::move(cursor));
  }

 private:
  engine::Store& store_;
  sparql::SqlQuery compiled_;
};

class DirectConnection final : public Connection::Impl {
 public:
  explicit DirectConnection(std::unique_ptr<engine::Store> store) : store_(std::move(store)) {}

  Result<Cursor> Query(std::string_view sparql) override {
    QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, store_->Query(sparql));
    return Wrap(std::move(cursor));
  }
  Result<GraphAnswer> QueryGraph(std::string_view sparql) override {
    QUARRY_ASSIGN_OR_RETURN(engine::TripleSet triples, store_->QueryGraph(sparql));
    return GraphAnswer{std::move(triples), store_->ontology().prefixes()};
  }
  Result<Statement> Prepare(std::string_view sparql) override {
    QUARRY_ASSIGN_OR_RETURN(sparql::SqlQuery compiled, store_->Compile(sparql));
    return Statement(std::make_unique<DirectStatement>(*store_, std::move(compiled)));
  }
  Result<void> UpdateBatch(std::span<const std::string> requests) override {
    if (requests.size() == 1) return store_->Update(requests.front());
    return store_->UpdateBatch(requests);
  }
  Result<std::string> Explain(std::string_view sparql) override { return store_->Explain(sparql); }
  bool writable() const override { return store_->writable(); }

 private:
  std::unique_ptr<engine::Store> store_;
};

}  // namespace

Result<std::unique_ptr<Connection::Impl>> OpenDirectBackend(const Connection::Options& options) {
  auto store = engine::Store::Open({options.database, options.ontology, options.read_only});
  if (!store) return std::move(store).error();
  return std::unique_ptr<Connection::Impl>(std::make_unique<DirectConnection>(std::move(*store)));
}

}  // namespace quarry
