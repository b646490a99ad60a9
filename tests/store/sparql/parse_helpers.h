// Helpers shared by the parser tests: parse or fail the test, fetch pattern elements by type.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "store/sparql/parser.h"

namespace quarry::sparql::testing {

inline ParseOptions TestOptions(bool strict = false) {
  ParseOptions options;
  options.strict = strict;
  options.prefixes = {{"ex", "http://example.org/"},
                      {"nie", "http://tracker.api.gnome.org/ontology/v3/nie#"},
                      {"nfo", "http://tracker.api.gnome.org/ontology/v3/nfo#"},
                      {"nmm", "http://tracker.api.gnome.org/ontology/v3/nmm#"},
                      {"fts", "http://tracker.api.gnome.org/ontology/v3/fts#"},
                      {"rdfs", "http://www.w3.org/2000/01/rdf-schema#"},
                      {"tracker", "http://tracker.api.gnome.org/ontology/v3/tracker#"},
                      {"xsd", "http://www.w3.org/2001/XMLSchema#"}};
  return options;
}

inline Query MustParseQuery(std::string_view text, bool strict = false) {
  Result<Query> query = ParseQuery(text, TestOptions(strict));
  REQUIRE_MESSAGE(query.ok(), (query.ok() ? "" : query.error().message()));
  return std::move(query).value();
}

inline Update MustParseUpdate(std::string_view text, bool strict = false) {
  Result<Update> update = ParseUpdate(text, TestOptions(strict));
  REQUIRE_MESSAGE(update.ok(), (update.ok() ? "" : update.error().message()));
  return std::move(update).value();
}

// The message of the error a query must produce ("" when it parses).
inline std::string QueryError(std::string_view text, bool strict = false) {
  Result<Query> query = ParseQuery(text, TestOptions(strict));
  return query.ok() ? std::string() : query.error().message();
}

inline std::string UpdateError(std::string_view text, bool strict = false) {
  Result<Update> update = ParseUpdate(text, TestOptions(strict));
  return update.ok() ? std::string() : update.error().message();
}

// The S-expression of a query's WHERE clause elements, one line ("(where ...)").
inline std::string WhereOf(std::string_view text, bool strict = false) {
  const std::string printed = ToSExpression(MustParseQuery(text, strict));
  const size_t where = printed.find("(where");
  REQUIRE(where != std::string::npos);
  return printed.substr(where);
}

template <typename T>
const T& ElementAs(const GroupGraphPattern& group, size_t index) {
  REQUIRE(index < group.elements.size());
  const T* element = std::get_if<T>(&group.elements[index].node);
  REQUIRE(element != nullptr);
  return *element;
}

}  // namespace quarry::sparql::testing
