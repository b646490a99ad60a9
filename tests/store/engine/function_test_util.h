// Evaluating one SPARQL expression on a real store and reading back its value and type, for
// the function-library tests.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {

inline const std::string kFunctionPrefixes =
    kPrefixes +
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
    "PREFIX tracker: <http://tracker.api.gnome.org/ontology/v3/tracker#>\n"
    "PREFIX fts: <http://tracker.api.gnome.org/ontology/v3/fts#>\n";

// The first row's columns as "value^kind" ("3^integer", "FOO@en^langstring", "-" unbound),
// joined with " | ".
inline std::string Typed(engine::Store& store, const std::string& query,
                         const engine::QueryParameters& parameters = {}) {
  auto cursor = store.Query(kFunctionPrefixes + query, parameters);
  INFO(query);
  INFO((cursor ? std::string() : cursor.error().ToString()));
  REQUIRE(cursor.ok());
  auto has_row = cursor->Next();
  REQUIRE(has_row.ok());
  if (!*has_row) return "no row";
  std::string row;
  for (int i = 0; i < cursor->ColumnCount(); ++i) {
    if (i) row += " | ";
    const engine::ValueKind kind = cursor->Kind(i);
    if (kind == engine::ValueKind::kUnbound) {
      row += "-";
      continue;
    }
    row += std::string(cursor->GetString(i));
    const std::string_view lang = cursor->GetLanguage(i);
    if (!lang.empty()) row += "@" + std::string(lang);
    row += "^" + std::string(engine::ValueKindName(kind));
  }
  return row;
}

// SELECT (expression AS ?v) {}
inline std::string Eval(engine::Store& store, const std::string& expression) {
  return Typed(store, "SELECT (" + expression + " AS ?v) {}");
}

// The error text of a query expected to fail.
inline std::string QueryError(engine::Store& store, const std::string& query,
                              const engine::QueryParameters& parameters = {}) {
  auto cursor = store.Query(kFunctionPrefixes + query, parameters);
  INFO(query);
  if (!cursor.ok()) return cursor.error().ToString();
  for (;;) {
    auto has_row = cursor->Next();
    if (!has_row.ok()) return has_row.error().ToString();
    if (!*has_row) break;
  }
  FAIL("the query did not fail");
  return {};
}

}  // namespace quarry::testing
