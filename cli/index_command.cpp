// quarry index: what quarry-miner-fs indexes (issue 5).
//   quarry index --add DIR [--no-recursive]   add a folder to quarry.toml, tell the miner
//   quarry index --remove DIR                 take it out (its resources leave the store)
//   quarry index --file F                     index one file now (the miner must run)
//   quarry index --list                       the indexed folders
#include <fmt/format.h>

#include <filesystem>

#include "cli/index_command.h"
#include "miner-fs/config.h"
#include "miner-fs/config_edit.h"
#include "miner-fs/miner_bus_client.h"

namespace quarry::cli {
namespace {

using namespace quarry::miner;

std::filesystem::path ConfigFile(const IndexArgs& args) {
  return args.config.empty() ? DefaultConfigFile() : std::filesystem::path(args.config);
}

// A running miner rereads its config now; one that does not run reads it at its next start.
void NotifyMiner() {
  auto reloaded = MinerReload();
  if (!reloaded && reloaded.error().code() != Errc::kNotFound) {
    fmt::print(stderr, "quarry: the miner did not reload: {}\n", reloaded.error().ToString());
  }
}

int List(const IndexArgs& args) {
  auto loaded = LoadConfig(ConfigFile(args), UserDirs::FromEnvironment());
  if (!loaded) return ReportError("index --list", loaded.error());
  for (const std::string& warning : loaded->warnings) fmt::print(stderr, "quarry: {}\n", warning);
  for (const IndexRoot& root : loaded->config.roots) {
    fmt::print("{}\t{}\n", root.recursive ? "recursive" : "single", root.path.string());
  }
  return 0;
}

}  // namespace

CLI::App* AddIndexCommand(CLI::App& app, IndexArgs& args) {
  CLI::App* command = app.add_subcommand("index", "Choose what quarry-miner-fs indexes");
  auto* add = command->add_option("--add", args.add, "index this folder")->check(CLI::ExistingDirectory);
  auto* remove = command->add_option("--remove", args.remove, "stop indexing this folder");
  auto* file = command->add_option("--file", args.file, "index this file now")->check(CLI::ExistingFile);
  auto* list = command->add_flag("--list", args.list, "print the indexed folders");
  command->add_flag("--no-recursive", args.no_recursive, "with --add: the folder's own files only")
      ->needs(add);
  command->add_option("--config", args.config, "configuration file (default: $XDG_CONFIG_HOME/quarry/quarry.toml)");
  add->excludes(remove, file, list);
  remove->excludes(file, list);
  file->excludes(list);
  command->require_option(1);
  return command;
}

int RunIndex(const IndexArgs& args) {
  if (args.list) return List(args);
  if (!args.file.empty()) {
    const std::string path = std::filesystem::absolute(args.file).lexically_normal().string();
    auto queued = MinerIndexFile(path);
    if (!queued) return ReportError("index --file", queued.error());
    fmt::print("queued {}\n", path);
    return 0;
  }
  const UserDirs dirs = UserDirs::FromEnvironment();
  if (!args.add.empty()) {
    auto added = AddRootToConfigFile(ConfigFile(args), args.add, !args.no_recursive, dirs);
    if (!added) return ReportError("index --add", added.error());
    fmt::print("indexing {}{}\n", NormalizeFolder(args.add).string(), args.no_recursive ? " (not recursive)" : "");
  } else {
    auto removed = RemoveRootFromConfigFile(ConfigFile(args), args.remove, dirs);
    if (!removed) return ReportError("index --remove", removed.error());
    fmt::print("no longer indexing {}\n", NormalizeFolder(args.remove).string());
  }
  NotifyMiner();
  return 0;
}

}  // namespace quarry::cli
