#include "store/ontology/loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>

#include "store/ontology/definitions.h"
#include "store/ontology/turtle_reader.h"

namespace quarry::ontology {

namespace {

constexpr std::string_view kExtension = ".ontology";

// The Ontology built from one set of files, while anybody still holds it: quarry-store opens
// its writer and every reader connection from the same texts, and each built its own copy
// (~1.1 MiB each, five of them). The texts are kept to compare exactly (~130 KB).
struct CachedOntology {
  std::vector<OntologyFile> files;  // in name order
  std::weak_ptr<const Ontology> ontology;
};

std::mutex& CacheMutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<CachedOntology>& Cache() {  // holds CacheMutex()
  static std::vector<CachedOntology> cache;
  return cache;
}

bool SameFiles(const std::vector<OntologyFile>& cached, const std::vector<const OntologyFile*>& ordered) {
  return cached.size() == ordered.size() &&
         std::equal(cached.begin(), cached.end(), ordered.begin(),
                    [](const OntologyFile& a, const OntologyFile* b) {
                      return a.name == b->name && a.text == b->text;
                    });
}

Result<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  if (stream) text << stream.rdbuf();
  if (!stream || stream.bad()) {
    return Error(Errc::kIo, fmt::format("cannot read {}", path.string()));
  }
  return text.str();
}

}  // namespace

Result<std::vector<OntologyFile>> ReadOntologyDir(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::directory_iterator entries(dir, error);
  if (error) {
    return Error(Errc::kNotFound, fmt::format("cannot list ontology directory {}: {}", dir.string(),
                                              error.message()));
  }
  std::vector<std::filesystem::path> paths;
  for (const std::filesystem::directory_entry& entry : entries) {
    if (entry.path().extension() == kExtension && entry.is_regular_file(error)) {
      paths.push_back(entry.path());
    }
  }
  if (paths.empty()) {
    return Error(Errc::kNotFound, fmt::format("no *{} files in {}", kExtension, dir.string()));
  }
  std::sort(paths.begin(), paths.end(), [](const auto& a, const auto& b) {
    return a.filename().string() < b.filename().string();
  });
  std::vector<OntologyFile> files;
  for (const std::filesystem::path& path : paths) {
    QUARRY_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    files.push_back({path.filename().string(), std::move(text)});
  }
  return files;
}

Result<std::shared_ptr<const Ontology>> LoadOntologyTexts(const std::vector<OntologyFile>& files) {
  std::vector<const OntologyFile*> ordered;
  for (const OntologyFile& file : files) ordered.push_back(&file);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const OntologyFile* a, const OntologyFile* b) { return a->name < b->name; });
  {
    const std::lock_guard lock(CacheMutex());
    auto& cache = Cache();
    std::erase_if(cache, [](const CachedOntology& entry) { return entry.ontology.expired(); });
    for (const CachedOntology& entry : cache) {
      if (!SameFiles(entry.files, ordered)) continue;
      if (auto shared = entry.ontology.lock()) return shared;
    }
  }
  std::vector<TurtleDocument> documents;
  for (size_t i = 0; i < ordered.size(); ++i) {
    if (i > 0 && ordered[i]->name == ordered[i - 1]->name) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("ontology file {} given twice", ordered[i]->name));
    }
    QUARRY_ASSIGN_OR_RETURN(TurtleDocument document,
                            ReadTurtle(ordered[i]->name, ordered[i]->text));
    documents.push_back(std::move(document));
  }
  QUARRY_ASSIGN_OR_RETURN(Ontology::Draft draft, CollectDefinitions(documents));
  QUARRY_ASSIGN_OR_RETURN(std::shared_ptr<const Ontology> built, Ontology::Build(std::move(draft)));
  CachedOntology entry;
  for (const OntologyFile* file : ordered) entry.files.push_back(*file);
  entry.ontology = built;
  const std::lock_guard lock(CacheMutex());
  Cache().push_back(std::move(entry));
  return built;
}

Result<std::shared_ptr<const Ontology>> LoadOntologyDir(const std::filesystem::path& dir) {
  auto loaded = [&]() -> Result<std::shared_ptr<const Ontology>> {
    QUARRY_ASSIGN_OR_RETURN(const std::vector<OntologyFile> files, ReadOntologyDir(dir));
    return LoadOntologyTexts(files);
  }();
  if (!loaded) return std::move(loaded).error().WithContext("ontology " + dir.string());
  return loaded;
}

}  // namespace quarry::ontology
