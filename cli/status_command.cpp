// quarry status, quarry backup FILE, quarry restore FILE: quarry-store's Status and Backup
// interfaces.
#include <fmt/format.h>

#include <cmath>
#include <iostream>

#include "cli/cli_common.h"
#include "cli/store_commands.h"
#include "quarry/connection.h"

namespace quarry::cli {

CLI::App* AddStatusCommand(CLI::App& app) {
  return app.add_subcommand("status", "Print quarry-store's state (Idle or Busy) and progress");
}

int RunStatus() {
  auto connection = Connection::Bus();
  if (!connection) return ReportError("status", connection.error());
  const auto status = (*connection)->Status();
  if (!status) return ReportError("status", status.error());
  std::cout << fmt::format("{} {}%\n", status->state, std::lround(status->progress * 100));
  return 0;
}

CLI::App* AddBackupCommand(CLI::App& app, BackupArgs& args) {
  CLI::App* command = app.add_subcommand("backup", "Have quarry-store save a backup to FILE");
  command->add_option("file", args.file, "Backup file to write")->required()->type_name("FILE");
  return command;
}

CLI::App* AddRestoreCommand(CLI::App& app, BackupArgs& args) {
  CLI::App* command =
      app.add_subcommand("restore", "Have quarry-store replace its data with a backup");
  command->add_option("file", args.file, "Backup file to read")
      ->required()
      ->check(CLI::ExistingFile)
      ->type_name("FILE");
  return command;
}

namespace {

int RunBackupCall(const char* what, const BackupArgs& args,
                  Result<void> (Connection::*call)(const std::filesystem::path&)) {
  auto connection = Connection::Bus();
  if (!connection) return ReportError(what, connection.error());
  const auto done = ((**connection).*call)(args.file);
  if (!done) return ReportError(what, done.error());
  return 0;
}

}  // namespace

int RunBackup(const BackupArgs& args) { return RunBackupCall("backup", args, &Connection::Backup); }
int RunRestore(const BackupArgs& args) {
  return RunBackupCall("restore", args, &Connection::Restore);
}

}  // namespace quarry::cli
