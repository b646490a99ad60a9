#include "cli/cli_common.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace quarry::cli {

void AddStoreOptions(CLI::App& command, StoreArgs& args) {
  command.add_option("--database", args.database, "Database directory (created when missing)")
      ->required()
      ->type_name("DIR");
  command
      .add_option("--ontology", args.ontology,
                  "Ontology directory (default: " + engine::DefaultOntologyDir().string() +
                      "), or \"none\": a new database in open mode, storing any predicate")
      ->type_name("DIR");
}

Result<std::unique_ptr<engine::Store>> OpenStore(const StoreArgs& args) {
  engine::StoreOptions options;
  options.directory = args.database;
  // "none": open mode (SCHEMA.md), the base ontology plus the quad table for anything else.
  options.open_mode = args.ontology == "none";
  options.ontology_dir = args.ontology.empty() || options.open_mode
                             ? engine::DefaultOntologyDir()
                             : std::filesystem::path(args.ontology);
  return engine::Store::Open(options);
}

Result<std::string> ReadTextFile(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (std::cin.bad()) return Error(Errc::kIo, "cannot read standard input");
    return text.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    const int error = errno;
    return Error(error == ENOENT ? Errc::kNotFound : Errc::kIo,
                 fmt::format("cannot open {}: {}", path, std::strerror(error)));
  }
  text << file.rdbuf();
  if (file.bad()) return Error(Errc::kIo, fmt::format("cannot read {}", path));
  return text.str();
}

int ReportError(std::string_view context, const Error& error) {
  std::cout.flush();
  if (context.empty()) {
    std::cerr << "quarry: " << error.ToString() << '\n';
  } else {
    std::cerr << "quarry: " << context << ": " << error.ToString() << '\n';
  }
  return kExitFailure;
}

}  // namespace quarry::cli
