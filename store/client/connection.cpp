// The public classes forward to their backend (backend.h); the paths differ only there.
// Connection::Open and Connection::Direct live in direct_backend.cpp (quarry_client_direct), so
// that a bus-only program (quarry_client) links no engine.
#include "quarry/connection.h"

#include <fmt/format.h>

#include "store/client/backend.h"
#include "store/ontology/ontology.h"

namespace quarry {

Cursor::Cursor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Cursor::Cursor(Cursor&&) noexcept = default;
Cursor& Cursor::operator=(Cursor&&) noexcept = default;
Cursor::~Cursor() = default;
Result<bool> Cursor::Next() { return impl_->Next(); }
int Cursor::ColumnCount() const { return impl_->ColumnCount(); }
const std::string& Cursor::VariableName(int column) const { return impl_->VariableName(column); }
ValueKind Cursor::Kind(int column) const { return impl_->Kind(column); }
bool Cursor::IsBound(int column) const { return impl_->Kind(column) != ValueKind::kUnbound; }
std::string_view Cursor::GetString(int column) { return impl_->GetString(column); }
std::string_view Cursor::GetLanguage(int column) { return impl_->GetLanguage(column); }
int64_t Cursor::GetInteger(int column) const { return impl_->GetInteger(column); }
double Cursor::GetDouble(int column) const { return impl_->GetDouble(column); }
bool Cursor::GetBoolean(int column) const { return impl_->GetBoolean(column); }

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Connection::~Connection() = default;

Result<std::unique_ptr<Connection>> Connection::Bus(const BusOptions& options) {
  QUARRY_ASSIGN_OR_RETURN(std::unique_ptr<Impl> impl, OpenBusBackend(options));
  return std::unique_ptr<Connection>(new Connection(std::move(impl)));
}

Result<Cursor> Connection::Query(std::string_view sparql) { return impl_->Query(sparql); }
Result<Statement> Connection::Prepare(std::string_view sparql) { return impl_->Prepare(sparql); }
Result<void> Connection::Update(std::string_view sparql) {
  const std::string request(sparql);
  return impl_->UpdateBatch(std::span<const std::string>(&request, 1));
}
Batch Connection::CreateBatch() { return Batch(*this); }
Result<void> Connection::UpdateStream(const UpdateProducer& next) {
  return impl_->UpdateStream(next);
}

Result<void> Connection::Impl::UpdateStream(const UpdateProducer& next) {
  std::vector<std::string> requests;
  for (;;) {
    std::string request;
    auto more = next(request);
    if (!more) return std::move(more).error().WithContext(fmt::format("update {}", requests.size() + 1));
    if (!*more) break;
    requests.push_back(std::move(request));
  }
  return UpdateCollected(requests);
}

Result<void> Connection::Impl::UpdateCollected(std::span<const std::string> requests) {
  if (requests.size() == 1) {  // UpdateBatch leaves a single request unnamed
    auto done = UpdateBatch(requests);
    if (!done) return std::move(done).error().WithContext("update 1");
    return done;
  }
  return UpdateBatch(requests);
}
Result<std::string> Connection::Explain(std::string_view sparql) { return impl_->Explain(sparql); }
bool Connection::writable() const { return impl_->writable(); }
void Connection::SetQueryTransport(QueryTransport transport) { impl_->SetQueryTransport(transport); }
void Connection::SetUpdateSource(std::string source) { impl_->SetUpdateSource(std::move(source)); }
Result<StoreStatus> Connection::Status() { return impl_->Status(); }
Result<void> Connection::Backup(const std::filesystem::path& file) {
  return impl_->Backup(std::filesystem::absolute(file));
}
Result<void> Connection::Restore(const std::filesystem::path& file) {
  return impl_->Restore(std::filesystem::absolute(file));
}

Result<void> Batch::Execute() { return connection_.impl_->UpdateBatch(updates_); }

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
Result<Cursor> Statement::Execute() { return impl_->Execute(); }

}  // namespace quarry
