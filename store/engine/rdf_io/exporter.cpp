#include "store/engine/rdf_io/exporter.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "store/engine/rdf_io/property_rows.h"
#include "store/engine/rdf_io/rdf_writer.h"
#include "store/engine/sqlite/transaction.h"
#include "store/engine/triple_writer.h"

namespace quarry::engine::rdf_io {
namespace {

using schema::RdfTerm;

struct GraphToExport {
  int64_t id = kDefaultGraph;
  std::optional<std::string> iri;  // nullopt: the default graph
};

Result<std::vector<GraphToExport>> GraphsToExport(Database& db, const ExportOptions& options) {
  if (options.graph) {
    QUARRY_ASSIGN_OR_RETURN(Statement find,
                            db.Prepare("SELECT g.ID FROM Graph AS g JOIN Resource AS r "
                                       "ON r.ID = g.ID WHERE r.Uri = ?1"));
    QUARRY_TRY(find.Bind(1, std::string_view(*options.graph)));
    QUARRY_ASSIGN_OR_RETURN(const bool found, find.Step());
    if (!found) {
      return Error(Errc::kNotFound, fmt::format("graph <{}> does not exist", *options.graph));
    }
    return std::vector<GraphToExport>{{find.ColumnInt64(0), options.graph}};
  }
  std::vector<GraphToExport> graphs{{kDefaultGraph, std::nullopt}};
  if (options.format == ExportFormat::kTurtle) return graphs;
  QUARRY_ASSIGN_OR_RETURN(Statement named,
                          db.Prepare("SELECT g.ID, r.Uri FROM Graph AS g JOIN Resource AS r "
                                     "ON r.ID = g.ID ORDER BY r.Uri"));
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, named.Step());
    if (!has_row) break;
    graphs.push_back({named.ColumnInt64(0), std::string(named.ColumnText(1))});
  }
  return graphs;
}

class Exporter {
 public:
  Exporter(const ontology::Ontology& ontology, const ExportSink& sink)
      : ontology_(ontology), names_(ontology), sink_(sink) {}

  // One statement per property; rdf:type first.
  Result<void> Prepare(Database& db, RowScope scope);
  Result<void> ExportGraph(const GraphToExport& graph);
  // The rows of the subjects in `ids_json` (a JSON array), every graph as one.
  Result<void> ExportSubjects(const std::string& ids_json);
  const ExportStats& stats() const { return stats_; }

 private:
  // Writes the started streams, subject by subject.
  Result<void> MergeSubjects(const GraphToExport& graph);
  Result<void> WriteSubject(const GraphToExport& graph, const SubjectKey& key,
                            const std::vector<PropertyRows*>& active);
  Result<void> WriteTypes(const GraphToExport& graph, const RdfTerm& subject, PropertyRows& rows);
  RdfTerm BlankLabel(int64_t id);

  const ontology::Ontology& ontology_;
  const schema::Names names_;
  const ExportSink& sink_;
  std::vector<PropertyRows> streams_;
  const ontology::Property* rdf_type_ = nullptr;
  std::unordered_map<int64_t, std::string> blank_labels_;
  ExportStats stats_;
};

Result<void> Exporter::Prepare(Database& db, RowScope scope) {
  rdf_type_ = ontology_.FindProperty(ontology::iri::kRdfType);
  if (rdf_type_) {
    QUARRY_ASSIGN_OR_RETURN(PropertyRows types,
                            PropertyRows::Prepare(db, names_, *rdf_type_, scope));
    streams_.push_back(std::move(types));
  }
  for (const ontology::Property& property : ontology_.properties()) {
    if (&property == rdf_type_) continue;
    QUARRY_ASSIGN_OR_RETURN(PropertyRows rows, PropertyRows::Prepare(db, names_, property, scope));
    streams_.push_back(std::move(rows));
  }
  return Ok();
}

RdfTerm Exporter::BlankLabel(int64_t id) {
  auto [label, added] = blank_labels_.try_emplace(id);
  if (added) label->second = fmt::format("b{}", blank_labels_.size());
  return RdfTerm::Blank(label->second);
}

Result<void> Exporter::ExportGraph(const GraphToExport& graph) {
  for (PropertyRows& rows : streams_) QUARRY_TRY(rows.Start(graph.id));
  return MergeSubjects(graph);
}

Result<void> Exporter::ExportSubjects(const std::string& ids_json) {
  for (PropertyRows& rows : streams_) QUARRY_TRY(rows.StartSubjects(ids_json));
  return MergeSubjects(GraphToExport{});
}

