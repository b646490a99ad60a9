// quarry: the command-line face of the embedded store.
//   quarry sparql   --database DIR (--query Q | --query-file F | --update U | --update-file F)
//   quarry import   --database DIR [--graph G] FILE...
//   quarry export   --database DIR [--graph G] [--format turtle|trig]
//   quarry ontology --database DIR
//   quarry extract  [--format turtle|sparql|json] FILE...   (no store: what would be stored)
//   quarry contacts [--database DIR] import FILE.vcf | export | get UID... | find --prefix P ...
//   quarry index    --add DIR [--no-recursive] | --remove DIR | --file F | --list   (quarry-miner-fs)
//   quarry sparql (without --database), daemon start|stop|status, status, backup, restore:
//   the running quarry-store over D-Bus (cli/store_commands.h, cli/bus_sparql.h)
// Exit codes: 0 success, 1 a failed operation (message on stderr), 2 a usage error.
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/index_command.h"
#include "cli/store_commands.h"

int main(int argc, char** argv) {
  using namespace quarry::cli;
  CLI::App app("Quarry: query and load the desktop metadata store", "quarry");
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");

  SparqlArgs sparql;
  ImportArgs import;
  ExportArgs export_args;
  OntologyArgs ontology;
  CLI::App* const sparql_command = AddSparqlCommand(app, sparql);
  CLI::App* const import_command = AddImportCommand(app, import);
  CLI::App* const export_command = AddExportCommand(app, export_args);
  CLI::App* const ontology_command = AddOntologyCommand(app, ontology);
  ExtractArgs extract;
  CLI::App* const extract_command = AddExtractCommand(app, extract);
  ContactsArgs contacts;
  CLI::App* const contacts_command = AddContactsCommand(app, contacts);
  IndexArgs index;
  CLI::App* const index_command = AddIndexCommand(app, index);
  DaemonArgs daemon;
  BackupArgs backup;
  BackupArgs restore;
  CLI::App* const daemon_command = AddDaemonCommand(app, daemon);
  CLI::App* const status_command = AddStatusCommand(app);
  CLI::App* const backup_command = AddBackupCommand(app, backup);
  CLI::App* const restore_command = AddRestoreCommand(app, restore);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }
  if (sparql_command->parsed()) return RunSparql(sparql);
  if (import_command->parsed()) return RunImport(import);
  if (export_command->parsed()) return RunExport(export_args);
  if (ontology_command->parsed()) return RunOntology(ontology);
  if (extract_command->parsed()) return RunExtract(extract);
  if (contacts_command->parsed()) return RunContacts(*contacts_command, contacts);
  if (index_command->parsed()) return RunIndex(index);
  if (daemon_command->parsed()) return RunDaemon(daemon);
  if (status_command->parsed()) return RunStatus();
  if (backup_command->parsed()) return RunBackup(backup);
  if (restore_command->parsed()) return RunRestore(restore);
  return kExitUsage;
}
