// UpdateExecutor::ExecuteText: one pass over a request's text. The parser hands the triples of
// INSERT DATA / DELETE DATA over a subject statement at a time (sparql::ParseUpdateStream), and
// each goes through the same ApplyTriple -> TripleWriter path as an AST template, so the checks
// live in one place. Only the order differs, and only where it cannot change the result:
// - "types first" (update_executor.h) holds per statement; a value whose subject is not yet in
//   the property's domain is held back, with every later value of that subject, until the
//   operation's last type has been applied (then applied in source order, as the AST path would).
// - DELETE DATA applies statements as they come: removing triples commutes.
// Errors name the triple as the AST path does, plus the statement's line:column.
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "store/engine/update_executor.h"
#include "store/engine/update_executor_text.h"
#include "store/sparql/diagnostics.h"

namespace quarry::engine {

class UpdateExecutor::StreamSink final : public sparql::UpdateSink {
 public:
  StreamSink(UpdateExecutor& executor, std::string_view text) : executor_(executor), text_(text) {}

  Result<void> OnOperation(sparql::UpdateOperation operation, size_t offset) override {
    sparql::Update one;
    one.operations.push_back(std::move(operation));
    auto done = executor_.Execute(one);
    if (!done) return Located(std::move(done).error(), offset);
    return Ok();
  }

  Result<void> OnDataBegin(const sparql::DataOperation& operation) override {
    data_ = operation;
    blanks_.clear();  // blank node labels are scoped to one operation
    deferred_.clear();
    deferred_subjects_.clear();
    graph_iri_.reset();
    subject_.reset();
    return Ok();
  }

  Result<void> OnDataTriples(const sparql::Term* graph, std::vector<sparql::TriplePattern>& triples,
                             size_t offset) override {
    auto applied = ApplyStatement(graph, triples, offset);
    if (!applied) return Located(std::move(applied).error(), offset);
    return Ok();
  }

  Result<void> OnDataEnd() override {
    const std::vector<Deferred> deferred = std::move(deferred_);
    deferred_.clear();
    deferred_subjects_.clear();
    for (size_t i = 0; i < deferred.size(); ++i) {
      const Deferred& held = deferred[i];
      auto applied = Apply(held.triple, held.graph);
      // A subject's held values are consecutive in source order only per subject: flush at
      // each change of subject, as ApplyTemplate does.
      if (applied && (i + 1 == deferred.size() || !(deferred[i + 1].triple.subject == held.triple.subject))) {
        applied = FlushSubject(held.triple.subject);
      }
      if (!applied) return Located(std::move(applied).error(), held.offset);
    }
    // The operation's resources have all their values: a large buffer of them is written now,
    // not kept for the rest of a transaction of many requests (issue 7).
    auto flushed = executor_.writer_.FlushFreshIfLarge();
    if (!flushed) return std::move(flushed).error().WithContext("the data block's new resources");
    return Ok();
  }

 private:
  struct Deferred {
    sparql::TriplePattern triple;
    std::optional<int64_t> graph;
    size_t offset = 0;
  };

  Error Located(Error error, size_t offset) const {
    const sparql::SourcePosition position = sparql::PositionOf(text_, offset);
    return std::move(error).WithContext(fmt::format("{}:{}", position.line, position.column));
  }

  // The graph of a GRAPH block: created by an insert; nullopt from a delete when it does not
  // exist (then nothing in it can be deleted). The last one is cached: blocks hold many
  // statements.
  Result<std::optional<int64_t>> GraphOf(const sparql::Term& graph) {
    const auto* iri = std::get_if<sparql::Iri>(&graph);
    if (!iri) return Error(Errc::kInternal, "a DATA block's graph is not an IRI");
    if (graph_iri_ && *graph_iri_ == iri->iri) return graph_id_;
    if (data_.insert) {
      QUARRY_ASSIGN_OR_RETURN(const int64_t id, executor_.writer_.GraphIdOf(iri->iri));
      graph_id_ = id;
    } else {
      QUARRY_ASSIGN_OR_RETURN(graph_id_, executor_.writer_.FindId(iri->iri));
    }
    graph_iri_ = iri->iri;
    return graph_id_;
  }

