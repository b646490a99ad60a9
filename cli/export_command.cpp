// quarry export: the store as Turtle (the default graph, or --graph) or TriG (every graph, or
// --graph) on stdout. A Turtle export of the default graph says on stderr when named graphs
// were left out, so nobody mistakes it for a full backup.
#include <iostream>

#include "cli/commands.h"
#include "store/engine/rdf_io/exporter.h"

namespace quarry::cli {
namespace {

Result<int64_t> NamedGraphCount(engine::Database& db) {
  QUARRY_ASSIGN_OR_RETURN(engine::Statement count, db.Prepare("SELECT count(*) FROM Graph"));
  QUARRY_TRY(count.Step());
  return count.ColumnInt64(0);
}

}  // namespace

CLI::App* AddExportCommand(CLI::App& app, ExportArgs& args) {
  CLI::App* command = app.add_subcommand("export", "Write the store as Turtle or TriG to stdout");
  AddStoreOptions(*command, args.store);
  command->add_option("--graph", args.graph, "Only this named graph")->type_name("IRI");
  command
      ->add_option("-f,--format", args.format,
                   "turtle: the default graph (or --graph); trig: every graph (or --graph)")
      ->check(CLI::IsMember({"turtle", "trig"}))
      ->capture_default_str();
  return command;
}

int RunExport(const ExportArgs& args) {
  auto store = OpenStore(args.store);
  if (!store) return ReportError({}, store.error());
  engine::rdf_io::ExportOptions options;
  options.format = args.format == "trig" ? engine::rdf_io::ExportFormat::kTrig
                                         : engine::rdf_io::ExportFormat::kTurtle;
  if (!args.graph.empty()) options.graph = args.graph;
  const auto stats =
      engine::rdf_io::ExportRdf((*store)->database(), (*store)->ontology(), options, std::cout);
  if (!stats) return ReportError("export", stats.error());
  if (options.format == engine::rdf_io::ExportFormat::kTurtle && !options.graph) {
    const auto named = NamedGraphCount((*store)->database());
    if (named && *named > 0) {
      std::cerr << "quarry: export: note: " << *named
                << " named graph(s) not included; use --format trig or --graph\n";
    }
  }
  return 0;
}

}  // namespace quarry::cli
