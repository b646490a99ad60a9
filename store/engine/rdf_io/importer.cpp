#include "store/engine/rdf_io/importer.h"

#include <fmt/format.h>

#include <cctype>
#include <unordered_map>
#include <vector>

#include "store/engine/sqlite/transaction.h"

namespace quarry::engine::rdf_io {
namespace {

std::string TripleText(const RdfStatement& statement) {
  return fmt::format("{} <{}> {}", statement.subject.ToString(), statement.predicate,
                     statement.object.ToString());
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':';
}

// Whether `text` mentions the prefixed name `name` as a whole word.
bool Mentions(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    const bool starts_word = at == 0 || !IsNameChar(text[at - 1]);
    // A trailing ':' ends a sentence ("domain of ex:track: it is ..."), not the name.
    const bool ends_word =
        end == text.size() || !IsNameChar(text[end]) ||
        (text[end] == ':' && (end + 1 == text.size() || text[end + 1] == ' '));
    if (starts_word && ends_word) return true;
  }
  return false;
}

class Importer {
 public:
  Importer(TripleWriter& writer, const ontology::Ontology& ontology,
           const std::filesystem::path& file, std::optional<std::string> target_graph,
           QuadWriter* quads)
      : writer_(writer),
        quads_(quads),
        ontology_(ontology),
        rdf_type_(ontology.FindProperty(ontology::iri::kRdfType)),
        file_(file),
        target_graph_(std::move(target_graph)) {}

  // Applies the statement when it belongs to this pass (rdf:type or not).
  Result<void> Apply(const RdfStatement& statement, bool types_pass);
  // Writes what the writer still buffers for the current subject; call at the end of a pass.
  Result<void> FlushRun();
  const ImportStats& stats() const { return stats_; }

 private:
  // A statement applied in the current run, kept so that an error surfacing later (the writer
  // buffers single-valued values of one subject) can be pinned to its triple and position.
  struct Applied {
    const ontology::Property* property;
    std::string triple;
    TextPosition end;
  };

  Result<void> Insert(const RdfStatement& statement, const ontology::Property& property);
  Result<int64_t> GraphOf(const std::optional<std::string>& graph);
  Result<void> InsertQuad(const RdfStatement& statement);
  Error Locate(Error error, const std::vector<Applied>& run, const Applied* current) const;

