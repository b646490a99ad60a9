// DESCRIBE: the resources to describe (named IRIs, then those the WHERE clause binds), then their
// statements read by the exporter's code (rdf_io::DescribeResources).
#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <set>

#include "store/engine/construct_executor.h"
#include "store/engine/rdf_io/exporter.h"
#include "store/engine/sql_value_io.h"
#include "store/engine/sqlite/transaction.h"
#include "store/schema/names.h"

namespace quarry::engine {
namespace {

using schema::RdfTerm;

// The resources to describe, in first-named order, each once.
class Described {
 public:
  explicit Described(Database& db) : db_(db) {}

  // A literal names no resource; an unknown IRI none the store holds.
  Result<void> Add(const RdfTerm& term) {
    if (term.kind == RdfTerm::Kind::kLiteral) return Ok();
    if (term.kind == RdfTerm::Kind::kBlank) {
      // The cursor labels the store's blank nodes "b<ID>".
      int64_t id = 0;
      const std::string& label = term.value;
      const auto parsed = std::from_chars(label.data() + 1, label.data() + label.size(), id);
      if (label.empty() || label[0] != 'b' || parsed.ec != std::errc() ||
          parsed.ptr != label.data() + label.size()) {
        return Ok();
      }
      Insert(id);
      return Ok();
    }
    QUARRY_ASSIGN_OR_RETURN(Statement * find,
                            Cached(db_, fmt::format("SELECT ID FROM {} WHERE Uri = ?1",
                                                    schema::Quote(schema::kResourceTable))));
    QUARRY_TRY(find->Bind(1, std::string_view(term.value)));
    QUARRY_ASSIGN_OR_RETURN(const bool found, find->Step());
    if (found) Insert(find->ColumnInt64(0));
    find->Reset();  // no statement left open past the caller's snapshot
    return Ok();
  }
  const std::vector<int64_t>& ids() const { return ids_; }

 private:
  void Insert(int64_t id) {
    if (seen_.insert(id).second) ids_.push_back(id);
  }

  Database& db_;
  std::vector<int64_t> ids_;
  std::set<int64_t> seen_;
};

Result<void> AddNamedResources(const sparql::Query& query, const QueryParameters& parameters,
                               Described& described, std::vector<std::string>& variables) {
  for (const sparql::Term& term : query.describe) {
    if (const auto* iri = std::get_if<sparql::Iri>(&term)) {
      QUARRY_TRY(described.Add(RdfTerm::Iri(iri->iri)));
    } else if (const auto* variable = std::get_if<sparql::Variable>(&term)) {
      variables.push_back(variable->name);
    } else if (const auto* parameter = std::get_if<sparql::Parameter>(&term)) {
      const auto found = parameters.find(parameter->name);
      if (found == parameters.end()) {
        return Error(Errc::kInvalidArgument,
                     fmt::format("parameter ~{} has no value", parameter->name));
      }
      QUARRY_TRY(described.Add(found->second));
    }
  }
  return Ok();
}

}  // namespace

Result<TripleSet> RunDescribe(Database& db, const ontology::Ontology& ontology,
                              const SelectCompiler& compile, sparql::Query query,
                              const QueryParameters& parameters) {
  // The solutions and the descriptions are read from one snapshot.
  std::optional<Transaction> snapshot;
  if (!db.InTransaction()) {
    QUARRY_ASSIGN_OR_RETURN(Transaction begun, Transaction::Begin(db, TransactionMode::kDeferred));
    snapshot.emplace(std::move(begun));
  }
  Described described(db);
  std::vector<std::string> variables;
  QUARRY_TRY(AddNamedResources(query, parameters, described, variables));
  const bool star = query.select.star;
  if (star || !variables.empty()) {
    QUARRY_ASSIGN_OR_RETURN(Cursor cursor,
                            RunSolutionQuery(db, compile, query, variables, star, parameters));
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
      if (!has_row) break;
      for (int i = 0; i < cursor.ColumnCount(); ++i) {
        if (const std::optional<RdfTerm> term = cursor.GetTerm(i)) QUARRY_TRY(described.Add(*term));
      }
    }
  }
  TripleSet graph;
  const rdf_io::ExportSink sink = [&graph](const std::optional<std::string>& /*graph*/,
                                              const RdfTerm& subject, std::string_view predicate,
                                              const RdfTerm& object) -> Result<void> {
    graph.Add({subject, std::string(predicate), object});
    return Ok();
  };
  QUARRY_TRY(rdf_io::DescribeResources(db, ontology, described.ids(), sink));
  return graph;
}

}  // namespace quarry::engine
