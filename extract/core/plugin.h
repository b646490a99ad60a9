// Extractor plugins: each module family whose libraries are heavy (poppler, TagLib, Exiv2,
// libxml2 + libzip, uchardet + ICU) is a shared object in the plugin directory, loaded with
// dlopen the first time a file of its MIME type (or extension) is extracted. A process that
// extracts one PDF maps poppler and nothing else (bench/extract/README.md has the start-up cost
// before and after).
//
// The registry knows each plugin's name, MIME types and extensions without loading it (the
// table in builtin_registry.cpp); tests/extract/plugin_test.cpp loads every plugin and checks
// that its module says the same. A plugin exports one C symbol, kPluginEntrySymbol, returning
// a new Module; it is built from this tree with the same compiler (no stable ABI is promised:
// the version is in the symbol's name). Plugins are never unloaded.
//
// Thread-safety: PluginModule::Load and Extract may be called from any thread; the first call
// loads the plugin, the others wait for it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "extract/core/module.h"

namespace quarry::extract {

// v2 (session 25): Limits gained text_allowlist.
inline constexpr char kPluginEntrySymbol[] = "quarry_extract_module_v2";
using PluginEntry = Module* (*)();

struct PluginSpec {
  std::string name;  // the module's name(), checked on load
  std::string file;  // "quarry-extract-pdf.so", inside the plugin directory
  std::vector<std::string> mime_types;
  std::vector<std::string> extensions;
};

// Where the plugins are: $QUARRY_EXTRACT_PLUGIN_DIR when set and not empty; else, for an
// executable inside the build tree, the build tree's plugin directory
// (<build>/extract/plugins); else lib/quarry/extract beside the executable's folder
// (<prefix>/bin/quarry, <prefix>/libexec/quarry-extract → <prefix>/lib/quarry/extract) when it
// exists; else the configured <prefix>/lib/quarry/extract.
std::string PluginDirectory();

// A module that stands for a plugin: name, MIME types and extensions from its spec; Extract
// loads the plugin on first use and runs its module. A plugin that cannot be loaded (missing
// file, not a shared object, no entry symbol, a module of another name) makes every Extract
// fail with the same Errc::kUnsupported error naming the plugin's file and the reason.
class PluginModule final : public Module {
 public:
  PluginModule(PluginSpec spec, std::string directory);
  ~PluginModule() override;

  std::string_view name() const override { return spec_.name; }
  std::vector<std::string> mime_types() const override { return spec_.mime_types; }
  std::vector<std::string> extensions() const override { return spec_.extensions; }
  Result<void> Extract(const FileInput& file, const Limits& limits,
                       Extraction& out) const override;

  // Loads the plugin now (once); the loaded module, or the load error.
  Result<const Module*> Load() const;
  // Whether Load() has succeeded already (nothing is loaded by asking).
  bool loaded() const;
  // <directory>/<file>
  const std::string& path() const { return path_; }

 private:
  PluginSpec spec_;
  std::string path_;
  mutable std::once_flag once_;
  mutable std::unique_ptr<Module> module_;
  mutable std::optional<Error> error_;
  mutable std::atomic<bool> loaded_{false};
};

// The built-in plugins, in registration order (the first exact MIME match wins).
const std::vector<PluginSpec>& BuiltinPluginSpecs();

// BuiltinRegistry() with the plugins of `directory` (tests point it at a missing or broken one).
Registry PluginRegistry(const std::string& directory);

// Loads every plugin of `registry` now, and ICU (icu_runtime.h), which DeterministicIri loads
// for non-ASCII names (the quarry-extract worker does, before its seccomp filter, so no file
// pays the load and nothing is opened or mapped as code after the filter is in).
// The error lists every plugin that failed; the others are loaded all the same.
Result<void> LoadAllPlugins(const Registry& registry);

}  // namespace quarry::extract
