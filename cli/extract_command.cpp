// quarry extract FILE...: runs the extractor pipeline in this process (no daemon, nothing
// stored) and prints, per file, what quarry-extract would store: the SPARQL update, the same
// triples as Turtle, or JSON. A file that cannot be extracted is reported on stderr with its
// name and the reason; the exit code is then 1, after the other files were printed. As
// quarry-extract does, it stores the text of a plain-text file only when the config's
// [extract] text_allowlist names it (miner-fs/config.h); --all-text lifts that.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "extract/core/pipeline.h"
#include "extract/core/serialize.h"
#include "miner-fs/config.h"

namespace quarry::cli {

CLI::App* AddExtractCommand(CLI::App& app, ExtractArgs& args) {
  CLI::App* command = app.add_subcommand(
      "extract", "Print the metadata and text Quarry would store for files (nothing is stored)");
  command->add_option("--format", args.format, "Output: turtle, sparql (the update) or json")
      ->check(CLI::IsMember({"turtle", "sparql", "json"}));
  command->add_option("--max-text-bytes", args.max_text_bytes,
                      "Cap on the stored text (nie:plainTextContent) per file");
  command->add_option("--threads", args.threads, "Threads one file may use (PDF pages)")
      ->check(CLI::Range(1u, 64u));
  command->add_option("--config", args.config,
                      "configuration whose [extract] text_allowlist applies (default: "
                      "$XDG_CONFIG_HOME/quarry/quarry.toml)");
  command->add_flag("--all-text", args.all_text,
                    "store the text of every plain-text file, whatever the text_allowlist");
  command->add_option("files", args.files, "Files to extract")->required()->type_name("FILE");
  return command;
}

int RunExtract(const ExtractArgs& args) {
  const extract::Registry registry = extract::BuiltinRegistry();
  extract::Limits limits;
  limits.max_text_bytes = args.max_text_bytes;
  limits.max_threads = args.threads;
  if (!args.all_text) {
    const std::filesystem::path file =
        args.config.empty() ? miner::DefaultConfigFile() : std::filesystem::path(args.config);
    auto loaded = miner::LoadConfig(file, miner::UserDirs::FromEnvironment());
    if (!loaded) return ReportError("extract", loaded.error());
    for (const std::string& warning : loaded->warnings) {
      if (warning.starts_with("extract.")) fmt::print(stderr, "quarry: {}\n", warning);
    }
    limits.text_allowlist = loaded->config.text_allowlist;
  }
  int exit_code = 0;
  for (const std::string& file : args.files) {
    const auto result = extract::ExtractFile(registry, file, limits);
    if (!result) {
      exit_code = ReportError("extract", result.error());
      continue;
    }
    if (args.format == "sparql") {
      std::cout << extract::ToSparqlUpdate(*result);
    } else if (args.format == "json") {
      std::cout << extract::ToJson(*result);
    } else {
      std::cout << extract::ToTurtle(*result);
    }
  }
  std::cout.flush();
  return exit_code;
}

}  // namespace quarry::cli
