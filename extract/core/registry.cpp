// Registry lookup: exact MIME type, then a "type/*" wildcard, then the file's extension
// (only when libmagic could not tell, see module.h).
#include <algorithm>
#include <cctype>

#include "extract/core/module.h"
#include "extract/core/mime.h"

namespace quarry::extract {
namespace {

bool MatchesWildcard(std::string_view pattern, std::string_view mime_type) {
  if (pattern.size() < 2 || pattern.substr(pattern.size() - 2) != "/*") return false;
  const std::string_view major = pattern.substr(0, pattern.size() - 1);  // "audio/"
  return mime_type.substr(0, major.size()) == major;
}

}  // namespace

void Registry::Register(std::unique_ptr<Module> module) { modules_.push_back(std::move(module)); }

const Module* Registry::Find(std::string_view mime_type, std::string_view file_name) const {
  for (const auto& module : modules_) {
    const auto types = module->mime_types();
    if (std::find(types.begin(), types.end(), mime_type) != types.end()) return module.get();
  }
  for (const auto& module : modules_) {
    for (const std::string& pattern : module->mime_types()) {
      if (MatchesWildcard(pattern, mime_type)) return module.get();
    }
  }
  if (!IsGenericMime(mime_type)) return nullptr;
  const std::string extension = LowerExtension(file_name);
  if (extension.empty()) return nullptr;
  for (const auto& module : modules_) {
    const auto extensions = module->extensions();
    if (std::find(extensions.begin(), extensions.end(), extension) != extensions.end()) {
      return module.get();
    }
  }
  return nullptr;
}

}  // namespace quarry::extract
