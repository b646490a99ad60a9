// quarry status [--follow] [--database DIR], quarry backup FILE, quarry restore FILE.
// `quarry status` shows quarry-store's state, each miner's state and counts (issue 5) and
// quarry-extract's queue, and the database size; --follow redraws it until all are idle.
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "cli/cli_common.h"
#include "cli/store_commands.h"
#include "miner-fs/status_client.h"
#include "miner-fs/status_report.h"
#include "quarry/connection.h"
#include "store/ipc/store_service.h"

namespace quarry::cli {
namespace {

// The options of `quarry status`: AddStatusCommand()/RunStatus() keep their argument-free
// signatures (cli/main.cpp calls them), so the parsed values live here.
struct StatusArgs {
  bool follow = false;
  std::string database;
};
StatusArgs& status_args() {
  static StatusArgs args;
  return args;
}

// meta.db and its WAL and journal files.
std::optional<uint64_t> DatabaseBytes(const std::filesystem::path& folder) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return std::nullopt;
  uint64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (!entry.path().filename().string().starts_with("meta.db")) continue;
    const auto size = entry.file_size(error);
    if (!error) total += size;
  }
  return total;
}

// Every refresh of --follow asks through the same client (one bus connection).
miner::StatusReport Collect(miner::StatusClient& client) {
  miner::StatusReport report;
  if (auto status = client.Store(); status) {
    report.store_state = status->state == "Busy"
                             ? fmt::format("Busy {}%", std::lround(status->progress * 100))
                             : status->state;
  }
  if (auto miner = client.Miner(); miner) report.miner = std::move(*miner);
  if (auto extractor = client.Extractor(); extractor) report.extractor = std::move(*extractor);
  const auto& args = status_args();
  report.database_path = args.database.empty() ? ipc::DefaultDatabaseDir() : args.database;
  report.database_bytes = DatabaseBytes(report.database_path);
  return report;
}

int TerminalWidth() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20) return size.ws_col;
  return 80;
}

// Redraws in place on a terminal (cursor up over the last block, clear below); elsewhere
// prints the block when it changes.
int Follow(miner::StatusClient& client) {
  const bool is_terminal = ::isatty(STDOUT_FILENO) != 0;
  size_t lines_drawn = 0;
  std::string last;
  for (;;) {
    const miner::StatusReport report = Collect(client);
    const std::string text = miner::FormatStatus(report, TerminalWidth());
    if (is_terminal) {
      if (lines_drawn > 0) std::cout << fmt::format("\x1b[{}F\x1b[J", lines_drawn);
      std::cout << text << std::flush;
      lines_drawn = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    } else if (text != last) {
      std::cout << text << "\n" << std::flush;
    }
    last = text;
    if (miner::IsIdle(report)) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

}  // namespace

CLI::App* AddStatusCommand(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "status", "Show the store, the file miner (progress, counts, ETA, pauses, errors), the extractor and the database size");
  command->add_flag("-f,--follow", status_args().follow, "Keep updating until everything is idle");
  command->add_option("--database", status_args().database,
                      "Database directory whose size is shown (default: $XDG_CACHE_HOME/quarry)");
  return command;
}

int RunStatus() {
  auto client = miner::StatusClient::Connect();
  if (!client) return ReportError("status", client.error());
  if (status_args().follow) return Follow(**client);
  const miner::StatusReport report = Collect(**client);
  std::cout << miner::FormatStatus(report, TerminalWidth());
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
