// Shared pieces of the ontology tests: a base ontology text and loading helpers.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/ontology/loader.h"
#include "store/ontology/ontology.h"

namespace quarry::ontology::testing {

// All prefixes on one line, so that a test body's line N is line N + 1 of its file.
inline constexpr std::string_view kPrefixLine =
    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> . "
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . "
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> . "
    "@prefix nrl: <http://tracker.api.gnome.org/ontology/v3/nrl#> . "
    "@prefix ex: <http://example.org/ex#> .\n";

// 10-base.ontology: rdfs:Resource, ex:Thing with ex:name (single) and ex:tags (multi), and
// ex:Sub under ex:Thing.
inline std::string BaseText() {
  return std::string(kPrefixLine) +
         "rdfs:Resource a rdfs:Class .\n"
         "ex:Thing a rdfs:Class .\n"
         "ex:Sub a rdfs:Class ; rdfs:subClassOf ex:Thing .\n"
         "ex:name a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:string ; "
         "nrl:maxCardinality 1 .\n"
         "ex:tags a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:string .\n";
}

// Loads the base plus "20-test.ontology" = prefix line + `body`.
inline Result<std::shared_ptr<const Ontology>> LoadWithBase(std::string_view body) {
  return LoadOntologyTexts({{"10-base.ontology", BaseText()},
                            {"20-test.ontology", std::string(kPrefixLine) + std::string(body)}});
}

// The message of the kOntology error that loading `body` must give.
inline std::string LoadError(std::string_view body) {
  const auto loaded = LoadWithBase(body);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().code() == Errc::kOntology);
  return loaded.error().message();
}

inline std::string TestDataDir() { return QUARRY_TEST_DATA_DIR; }

}  // namespace quarry::ontology::testing
