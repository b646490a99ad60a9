// Registry lookup: exact MIME type, then a "type/*" wildcard, then the same for the type's
// shared-mime-info ancestors (application/toml and application/x-yaml are text/plain, so the
// text module takes them), then the file's extension (only for a vague type, see module.h).
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

const Module* FindByType(const std::vector<std::unique_ptr<Module>>& modules,
                         std::string_view mime_type) {
  for (const auto& module : modules) {
    const auto types = module->mime_types();
    if (std::find(types.begin(), types.end(), mime_type) != types.end()) return module.get();
  }
  for (const auto& module : modules) {
    for (const std::string& pattern : module->mime_types()) {
      if (MatchesWildcard(pattern, mime_type)) return module.get();
    }
  }
  return nullptr;
}

}  // namespace

void Registry::Register(std::unique_ptr<Module> module) { modules_.push_back(std::move(module)); }

const Module* Registry::Find(std::string_view mime_type, std::string_view file_name) const {
  if (const Module* module = FindByType(modules_, mime_type)) return module;
  // Breadth-first over the ancestors, nearest first (bounded: a broken subclasses file must
  // not loop).
  const MimeDatabase& database = MimeInfo();
  std::vector<std::string_view> frontier = database.Parents(mime_type);
  for (int depth = 0; depth < 8 && !frontier.empty(); ++depth) {
    std::vector<std::string_view> next;
    for (std::string_view parent : frontier) {
      if (parent == "application/octet-stream") continue;
      if (const Module* module = FindByType(modules_, parent)) return module;
      for (std::string_view grandparent : database.Parents(parent)) next.push_back(grandparent);
    }
    frontier = std::move(next);
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
