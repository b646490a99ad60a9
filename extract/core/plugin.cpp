#include "extract/core/plugin.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "extract/core/icu_runtime.h"

namespace quarry::extract {
namespace {

std::string ExecutablePath() {
  char buffer[4096];
  const ssize_t length = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return length > 0 ? std::string(buffer, static_cast<size_t>(length)) : std::string();
}

}  // namespace

std::string PluginDirectory() {
  if (const char* configured = std::getenv("QUARRY_EXTRACT_PLUGIN_DIR");
      configured != nullptr && *configured != '\0') {
    return configured;
  }
  const std::string executable = ExecutablePath();
  const std::string_view build_root = QUARRY_EXTRACT_BUILD_ROOT "/";
  if (executable.starts_with(build_root)) return QUARRY_EXTRACT_BUILD_PLUGIN_DIR;
  // An installed tree: bin/quarry and libexec/quarry-extract are one level below the prefix,
  // so <prefix>/lib/quarry/extract is found wherever the tree was installed or moved.
  if (const size_t slash = executable.rfind('/'); slash != std::string::npos && slash > 0) {
    const size_t parent = executable.rfind('/', slash - 1);
    if (parent != std::string::npos) {
      std::string beside = executable.substr(0, parent) + "/" QUARRY_EXTRACT_INSTALL_SUBDIR;
      if (access(beside.c_str(), F_OK) == 0) return beside;
    }
  }
  return QUARRY_EXTRACT_INSTALL_PLUGIN_DIR;
}

PluginModule::PluginModule(PluginSpec spec, std::string directory)
    : spec_(std::move(spec)), path_(std::move(directory) + "/" + spec_.file) {}

// The module's code lives in the plugin, which stays loaded (never dlclose'd), so deleting it
// here is safe at any time.
PluginModule::~PluginModule() = default;

Result<const Module*> PluginModule::Load() const {
  std::call_once(once_, [this] {
    auto fail = [this](std::string reason) {
      error_ = Error(Errc::kUnsupported,
                     fmt::format("extractor plugin {}: {}", path_, std::move(reason)));
    };
    // RTLD_LOCAL: the plugin's own copies of the core (hidden by its version script) and its
    // libraries' symbols stay out of the global scope; RTLD_NOW: a missing symbol fails here,
    // not in the middle of a file.
    void* handle = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* reason = dlerror();
      return fail(fmt::format("cannot load: {}", reason ? reason : "dlopen failed"));
    }
    dlerror();
    auto entry = reinterpret_cast<PluginEntry>(dlsym(handle, kPluginEntrySymbol));
    if (entry == nullptr) {
      return fail(fmt::format("not an extractor plugin: no {} symbol", kPluginEntrySymbol));
    }
    std::unique_ptr<Module> module(entry());
    if (!module) return fail("its entry returned no module");
    if (module->name() != spec_.name) {
      return fail(fmt::format("holds the module \"{}\", expected \"{}\"", module->name(), spec_.name));
    }
    module_ = std::move(module);
    loaded_.store(true, std::memory_order_release);
  });
  if (error_) return *error_;
  return module_.get();
}

bool PluginModule::loaded() const { return loaded_.load(std::memory_order_acquire); }

Result<void> PluginModule::Extract(const FileInput& file, const Limits& limits,
                                   Extraction& out) const {
  QUARRY_ASSIGN_OR_RETURN(const Module* module, Load());
  return module->Extract(file, limits, out);
}

Registry PluginRegistry(const std::string& directory) {
  Registry registry;
  for (const PluginSpec& spec : BuiltinPluginSpecs()) {
    registry.Register(std::make_unique<PluginModule>(spec, directory));
  }
  return registry;
}

Registry BuiltinRegistry() { return PluginRegistry(PluginDirectory()); }

Result<void> LoadAllPlugins(const Registry& registry) {
  // ICU as well, which DeterministicIri loads for the first name that is not ASCII: loaded
  // here, the plugins' later dlopen of the same name finds it without opening anything.
  dlopen(kIcuCommonLibrary, RTLD_NOW | RTLD_LOCAL);
  std::string failures;
  for (const auto& module : registry.modules()) {
    const auto* plugin = dynamic_cast<const PluginModule*>(module.get());
    if (plugin == nullptr) continue;
    if (auto loaded = plugin->Load(); !loaded) {
      if (!failures.empty()) failures += "; ";
      failures += loaded.error().ToString();
    }
  }
  if (!failures.empty()) return Error(Errc::kUnsupported, failures);
  return {};
}

}  // namespace quarry::extract
