// A quarry-store on a private bus serving a fresh database with the test ontology, plus helpers
// that read a whole cursor into comparable text.
#pragma once

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "quarry/connection.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/bus_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {

inline const std::string kEx = "PREFIX ex: <http://example.org/ex#>\n";

struct StoreFixture {
  StoreFixture() {
    dir.Write("ontology/10-base.ontology", kTestBase);
    dir.Write("ontology/20-ex.ontology", kTestDomain);
    bus.StartStore(database(), ontology());
  }
  std::filesystem::path database() const { return dir / "db"; }
  std::filesystem::path ontology() const { return dir / "ontology"; }

  std::unique_ptr<Connection> Bus(QueryTransport transport = QueryTransport::kFdStream) {
    auto connection = Connection::Bus(bus.options());
    INFO((connection ? std::string() : connection.error().ToString()));
    REQUIRE(connection.ok());
    (*connection)->SetQueryTransport(transport);
    return std::move(*connection);
  }
  std::unique_ptr<Connection> Direct() {
    auto connection = Connection::Direct(database(), ontology());
    INFO((connection ? std::string() : connection.error().ToString()));
    REQUIRE(connection.ok());
    return std::move(*connection);
  }

  TempDir dir;
  BusFixture bus;
};

// Every row; each value as "kind:text@lang" (typed) or its text alone.
inline std::vector<std::vector<std::string>> ReadRows(Cursor& cursor, bool typed) {
  std::vector<std::vector<std::string>> rows;
  for (;;) {
    const auto has_row = cursor.Next();
    REQUIRE_MESSAGE(has_row.ok(), (has_row ? std::string() : has_row.error().ToString()));
    if (!*has_row) break;
    std::vector<std::string>& row = rows.emplace_back();
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      if (!typed) {
        row.emplace_back(cursor.GetString(i));
        continue;
      }
      row.push_back(fmt::format("{}:{}@{}", static_cast<int>(cursor.Kind(i)), cursor.GetString(i),
                                cursor.GetLanguage(i)));
    }
  }
  return rows;
}

inline std::vector<std::vector<std::string>> QueryRows(Connection& connection,
                                                       const std::string& sparql, bool typed) {
  auto cursor = connection.Query(sparql);
  INFO(sparql);
  REQUIRE_MESSAGE(cursor.ok(), (cursor ? std::string() : cursor.error().ToString()));
  return ReadRows(*cursor, typed);
}

}  // namespace quarry::testing