  TripleWriter& writer_;
  QuadWriter* quads_;  // open mode: what the ontology cannot hold goes to the quad table
  const ontology::Ontology& ontology_;
  const ontology::Property* rdf_type_;
  const std::filesystem::path& file_;
  const std::optional<std::string> target_graph_;
  BlankScope blanks_;  // one scope for the whole file, across both passes
  std::unordered_map<std::string, int64_t> graph_ids_;
  // The current run: consecutive statements about one subject in one graph.
  std::optional<RdfTerm> run_subject_;
  std::optional<std::string> run_graph_;
  std::vector<Applied> run_;  // its single-valued statements
  ImportStats stats_;
};

Result<int64_t> Importer::GraphOf(const std::optional<std::string>& graph) {
  const std::optional<std::string>& iri = graph ? graph : target_graph_;
  if (!iri) return kDefaultGraph;
  if (const auto found = graph_ids_.find(*iri); found != graph_ids_.end()) return found->second;
  QUARRY_ASSIGN_OR_RETURN(const int64_t id, writer_.GraphIdOf(*iri));
  graph_ids_.emplace(*iri, id);
  return id;
}

// The statement an error is about: the current one if the message names its property, else the
// latest buffered one it names, else the current one (or the run's last).
Error Importer::Locate(Error error, const std::vector<Applied>& run,
                       const Applied* current) const {
  const std::string text = error.ToString();
  const Applied* culprit = nullptr;
  if (current && Mentions(text, current->property->name)) culprit = current;
  for (auto applied = run.rbegin(); !culprit && applied != run.rend(); ++applied) {
    if (Mentions(text, applied->property->name)) culprit = &*applied;
  }
  if (!culprit) culprit = current ? current : (run.empty() ? nullptr : &run.back());
  if (!culprit) return error;
  return std::move(error)
      .WithContext("triple " + culprit->triple)
      .WithContext(LocationOf(file_, culprit->end));
}

Result<void> Importer::Insert(const RdfStatement& statement, const ontology::Property& property) {
  QUARRY_ASSIGN_OR_RETURN(const int64_t graph, GraphOf(statement.graph));
  QUARRY_ASSIGN_OR_RETURN(const int64_t subject, writer_.IdOf(statement.subject, blanks_));
  return writer_.Insert(graph, subject, property, Object(statement.object), false, blanks_);
}

Result<void> Importer::InsertQuad(const RdfStatement& statement) {
  QUARRY_ASSIGN_OR_RETURN(const int64_t graph, GraphOf(statement.graph));
  QUARRY_ASSIGN_OR_RETURN(const int64_t subject, writer_.IdOf(statement.subject, blanks_));
  QUARRY_ASSIGN_OR_RETURN(const int64_t predicate, quads_->PredicateId(statement.predicate));
  auto inserted = quads_->Insert(graph, subject, predicate, Object(statement.object), blanks_);
  if (!inserted) {
    return std::move(inserted).error().WithContext("triple " + TripleText(statement))
        .WithContext(LocationOf(file_, statement.end));
  }
  ++stats_.triples;
  return Ok();
}

Result<void> Importer::FlushRun() {
  // Only the current subject's UPDATEs: new resources stay in the writer's bulk buffer.
  auto flushed = writer_.FlushPending();
  const std::vector<Applied> run = std::move(run_);
  run_.clear();
  run_subject_.reset();
  run_graph_.reset();
  if (!flushed) return Locate(std::move(flushed).error(), run, nullptr);
  return Ok();
}

Result<void> Importer::Apply(const RdfStatement& statement, bool types_pass) {
  const ontology::Property* property = ontology_.FindProperty(statement.predicate);
  if (quads_) {
    QUARRY_ASSIGN_OR_RETURN(const bool routed, quads_->Routes(property, Object(statement.object)));
    if (routed) return types_pass ? Ok() : InsertQuad(statement);
  }
  if (!property) {
    // Checked in the first pass, before anything but types was written.
    return Error(Errc::kConstraint, fmt::format("unknown property <{}>", statement.predicate))
        .WithContext("triple " + TripleText(statement))
        .WithContext(LocationOf(file_, statement.end));
  }
  const bool is_type = property == rdf_type_;
  if (is_type != types_pass) return Ok();
  if (run_subject_ && (*run_subject_ != statement.subject || *run_graph_ != statement.graph)) {
    QUARRY_TRY(FlushRun());
  }
  if (!run_subject_) {
    run_subject_ = statement.subject;
    run_graph_ = statement.graph;
  }
  Applied current{property, TripleText(statement), statement.end};
  auto inserted = Insert(statement, *property);
  if (!inserted) return Locate(std::move(inserted).error(), run_, &current);
  if (!property->multi_valued() && !is_type) run_.push_back(std::move(current));
  ++stats_.triples;
  if (is_type) ++stats_.types;
  return Ok();
}

}  // namespace

Result<ImportStats> ImportRdf(TripleWriter& writer, const ontology::Ontology& ontology,
                              const std::filesystem::path& file,
                              std::optional<std::string> target_graph,
                              std::optional<RdfSyntax> syntax, QuadWriter* quads) {
  if (!syntax) {
    QUARRY_ASSIGN_OR_RETURN(syntax, SyntaxOfFile(file));
  }
  Importer importer(writer, ontology, file, std::move(target_graph), quads);
  // Types first, then the rest: a property's domain check needs its subject's type.
  for (const bool types_pass : {true, false}) {
    QUARRY_TRY(ReadRdfFile(file, *syntax, [&](const RdfStatement& statement) {
      return importer.Apply(statement, types_pass);
    }));
    QUARRY_TRY(importer.FlushRun());
  }
  return importer.stats();
}

Result<ImportStats> ImportFile(Database& db, const ontology::Ontology& ontology,
                               const std::filesystem::path& file,
                               std::optional<std::string> target_graph,
                               std::optional<RdfSyntax> syntax) {
  QUARRY_ASSIGN_OR_RETURN(Transaction transaction,
                          Transaction::Begin(db, TransactionMode::kImmediate));
  TripleWriter writer(db, ontology);
  QUARRY_ASSIGN_OR_RETURN(const bool open_mode, HasQuadTable(db));
  QuadWriter quads(db, writer, ontology);
  auto stats = ImportRdf(writer, ontology, file, std::move(target_graph), syntax,
                         open_mode ? &quads : nullptr);
  Result<void> finished = stats ? writer.Finish() : Result<void>(stats.error());
  if (finished) finished = transaction.Commit();
  if (!finished) {
    writer.Abandon();
    return std::move(finished).error();
  }
  return stats;
}

}  // namespace quarry::engine::rdf_io
