// An open-mode Store (SCHEMA.md "Open mode") in a temp dir, with rows read as full terms.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "store/engine/store.h"
#include "tests/store/engine/store_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {

inline const std::string kXsd = "http://www.w3.org/2001/XMLSchema#";

// A typed literal as OpenStore::Rows prints it: Typed("3", "decimal") is "\"3\"^^<...#decimal>".
inline std::string Typed(const std::string& lexical, const std::string& xsd_type) {
  return "\"" + lexical + "\"^^<" + kXsd + xsd_type + ">";
}

class OpenStore {
 public:
  OpenStore() { Reopen(); }
  void Reopen() {
    store_.reset();
    engine::StoreOptions options;
    options.directory = dir_.path() / "db";
    options.open_mode = true;
    auto opened = engine::Store::Open(options);
    INFO((opened ? std::string() : opened.error().ToString()));
    REQUIRE(opened.ok());
    store_ = std::move(*opened);
  }
  void Close() { store_.reset(); }
  std::filesystem::path database_file() const { return dir_.path() / "db" / "meta.db"; }
  engine::Store& store() { return *store_; }
  void Update(const std::string& sparql) { RequireUpdate(*store_, sparql); }
  // Rows of full terms in N-Triples-like form ("<iri>", "\"01\"^^<...>"), "-" when unbound.
  std::vector<std::string> Rows(const std::string& sparql) {
    return RequireRows(store_->Query(sparql), sparql, [](engine::Cursor& cursor, int i) {
      const auto term = cursor.GetTerm(i);
      return term ? term->ToString() : std::string("-");
    });
  }

 private:
  TempDir dir_;
  std::unique_ptr<engine::Store> store_;
};

}  // namespace quarry::testing
