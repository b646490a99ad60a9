// The pure result of extracting one file: what a module found, before it becomes SPARQL,
// Turtle or JSON (ARCHITECTURE.md: "extractor field mapping" is a pure core).
//
// A module fills one Extraction. `element` is the nie:InformationElement the file holds
// (its IRI is chosen by the pipeline, not by the module); `related` are the other resources
// it names (artists, albums, tags, contacts, places), each with a deterministic IRI built by
// the module from its identifying values (see DeterministicIri in iri.h), so "all artists"
// has one row per artist however many files name it. File facts (nie:url, nfo:fileSize …)
// belong to miner-fs, never to a module.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace quarry::extract {

// A property value. Strings are UTF-8 (modules convert); Iri refers to another resource,
// typically one of Extraction::related; DateTime is an xsd:dateTime lexical form
// ("2024-05-01T10:00:00Z" or with an offset).
struct Iri {
  std::string value;
  friend bool operator==(const Iri&, const Iri&) = default;
};
struct DateTime {
  std::string lexical;
  friend bool operator==(const DateTime&, const DateTime&) = default;
};
using Value = std::variant<std::string, int64_t, double, bool, Iri, DateTime>;

struct PropertyValue {
  std::string property;  // full IRI, e.g. "http://tracker.api.gnome.org/ontology/v3/nmm#trackNumber"
  Value value;
  friend bool operator==(const PropertyValue&, const PropertyValue&) = default;
};

// One resource: its types (full IRIs) and property values in the order the module added them.
struct Description {
  std::string iri;  // empty for Extraction::element (the pipeline names it)
  std::vector<std::string> types;
  std::vector<PropertyValue> values;

  void AddType(std::string type_iri) { types.push_back(std::move(type_iri)); }
  void Add(std::string property_iri, Value value) {
    values.push_back({std::move(property_iri), std::move(value)});
  }
};

struct Extraction {
  std::string extractor;  // the module's name, recorded with the result (and with failures)
  Description element;    // the nie:InformationElement the file holds
  std::vector<Description> related;
};

}  // namespace quarry::extract
