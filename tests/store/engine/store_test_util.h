// A Store over the small test ontology in a temp dir, plus helpers to read query results.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "store/engine/store.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {

// Runs an update that must succeed, naming the update and the error when it does not.
inline void RequireUpdate(engine::Store& store, const std::string& sparql) {
  auto done = store.Update(sparql);
  INFO(sparql);
  INFO((done ? std::string() : done.error().ToString()));
  REQUIRE(done.ok());
}

// Every row of a query as "a|b|c"; `cell(cursor, i)` renders column i of the current row.
template <typename Cell>
std::vector<std::string> RequireRows(Result<engine::Cursor> cursor, const std::string& sparql,
                                     Cell cell) {
  INFO(sparql);
  INFO((cursor ? std::string() : cursor.error().ToString()));
  REQUIRE(cursor.ok());
  std::vector<std::string> rows;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    std::string row;
    for (int i = 0; i < cursor->ColumnCount(); ++i) {
      if (i) row += "|";
      row += cell(*cursor, i);
    }
    rows.push_back(row);
  }
  return rows;
}

class TestStore {
 public:
  TestStore() {
    ontology_dir_ = dir_.path() / "ontology";
    dir_.Write("ontology/10-base.ontology", kTestBase);
    dir_.Write("ontology/20-ex.ontology", kTestDomain);
    Reopen();
  }

  void Reopen() {
    store_.reset();
    auto opened = engine::Store::Open({dir_.path() / "db", ontology_dir_, false});
    INFO((opened ? std::string() : opened.error().ToString()));
    REQUIRE(opened.ok());
    store_ = std::move(*opened);
  }
  void Close() { store_.reset(); }
  void SetDomainOntology(const std::string& text) { dir_.Write("ontology/20-ex.ontology", text); }

  engine::Store& operator*() { return *store_; }
  engine::Store* operator->() { return store_.get(); }
  const TempDir& dir() const { return dir_; }

  void Update(const std::string& sparql) { RequireUpdate(*store_, sparql); }
  // The error text of an update expected to fail.
  std::string UpdateError(const std::string& sparql) {
    auto done = store_->Update(sparql);
    INFO(sparql);
    REQUIRE_FALSE(done.ok());
    return done.error().ToString();
  }
  // Rows as "a|b|c" with unbound shown as "-".
  std::vector<std::string> Rows(const std::string& sparql,
                                const engine::QueryParameters& parameters = {}) {
    return RequireRows(store_->Query(sparql, parameters), sparql,
                       [](engine::Cursor& cursor, int i) {
                         return cursor.IsBound(i) ? std::string(cursor.GetString(i)) : "-";
                       });
  }

 private:
  TempDir dir_;
  std::filesystem::path ontology_dir_;
  std::unique_ptr<engine::Store> store_;
};

inline const std::string kPrefixes = "PREFIX ex: <http://example.org/ex#>\n";

// The SQL and SQLite's plan of `query` (ex: and xsd: declared), shown when a check fails.
inline std::string Explain(TestStore& store, const std::string& query) {
  auto plan = store->Explain(kPrefixes + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + query);
  INFO((plan ? std::string() : plan.error().ToString()));
  REQUIRE(plan.ok());
  INFO(*plan);
  return *plan;
}

}  // namespace quarry::testing
