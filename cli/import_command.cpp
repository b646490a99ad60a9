// quarry import: loads RDF files into the store, each file in one transaction (all of it or
// none of it), and reports triples and time per file. Stops at the first file that fails;
// files before it stay imported.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "cli/commands.h"
#include "store/engine/rdf_io/importer.h"

namespace quarry::cli {

CLI::App* AddImportCommand(CLI::App& app, ImportArgs& args) {
  CLI::App* command = app.add_subcommand("import", "Load Turtle, N-Triples, N-Quads or TriG files");
  AddStoreOptions(*command, args.store);
  command
      ->add_option("--graph", args.graph,
                   "Named graph receiving the triples (named graphs of TriG/N-Quads files "
                   "keep their own)")
      ->type_name("IRI");
  command->add_option("--syntax", args.syntax, "File syntax (default: by extension)")
      ->check(CLI::IsMember({"turtle", "ntriples", "nquads", "trig"}));
  command->add_option("files", args.files, "RDF files (.ttl, .nt, .nq, .trig)")
      ->required()
      ->type_name("FILE");
  return command;
}

int RunImport(const ImportArgs& args) {
  auto store = OpenStore(args.store);
  if (!store) return ReportError({}, store.error());
  engine::Store& opened = **store;
  if (!opened.writable()) {
    return ReportError("import", Error(Errc::kIo, fmt::format("{} is open read-only: another "
                                                              "process holds its lock",
                                                              opened.database_file().string())));
  }
  const std::optional<std::string> graph =
      args.graph.empty() ? std::nullopt : std::optional<std::string>(args.graph);
  const std::optional<engine::rdf_io::RdfSyntax> syntax =
      args.syntax.empty() ? std::nullopt : engine::rdf_io::SyntaxFromName(args.syntax);
  for (const std::string& file : args.files) {
    const auto start = std::chrono::steady_clock::now();
    const auto stats =
        engine::rdf_io::ImportFile(opened.database(), opened.ontology(), file, graph, syntax);
    if (!stats) return ReportError("import", stats.error());
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::cout << fmt::format("{}: {} triples imported in {:.3f} s\n", file, stats->triples,
                             seconds.count());
  }
  return 0;
}

}  // namespace quarry::cli
