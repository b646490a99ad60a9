// The `quarry` subcommands that manage the running quarry-store over D-Bus:
//   quarry daemon start [--database DIR] [--ontology DIR] [--timeout S]
//   quarry daemon stop  [--timeout S]
//   quarry daemon status
//   quarry status                      state (Idle/Busy) and progress
//   quarry backup FILE / quarry restore FILE
// All talk to org.quarry.Store1 on the session bus ($DBUS_SESSION_BUS_ADDRESS).
// Thread-safety: main thread only.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace quarry::cli {

// `quarry daemon status` when no store runs (as `systemctl status` does).
inline constexpr int kExitNotRunning = 3;

struct DaemonArgs {
  std::string database;  // empty: $XDG_CACHE_HOME/quarry
  std::string ontology;
  double timeout_seconds = 30;
  CLI::App* start = nullptr;
  CLI::App* stop = nullptr;
  CLI::App* status = nullptr;
};
CLI::App* AddDaemonCommand(CLI::App& app, DaemonArgs& args);
int RunDaemon(const DaemonArgs& args);

CLI::App* AddStatusCommand(CLI::App& app);
int RunStatus();

struct BackupArgs {
  std::string file;
};
CLI::App* AddBackupCommand(CLI::App& app, BackupArgs& args);
int RunBackup(const BackupArgs& args);
CLI::App* AddRestoreCommand(CLI::App& app, BackupArgs& args);
int RunRestore(const BackupArgs& args);

}  // namespace quarry::cli