Result<void> Exporter::MergeSubjects(const GraphToExport& graph) {
  std::vector<PropertyRows*> active;  // streams with rows left, in property order
  for (PropertyRows& rows : streams_) {
    if (rows.has_row()) active.push_back(&rows);
  }
  while (!active.empty()) {
    const SubjectKey* first = &active.front()->key();
    for (const PropertyRows* rows : active) {
      if (rows->key() < *first) first = &rows->key();
    }
    const SubjectKey subject = *first;  // a copy: the streams move on while it is written
    QUARRY_TRY(WriteSubject(graph, subject, active));
    std::erase_if(active, [](const PropertyRows* rows) { return !rows->has_row(); });
  }
  return Ok();
}

Result<void> Exporter::WriteSubject(const GraphToExport& graph, const SubjectKey& key,
                                    const std::vector<PropertyRows*>& active) {
  const RdfTerm subject = key.blank ? BlankLabel(key.id) : RdfTerm::Iri(key.uri);
  ++stats_.subjects;
  for (PropertyRows* rows : active) {
    if (!rows->has_row() || !(rows->key() == key)) continue;
    if (&rows->property() == rdf_type_) {
      QUARRY_TRY(WriteTypes(graph, subject, *rows));
      continue;
    }
    do {
      ObjectValue object = rows->Object();
      if (object.term.kind == RdfTerm::Kind::kBlank) object.term = BlankLabel(object.blank_id);
      QUARRY_TRY(sink_(graph.iri, subject, rows->property().iri, object.term));
      ++stats_.triples;
      QUARRY_TRY(rows->Advance());
    } while (rows->has_row() && rows->key() == key);
  }
  return Ok();
}

// The store holds every superclass of a type as a type of its own; only the most specific
// ones are written.
Result<void> Exporter::WriteTypes(const GraphToExport& graph, const RdfTerm& subject,
                                  PropertyRows& rows) {
  std::vector<std::string> classes;
  const SubjectKey key = rows.key();
  do {
    classes.push_back(rows.Object().term.value);
    QUARRY_TRY(rows.Advance());
  } while (rows.has_row() && rows.key() == key);
  for (const std::string& cls : classes) {
    const bool implied = std::any_of(classes.begin(), classes.end(), [&](const std::string& other) {
      return other != cls && ontology_.IsSubClassOf(other, cls);
    });
    if (implied) continue;
    QUARRY_TRY(sink_(graph.iri, subject, rdf_type_->iri, RdfTerm::Iri(cls)));
    ++stats_.triples;
  }
  return Ok();
}

}  // namespace

Result<ExportStats> ExportRdf(Database& db, const ontology::Ontology& ontology,
                              const ExportOptions& options, std::ostream& out) {
  // One read transaction: every table is read from the same snapshot.
  std::optional<Transaction> snapshot;
  if (!db.InTransaction()) {
    auto begun = Transaction::Begin(db, TransactionMode::kDeferred);
    if (!begun) return std::move(begun).error();
    snapshot.emplace(std::move(*begun));
  }
  QUARRY_ASSIGN_OR_RETURN(const std::vector<GraphToExport> graphs, GraphsToExport(db, options));
  RdfWriter writer(
      out, options.format == ExportFormat::kTrig ? WriteSyntax::kTrig : WriteSyntax::kTurtle,
      ontology.prefixes());
  const ExportSink sink = [&writer](const std::optional<std::string>& graph,
                                       const RdfTerm& subject, std::string_view predicate,
                                       const RdfTerm& object) {
    return writer.Write(graph, subject, predicate, object);
  };
  Exporter exporter(ontology, sink);
  QUARRY_TRY(exporter.Prepare(db, RowScope::kGraph));
  for (const GraphToExport& graph : graphs) QUARRY_TRY(exporter.ExportGraph(graph));
  QUARRY_TRY(writer.Finish());
  return exporter.stats();
}

Result<ExportStats> DescribeResources(Database& db, const ontology::Ontology& ontology,
                                      std::span<const int64_t> ids, const ExportSink& sink) {
  if (ids.empty()) return ExportStats{};
  std::string ids_json = "[";
  for (size_t i = 0; i < ids.size(); ++i) ids_json += fmt::format("{}{}", i ? "," : "", ids[i]);
  ids_json += "]";
  Exporter exporter(ontology, sink);
  QUARRY_TRY(exporter.Prepare(db, RowScope::kSubjects));
  QUARRY_TRY(exporter.ExportSubjects(ids_json));
  return exporter.stats();
}

}  // namespace quarry::engine::rdf_io
