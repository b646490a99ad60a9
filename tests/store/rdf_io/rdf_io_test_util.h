// A TestStore (small test ontology, temp dir) with helpers to import RDF text and export it.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <sstream>
#include <string>

#include "store/engine/rdf_io/exporter.h"
#include "store/engine/rdf_io/importer.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {

inline const std::string kTurtlePrefixes =
    "@prefix ex: <http://example.org/ex#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n";

class RdfIoStore : public TestStore {
 public:
  // Writes `text` to a file named `name` in the test directory and imports it in one
  // transaction.
  Result<engine::rdf_io::ImportStats> Import(const std::string& name, const std::string& text,
                                             std::optional<std::string> graph = std::nullopt) {
    const std::filesystem::path file = dir().Write(name, text);
    return engine::rdf_io::ImportFile((*this)->database(), (*this)->ontology(), file,
                                      std::move(graph));
  }
  void ImportOk(const std::string& name, const std::string& text,
                std::optional<std::string> graph = std::nullopt) {
    const auto stats = Import(name, text, std::move(graph));
    INFO((stats ? std::string() : stats.error().ToString()));
    REQUIRE(stats.ok());
  }
  // The error text of an import expected to fail.
  std::string ImportError(const std::string& name, const std::string& text) {
    const auto stats = Import(name, text);
    REQUIRE_FALSE(stats.ok());
    return stats.error().ToString();
  }
  std::string Export(engine::rdf_io::ExportFormat format = engine::rdf_io::ExportFormat::kTurtle,
                     std::optional<std::string> graph = std::nullopt) {
    std::ostringstream out;
    engine::rdf_io::ExportOptions options;
    options.format = format;
    options.graph = std::move(graph);
    const auto stats =
        engine::rdf_io::ExportRdf((*this)->database(), (*this)->ontology(), options, out);
    INFO((stats ? std::string() : stats.error().ToString()));
    REQUIRE(stats.ok());
    return out.str();
  }
  std::string path(const std::string& name) const { return (dir() / name).string(); }
};

}  // namespace quarry::testing
