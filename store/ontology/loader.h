// Loads the ontology from Turtle files: a directory of *.ontology files, or their texts.
//
// Files are read in file-name order; each declares its own @prefix lines. The store keeps the
// texts in its database and reloads the old ontology from them (LoadOntologyTexts) to diff it
// against the new one. Errors from a file are Errc::kOntology with a message that starts with
// "file:line:column: " (the file's name, not its path).
// Thread-safety: reentrant; the returned Ontology is immutable.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"

namespace quarry::ontology {

struct OntologyFile {
  std::string name;  // file name, e.g. "32-nfo.ontology"; names locations in messages
  std::string text;  // Turtle
};

// Every *.ontology file directly in `dir`, sorted by name. kNotFound when `dir` is missing or
// holds no *.ontology file; kIo when a file cannot be read.
Result<std::vector<OntologyFile>> ReadOntologyDir(const std::filesystem::path& dir);

// Parses and builds; the files are taken in name order whatever order they come in. While an
// Ontology built from the same files (names and texts) is alive in the process, that one is
// returned instead of a new copy (quarry-store's connections share one).
Result<std::shared_ptr<const Ontology>> LoadOntologyTexts(const std::vector<OntologyFile>& files);

// ReadOntologyDir + LoadOntologyTexts; errors get the directory as context.
Result<std::shared_ptr<const Ontology>> LoadOntologyDir(const std::filesystem::path& dir);

}  // namespace quarry::ontology
