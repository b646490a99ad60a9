#include "quarry/connection.h"

#include "store/engine/store.h"

namespace quarry {

class Cursor::Impl {
 public:
  explicit Impl(engine::Cursor cursor) : cursor(std::move(cursor)) {}
  engine::Cursor cursor;
};

class Connection::Impl {
 public:
  std::unique_ptr<engine::Store> store;
};

class Statement::Impl {
 public:
  engine::Store* store = nullptr;
  sparql::SqlQuery compiled;
  engine::QueryParameters parameters;
};

Cursor::Cursor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Cursor::Cursor(Cursor&&) noexcept = default;
Cursor& Cursor::operator=(Cursor&&) noexcept = default;
Cursor::~Cursor() = default;
Result<bool> Cursor::Next() { return impl_->cursor.Next(); }
int Cursor::ColumnCount() const { return impl_->cursor.ColumnCount(); }
const std::string& Cursor::VariableName(int column) const { return impl_->cursor.VariableName(column); }
ValueKind Cursor::Kind(int column) const { return static_cast<ValueKind>(impl_->cursor.Kind(column)); }
bool Cursor::IsBound(int column) const { return impl_->cursor.IsBound(column); }
std::string_view Cursor::GetString(int column) { return impl_->cursor.GetString(column); }
std::string_view Cursor::GetLanguage(int column) { return impl_->cursor.GetLanguage(column); }
int64_t Cursor::GetInteger(int column) const { return impl_->cursor.GetInteger(column); }
double Cursor::GetDouble(int column) const { return impl_->cursor.GetDouble(column); }
bool Cursor::GetBoolean(int column) const { return impl_->cursor.GetBoolean(column); }

namespace {
Cursor Wrap(engine::Cursor cursor) {
  return Cursor(std::make_unique<Cursor::Impl>(std::move(cursor)));
}
}  // namespace

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Connection::~Connection() = default;

Result<std::unique_ptr<Connection>> Connection::Open(const Options& options) {
  auto store = engine::Store::Open({options.database, options.ontology, options.read_only});
  if (!store) return std::move(store).error();
  auto impl = std::make_unique<Impl>();
  impl->store = std::move(*store);
  return std::unique_ptr<Connection>(new Connection(std::move(impl)));
}

Result<Cursor> Connection::Query(std::string_view sparql) {
  QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, impl_->store->Query(sparql));
  return Wrap(std::move(cursor));
}

Result<Statement> Connection::Prepare(std::string_view sparql) {
  QUARRY_ASSIGN_OR_RETURN(sparql::SqlQuery compiled, impl_->store->Compile(sparql));
  auto impl = std::make_unique<Statement::Impl>();
  impl->store = impl_->store.get();
  impl->compiled = std::move(compiled);
  return Statement(std::move(impl));
}

Result<void> Connection::Update(std::string_view sparql) { return impl_->store->Update(sparql); }
Batch Connection::CreateBatch() { return Batch(*this); }
Result<std::string> Connection::Explain(std::string_view sparql) { return impl_->store->Explain(sparql); }
bool Connection::writable() const { return impl_->store->writable(); }

Result<void> Batch::Execute() { return connection_.impl_->store->UpdateBatch(updates_); }

Statement::Statement(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Statement::Statement(Statement&&) noexcept = default;
Statement& Statement::operator=(Statement&&) noexcept = default;
Statement::~Statement() = default;

namespace {
std::string Xsd(std::string_view local) { return std::string(ontology::iri::kXsd) + std::string(local); }
}  // namespace

void Statement::BindIri(const std::string& name, std::string iri) {
  impl_->parameters[name] = schema::RdfTerm::Iri(std::move(iri));
}
void Statement::BindString(const std::string& name, std::string value, std::string lang) {
  impl_->parameters[name] = schema::RdfTerm::Literal(std::move(value), {}, std::move(lang));
}
void Statement::BindInteger(const std::string& name, int64_t value) {
  impl_->parameters[name] = schema::RdfTerm::Literal(std::to_string(value), Xsd("integer"));
}
void Statement::BindDouble(const std::string& name, double value) {
  impl_->parameters[name] = schema::RdfTerm::Literal(std::to_string(value), Xsd("double"));
}
void Statement::BindBoolean(const std::string& name, bool value) {
  impl_->parameters[name] = schema::RdfTerm::Literal(value ? "true" : "false", Xsd("boolean"));
}
void Statement::BindDateTime(const std::string& name, std::string lexical) {
  impl_->parameters[name] = schema::RdfTerm::Literal(std::move(lexical), Xsd("dateTime"));
}
void Statement::ClearBindings() { impl_->parameters.clear(); }

Result<Cursor> Statement::Execute() {
  QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, impl_->store->Run(impl_->compiled, impl_->parameters));
  return Wrap(std::move(cursor));
}

}  // namespace quarry
