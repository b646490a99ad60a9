// SqlProfile (store/engine/sql_profile.h): per-statement totals behind QUARRY_SQL_PROFILE.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "store/engine/sql_profile.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

struct Line {
  double milliseconds = 0;
  uint64_t runs = 0;
  uint64_t steps = 0;
  std::string sql;
};

std::vector<Line> ReadProfile(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<Line> lines;
  std::string text;
  while (std::getline(in, text)) {
    std::istringstream fields(text);
    Line line;
    fields >> line.milliseconds >> line.runs >> line.steps;
    fields.get();  // the tab before the SQL
    std::getline(fields, line.sql);
    lines.push_back(line);
  }
  return lines;
}

TEST_CASE("SqlProfile counts each run of a statement, its VM steps, and writes them on close") {
  TempDir dir;
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  const std::filesystem::path file = dir.path() / "profile.tsv";
  {
    auto profile = engine::SqlProfile::Attach(db, file);
    REQUIRE(sqlite3_exec(db, "CREATE TABLE t (x INTEGER)", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_stmt* insert = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1)", -1, &insert, nullptr) == SQLITE_OK);
    for (int i = 0; i < 3; ++i) {
      sqlite3_bind_int(insert, 1, i);
      CHECK(sqlite3_step(insert) == SQLITE_DONE);
      sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    const auto& totals = profile->totals();
    REQUIRE(totals.count("INSERT INTO t VALUES (?1)") == 1);
    const auto& inserts = totals.at("INSERT INTO t VALUES (?1)");
    CHECK(inserts.runs == 3);
    CHECK(inserts.vm_steps >= 3);  // per run, not the counter's running total read three times
    CHECK(inserts.vm_steps < 3 * 100);
    CHECK(totals.at("CREATE TABLE t (x INTEGER)").runs == 1);
  }
  // Detached: a statement after the profile is gone is not counted (and does not crash).
  REQUIRE(sqlite3_exec(db, "INSERT INTO t VALUES (9)", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  const std::vector<Line> lines = ReadProfile(file);
  REQUIRE(lines.size() >= 2);
  for (size_t i = 1; i < lines.size(); ++i) CHECK(lines[i - 1].milliseconds >= lines[i].milliseconds);
  bool found = false;
  for (const Line& line : lines) {
    CHECK(line.sql != "INSERT INTO t VALUES (9)");
    if (line.sql == "INSERT INTO t VALUES (?1)") {
      found = true;
      CHECK(line.runs == 3);
      CHECK(line.steps >= 3);
    }
  }
  CHECK(found);
}

TEST_CASE("QUARRY_SQL_PROFILE names the file a writable Store writes its statements to") {
  TempDir dir;
  const std::filesystem::path file = dir.path() / "store-profile.tsv";
  setenv("QUARRY_SQL_PROFILE", file.c_str(), 1);
  TestStore store;
  unsetenv("QUARRY_SQL_PROFILE");
  store.Update(kPrefixes + "INSERT DATA { <urn:s1> a ex:Song ; ex:title \"One\" }");
  store.Update(kPrefixes + "INSERT DATA { <urn:s2> a ex:Song ; ex:title \"Two\" }");
  store.Close();
  const std::vector<Line> lines = ReadProfile(file);
  REQUIRE_FALSE(lines.empty());
  uint64_t commits = 0;
  for (const Line& line : lines) {
    if (line.sql == "COMMIT") commits += line.runs;
  }
  CHECK(commits >= 2);

  // Without the variable nothing is traced.
  std::filesystem::remove(file);
  store.Reopen();
  store.Update(kPrefixes + "INSERT DATA { <urn:s3> a ex:Song }");
  store.Close();
  CHECK_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace quarry::testing
