// Shared pieces of the `quarry` subcommands: the database options, opening the store, reading
// request files and reporting errors in one shape ("quarry: <context>: <message>", exit 1).
// Thread-safety: main thread only.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/store.h"

namespace quarry::cli {

inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct StoreArgs {
  std::string database;
  std::string ontology;  // empty: engine::DefaultOntologyDir()
};

// --database DIR (required) and --ontology DIR.
void AddStoreOptions(CLI::App& command, StoreArgs& args);
Result<std::unique_ptr<engine::Store>> OpenStore(const StoreArgs& args);

// The whole text of `path`; "-" reads standard input.
Result<std::string> ReadTextFile(const std::string& path);

// Prints "quarry: <context>: <error>" to stderr and returns kExitFailure.
int ReportError(std::string_view context, const Error& error);

}  // namespace quarry::cli