  Result<void> ApplyStatement(const sparql::Term* graph_term,
                              std::vector<sparql::TriplePattern>& triples, size_t offset) {
    std::optional<int64_t> graph;
    if (graph_term) {
      QUARRY_ASSIGN_OR_RETURN(graph, GraphOf(*graph_term));
      if (!graph && !data_.insert) return Ok();
    }
    for (const bool types_pass : {true, false}) {
      const sparql::Term* run_subject = nullptr;  // buffered single values belong to it
      for (const sparql::TriplePattern& triple : triples) {
        if (IsType(triple) != types_pass) continue;
        if (run_subject && !(*run_subject == triple.subject)) QUARRY_TRY(FlushSubject(*run_subject));
        run_subject = &triple.subject;
        if (!types_pass && data_.insert) {
          QUARRY_ASSIGN_OR_RETURN(const bool hold, MustHoldBack(triple));
          if (hold) {
            deferred_.push_back({triple, graph, offset});
            continue;
          }
        }
        QUARRY_TRY(Apply(triple, graph));
      }
      if (run_subject) QUARRY_TRY(FlushSubject(*run_subject));
    }
    return Ok();
  }

  Result<void> Apply(const sparql::TriplePattern& triple, std::optional<int64_t> graph) {
    auto applied = executor_.ApplyTriple(triple, nullptr, data_.insert, data_.or_replace, graph, blanks_);
    if (!applied) return std::move(applied).error().WithContext("triple " + TripleText(triple));
    return Ok();
  }

  Result<void> FlushSubject(const sparql::Term& subject) {
    auto flushed = executor_.writer_.FlushPending();
    if (!flushed) return std::move(flushed).error().WithContext("subject " + TermText(subject));
    return Ok();
  }

  // True for a value whose subject is not (yet) in the property's domain, or whose subject
  // already has values held back (their order is kept).
  Result<bool> MustHoldBack(const sparql::TriplePattern& triple) {
    if (!deferred_subjects_.empty() && deferred_subjects_.count(TermText(triple.subject))) return true;
    const auto* predicate = std::get_if<sparql::Term>(&triple.predicate);
    const auto* predicate_iri = predicate ? std::get_if<sparql::Iri>(predicate) : nullptr;
    const ontology::Property* property = predicate_iri ? PropertyOf(predicate_iri->iri) : nullptr;
    if (!property) return false;  // ApplyTriple reports it (or open mode stores it as a quad)
    // Statements share their subject: resolve it once per run (IDs hold for the operation).
    if (!subject_ || !(subject_->first == triple.subject)) {
      int64_t id = 0;
      if (const auto* iri = std::get_if<sparql::Iri>(&triple.subject)) {
        QUARRY_ASSIGN_OR_RETURN(id, executor_.writer_.IriId(iri->iri));
      } else if (const auto* blank = std::get_if<sparql::BlankNode>(&triple.subject)) {
        QUARRY_ASSIGN_OR_RETURN(id, executor_.writer_.IdOf(RdfTerm::Blank(blank->label), blanks_));
      } else {
        return false;  // not a resource: ApplyTriple reports it
      }
      subject_.emplace(triple.subject, id);
    }
    QUARRY_ASSIGN_OR_RETURN(const bool in_domain,
                            executor_.writer_.InDomain(subject_->second, *property));
    if (in_domain) return false;
    deferred_subjects_.insert(TermText(triple.subject));
    return true;
  }

  const ontology::Property* PropertyOf(const std::string& iri) {
    const auto [slot, added] = properties_.try_emplace(iri, nullptr);
    if (added) slot->second = executor_.ontology_.FindProperty(iri);
    return slot->second;
  }

  UpdateExecutor& executor_;
  std::string_view text_;
  sparql::DataOperation data_;
  BlankScope blanks_;
  std::vector<Deferred> deferred_;
  std::unordered_set<std::string> deferred_subjects_;
  std::optional<std::string> graph_iri_;
  std::optional<int64_t> graph_id_;
  std::optional<std::pair<sparql::Term, int64_t>> subject_;  // the last subject resolved
  std::unordered_map<std::string, const ontology::Property*> properties_;  // by IRI
};

Result<void> UpdateExecutor::ExecuteText(std::string_view text, const sparql::ParseOptions& options) {
  StreamSink sink(*this, text);
  return sparql::ParseUpdateStream(text, options, sink);
}

}  // namespace quarry::engine
