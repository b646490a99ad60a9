// UpdateExecutor: graph management (CLEAR, DROP, CREATE) and LOAD of local RDF files.
#include <fmt/format.h>

#include <algorithm>

#include "store/engine/change_capture.h"
#include "store/engine/rdf_io/importer.h"
#include "store/engine/sqlite/transaction.h"
#include "store/engine/sql_value_io.h"
#include "store/engine/update_executor.h"

namespace quarry::engine {
namespace {

Result<std::vector<int64_t>> NamedGraphs(Database& db) {
  QUARRY_ASSIGN_OR_RETURN(Statement statement, db.Prepare("SELECT ID FROM Graph ORDER BY ID"));
  std::vector<int64_t> graphs;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
    if (!has_row) break;
    graphs.push_back(statement.ColumnInt64(0));
  }
  return graphs;
}

std::filesystem::path PathOfIri(const std::string& iri) {
  constexpr std::string_view kFileScheme = "file://";
  if (iri.rfind(kFileScheme, 0) != 0) return iri;
  std::string path;
  const std::string_view rest = std::string_view(iri).substr(kFileScheme.size());
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < rest.size(); ++i) {  // percent-decoding
    if (rest[i] == '%' && i + 2 < rest.size() && hex(rest[i + 1]) >= 0 && hex(rest[i + 2]) >= 0) {
      path += static_cast<char>(hex(rest[i + 1]) * 16 + hex(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

}  // namespace

Result<void> UpdateExecutor::ClearOrDrop(const sparql::GraphRef& target, bool silent, bool drop) {
  std::vector<int64_t> graphs;
  switch (target.kind) {
    case sparql::GraphRef::Kind::kGraph: {
      QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, writer_.FindId(target.iri));
      QUARRY_ASSIGN_OR_RETURN(const std::vector<int64_t> named, NamedGraphs(db_));
      if (!id || std::find(named.begin(), named.end(), *id) == named.end()) {
        if (silent) return Ok();
        return Error(Errc::kNotFound, fmt::format("graph <{}> does not exist", target.iri));
      }
      graphs.push_back(*id);
      break;
    }
    case sparql::GraphRef::Kind::kDefault:
      graphs.push_back(kDefaultGraph);
      break;
    case sparql::GraphRef::Kind::kAll:
      graphs.push_back(kDefaultGraph);
      [[fallthrough]];
    case sparql::GraphRef::Kind::kNamed: {
      QUARRY_ASSIGN_OR_RETURN(const std::vector<int64_t> named, NamedGraphs(db_));
      graphs.insert(graphs.end(), named.begin(), named.end());
      break;
    }
  }
  for (const int64_t graph : graphs) {
    QUARRY_TRY(writer_.ClearGraph(graph));
    if (quads_) QUARRY_TRY(quads_->ClearGraph(graph));
    if (drop && graph != kDefaultGraph) {
      QUARRY_ASSIGN_OR_RETURN(Statement * remove, Cached(db_, "DELETE FROM Graph WHERE ID = ?1"));
      QUARRY_TRY(remove->Bind(1, graph));
      QUARRY_TRY(remove->Step());
    }
  }
  return Ok();
}

Result<void> UpdateExecutor::Create(const sparql::Create& operation) {
  QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, writer_.FindId(operation.graph_iri));
  if (id) {
    QUARRY_ASSIGN_OR_RETURN(Statement * select, Cached(db_, "SELECT 1 FROM Graph WHERE ID = ?1"));
    QUARRY_TRY(select->Bind(1, *id));
    QUARRY_ASSIGN_OR_RETURN(const bool exists, select->Step());
    select->Reset();
    if (exists) {
      if (operation.silent) return Ok();
      return Error(Errc::kConstraint, fmt::format("graph <{}> already exists", operation.graph_iri));
    }
  }
  QUARRY_TRY(writer_.GraphIdOf(operation.graph_iri));
  return Ok();
}

Result<void> UpdateExecutor::LoadFile(const sparql::Load& operation) {
  // A failed LOAD leaves nothing behind, also with SILENT (which only hides the error).
  QUARRY_TRY(writer_.Flush());
  const size_t mark = writer_.Mark();
  const size_t change_mark = capture_ ? capture_->Mark() : 0;
  QUARRY_ASSIGN_OR_RETURN(Savepoint savepoint, Savepoint::Begin(db_, "quarry_load"));
  auto loaded = rdf_io::ImportRdf(writer_, ontology_, PathOfIri(operation.iri), operation.into_graph,
                                  std::nullopt, quads_);
  if (loaded) {
    auto flushed = writer_.Flush();
    if (!flushed) loaded = std::move(flushed).error();
  }
  if (loaded) return savepoint.Release();
  QUARRY_TRY(savepoint.Rollback());
  writer_.RollbackTo(mark);
  if (capture_) capture_->RollbackTo(change_mark);
  if (operation.silent) return Ok();
  return std::move(loaded).error().WithContext(fmt::format("LOAD <{}>", operation.iri));
}

}  // namespace quarry::engine

namespace quarry::engine {
namespace {

sparql::GraphRef RefOf(const sparql::GraphOrDefault& graph) {
  sparql::GraphRef ref;
  ref.kind = graph.is_default ? sparql::GraphRef::Kind::kDefault : sparql::GraphRef::Kind::kGraph;
  ref.iri = graph.iri;
  return ref;
}

// INSERT { [GRAPH <to>] { ?s ?p ?o } } WHERE { [GRAPH <from>] { ?s ?p ?o } }: the default graph
// side has no GRAPH, which open mode reads and writes as graph 0 (SPARQL's default graph).
sparql::Modify CopyAll(const sparql::GraphOrDefault& from, const sparql::GraphOrDefault& to) {
  const sparql::TriplePattern all{sparql::MakeVariable("s"), sparql::MakeVariable("p"),
                                  sparql::MakeVariable("o")};
  sparql::Modify modify;
  sparql::QuadsBlock block;
  if (!to.is_default) block.graph = sparql::MakeIri(to.iri);
  block.triples.push_back(all);
  modify.insert_quads = sparql::Quads{std::move(block)};
  sparql::TriplesBlock triples{{all}};
  if (from.is_default) {
    modify.where.elements.push_back(sparql::PatternElement{std::move(triples)});
  } else {
    sparql::GraphPattern graph{sparql::MakeIri(from.iri), {}};
    graph.pattern.elements.push_back(sparql::PatternElement{std::move(triples)});
    modify.where.elements.push_back(sparql::PatternElement{std::move(graph)});
  }
  return modify;
}

}  // namespace

Result<void> UpdateExecutor::Transfer(const sparql::GraphOrDefault& from,
                                      const sparql::GraphOrDefault& to, bool silent,
                                      TransferMode mode) {
  // SPARQL 1.1 Update §3.2.3-5: a missing source graph is an error (hidden by SILENT); a source
  // equal to the target changes nothing.
  if (!from.is_default) {
    QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, writer_.FindId(from.iri));
    QUARRY_ASSIGN_OR_RETURN(const std::vector<int64_t> named, NamedGraphs(db_));
    if (!id || std::find(named.begin(), named.end(), *id) == named.end()) {
      if (silent) return Ok();
      return Error(Errc::kNotFound, fmt::format("graph <{}> does not exist", from.iri));
    }
  }
  if (from.is_default == to.is_default && from.iri == to.iri) return Ok();
  QUARRY_TRY(writer_.Flush());
  if (mode != TransferMode::kAdd) QUARRY_TRY(ClearOrDrop(RefOf(to), /*silent=*/true, true));
  QUARRY_TRY(Modify(CopyAll(from, to)));
  QUARRY_TRY(writer_.Flush());
  if (mode == TransferMode::kMove) QUARRY_TRY(ClearOrDrop(RefOf(from), /*silent=*/true, true));
  return Ok();
}

}  // namespace quarry::engine
