// Shared pieces of the extractor tests: the generated corpus and its MANIFEST.json (ground
// truth), and lookups into an Extraction by property.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "extract/core/extraction.h"
#include "extract/core/pipeline.h"

namespace quarry::testing {

inline const std::string kCorpusDir = QUARRY_EXTRACT_CORPUS_DIR;

// MANIFEST.json of the corpus, read once.
inline const nlohmann::json& Manifest() {
  static const nlohmann::json manifest = [] {
    std::ifstream in(kCorpusDir + "/MANIFEST.json");
    REQUIRE_MESSAGE(in.good(), "no corpus at " << kCorpusDir << " (built by extract_test)");
    return nlohmann::json::parse(in);
  }();
  return manifest;
}

// Manifest entries of the given kinds ("pdf", "mp3", "hostile" …).
inline std::vector<nlohmann::json> Entries(std::initializer_list<std::string_view> kinds) {
  std::vector<nlohmann::json> entries;
  for (const auto& entry : Manifest()["files"]) {
    const std::string kind = entry["kind"];
    for (const std::string_view wanted : kinds) {
      if (kind == wanted) entries.push_back(entry);
    }
  }
  return entries;
}

inline std::string CorpusPath(const nlohmann::json& entry) {
  return kCorpusDir + "/" + entry["path"].get<std::string>();
}

inline std::vector<extract::Value> Values(const extract::Description& description,
                                          std::string_view property) {
  std::vector<extract::Value> values;
  for (const auto& property_value : description.values) {
    if (property_value.property == property) values.push_back(property_value.value);
  }
  return values;
}

template <typename T>
std::optional<T> One(const extract::Description& description, std::string_view property) {
  const auto values = Values(description, property);
  if (values.size() != 1 || !std::holds_alternative<T>(values.front())) return std::nullopt;
  return std::get<T>(values.front());
}

inline const extract::Description* Related(const extract::Extraction& extraction,
                                           std::string_view iri) {
  for (const auto& description : extraction.related) {
    if (description.iri == iri) return &description;
  }
  return nullptr;
}

}  // namespace quarry::testing
