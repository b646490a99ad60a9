// The `quarry` subcommands: each registers its options on the app and runs from them.
// Run* functions print results to stdout, errors to stderr, and return the exit code.
// Thread-safety: main thread only.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/bus_sparql.h"
#include "cli/cli_common.h"

namespace quarry::cli {

struct SparqlArgs {
  StoreArgs store;  // no --database: the running quarry-store (cli/bus_sparql.h)
  BusQueryArgs bus;
  std::string query;
  std::string query_file;
  std::string update;
  std::string update_file;
  std::string format;  // empty: table for solutions, turtle for triples
  bool explain = false;
  std::vector<std::string> params;  // NAME=VALUE
};
CLI::App* AddSparqlCommand(CLI::App& app, SparqlArgs& args);
int RunSparql(const SparqlArgs& args);

struct ImportArgs {
  StoreArgs store;
  std::string graph;
  std::string syntax;  // empty: by extension
  std::vector<std::string> files;
};
CLI::App* AddImportCommand(CLI::App& app, ImportArgs& args);
int RunImport(const ImportArgs& args);

struct ExportArgs {
  StoreArgs store;
  std::string graph;
  std::string format = "turtle";
};
CLI::App* AddExportCommand(CLI::App& app, ExportArgs& args);
int RunExport(const ExportArgs& args);

struct OntologyArgs {
  StoreArgs store;
};
CLI::App* AddOntologyCommand(CLI::App& app, OntologyArgs& args);
int RunOntology(const OntologyArgs& args);

// `quarry extract FILE...` (cli/extract_command.cpp): no store involved.
struct ExtractArgs {
  std::string format = "turtle";
  size_t max_text_bytes = 1 << 20;
  unsigned threads = 2;
  std::string config;     // quarry.toml whose [extract] text_allowlist applies (default: the user's)
  bool all_text = false;  // --all-text: the text of every text file, whatever the allowlist
  std::vector<std::string> files;
};
CLI::App* AddExtractCommand(CLI::App& app, ExtractArgs& args);
int RunExtract(const ExtractArgs& args);

// `quarry contacts import|export|get|find` (cli/contacts_command.cpp, issue 7).
struct ContactsArgs {
  StoreArgs store;  // no --database: the running quarry-store
  bool force_fd = false;     // --fd: the FD stream
  bool force_plain = false;  // --no-fd: plain SparqlQuery; neither: QueryTransport::kAuto
  std::string vcard_version = "4.0";
  std::string file;
  std::vector<std::string> uids;
  std::string prefix, suffix, email, phone;
  bool explain = false;
  bool uids_only = false;  // find --uids
};
CLI::App* AddContactsCommand(CLI::App& app, ContactsArgs& args);
int RunContacts(CLI::App& command, const ContactsArgs& args);

}  // namespace quarry::cli
