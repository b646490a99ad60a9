// UpdateExecutor: carries out a parsed SPARQL Update request through a TripleWriter, inside the
// caller's transaction (Store::Update / UpdateBatch own the transaction).
//
// Semantics (SCHEMA.md): inserts without GRAPH/WITH go to the default graph; deletes without
// GRAPH/WITH remove the triple from whichever graph holds it (Tracker apps expect a DELETE to
// delete). In one operation rdf:type triples are applied first, so a request may state a
// resource's properties before its type. Modify evaluates WHERE first, then deletes, then
// inserts (SPARQL 1.1 Update §3.1.3).
// Thread-safety: the writer thread.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/engine/sqlite/database.h"
#include "store/engine/quad_writer.h"
#include "store/engine/triple_writer.h"
#include "store/ontology/ontology.h"
#include "store/sparql/ast.h"
#include "store/sparql/parser.h"

namespace quarry::engine {

class ChangeCapture;
struct Solutions;

class UpdateExecutor {
 public:
  UpdateExecutor(Database& db, const ontology::Ontology& ontology, TripleWriter& writer)
      : db_(db), ontology_(ontology), writer_(writer) {}

  Result<void> Execute(const sparql::Update& update);
  // Parses and runs a request in one pass (update_executor_stream.cpp): the triples of INSERT
  // DATA / DELETE DATA reach the writer while they are parsed, so a bulk import never holds an
  // AST of all its triples; other operations run as soon as each is parsed. Same results as
  // Execute(ParseUpdate(text)); errors of the request's triples carry "line:column".
  Result<void> ExecuteText(std::string_view text, const sparql::ParseOptions& options);
  // Open mode: triples the ontology cannot hold go to this quad table writer.
  void set_quad_writer(QuadWriter* quads) { quads_ = quads; }
  // Change capture (issue 4): told about savepoints that roll back (LOAD).
  void set_change_capture(ChangeCapture* capture) { capture_ = capture; }

 private:
  struct Row;
  class StreamSink;  // update_executor_stream.cpp
  Result<void> InsertData(const sparql::InsertData& operation);
  Result<void> DeleteData(const sparql::DeleteData& operation);
  Result<void> Modify(const sparql::Modify& operation);
  Result<void> DeleteWhere(const sparql::DeleteWhere& operation);
  // False when a Modify can run after writer_.FlushPending() alone: its WHERE and templates
  // cannot see or touch a resource in the writer's bulk buffer (update_executor.cpp).
  Result<bool> MayTouchBuffered(const sparql::Modify& operation);
  // DELETE WHERE with a variable predicate outside open mode (update_delete_where.cpp): once per
  // property of the ontology, all matched before any is deleted.
  Result<void> DeleteWhereEachProperty(const sparql::DeleteWhere& operation,
                                       const std::string& variable);
  static sparql::GroupGraphPattern DeleteWherePattern(const sparql::Quads& quads);
  static std::optional<std::string> VariablePredicateOf(const sparql::Quads& quads);
  bool NamesUnknownClass(const sparql::Quads& quads) const;
  Result<std::optional<std::set<std::string>>> SubjectClasses(const sparql::Quads& quads,
                                                              const std::string& variable);
  // Deletes the template `quads` for every row of `solutions` (columns named by `variables`).
  Result<void> DeleteSolutions(const sparql::Quads& quads, const std::vector<std::string>& variables,
                               const Solutions& solutions);
  Result<void> ClearOrDrop(const sparql::GraphRef& target, bool silent, bool drop);
  Result<void> Create(const sparql::Create& operation);
  Result<void> LoadFile(const sparql::Load& operation);
  // ADD, COPY and MOVE (update_graphs.cpp): an INSERT … WHERE over the source graph, after
  // dropping the target (COPY, MOVE) and before dropping the source (MOVE).
  enum class TransferMode { kAdd, kCopy, kMove };
  Result<void> Transfer(const sparql::GraphOrDefault& from, const sparql::GraphOrDefault& to,
                        bool silent, TransferMode mode);

  Result<void> ApplyTemplate(const sparql::Quads& quads, const Row* row, bool insert,
                             bool replace, const std::optional<std::string>& with_graph);
  Result<void> ApplyTriple(const sparql::TriplePattern& triple, const Row* row, bool insert,
                           bool replace, std::optional<int64_t> graph, BlankScope& blanks);
  Result<const ontology::Property*> PropertyOf(const sparql::TriplePattern& triple);
  // Open mode (update_quads.cpp): a template's predicate, and a triple for the quad table.
  struct OpenPredicate {
    const ontology::Property* property = nullptr;  // null: unknown to the ontology
    int64_t id = 0;                                // its Resource ID when unknown
    bool unbound = false;                          // a variable without a resource value
  };
  Result<OpenPredicate> ResolveOpenPredicate(const sparql::TriplePattern& triple,
                                             const std::optional<Object>& variable_value);
  Result<void> ApplyQuad(const OpenPredicate& predicate, int64_t subject, const Object& object,
                         bool insert, std::optional<int64_t> graph, BlankScope& blanks);

  Database& db_;
  const ontology::Ontology& ontology_;
  TripleWriter& writer_;
  QuadWriter* quads_ = nullptr;  // open mode only
  ChangeCapture* capture_ = nullptr;  // only while a change sink is set
};

}  // namespace quarry::engine
