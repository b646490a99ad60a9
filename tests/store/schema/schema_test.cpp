// Schema generation: the DDL runs on real SQLite, domain-index mirrors follow every write, the
// full-text table finds what the view holds, and migration plans move data without loss.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/ontology/loader.h"
#include "store/schema/ddl.h"
#include "store/schema/fts.h"
#include "store/schema/migration_plan.h"
#include "store/schema/names.h"
#include "tests/store/schema/test_ontology.h"

namespace quarry::schema {
namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};

class MemoryDb {
 public:
  MemoryDb() {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(":memory:", &raw) == SQLITE_OK);
    db_.reset(raw);
  }
  void Exec(const std::string& sql) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &message);
    INFO(sql);
    INFO((message ? message : ""));
    sqlite3_free(message);
    REQUIRE(rc == SQLITE_OK);
  }
  void ExecAll(const std::vector<std::string>& statements) {
    for (const std::string& sql : statements) Exec(sql);
  }
  // First column of every row, as text ("NULL" for NULL).
  std::vector<std::string> Column(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    std::vector<std::string> values;
    while (sqlite3_step(statement) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(statement, 0);
      values.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
    }
    sqlite3_finalize(statement);
    return values;
  }
  std::string One(const std::string& sql) {
    const auto values = Column(sql);
    REQUIRE(values.size() == 1);
    return values[0];
  }
  // The engine's full-text write (triple_writer_remove.cpp): the row of resource `id` read
  // with FtsSelectRowsSql ("R.ID = ?1"), then, when it has one, its values bound to
  // FtsWriteValuesSql. False when the resource has no full-text row.
  bool WriteFtsRow(const ontology::Ontology& ontology, int64_t id, bool remove) {
    const std::string read = FtsSelectRowsSql(ontology, "R.ID = ?1");
    const std::string write = FtsWriteValuesSql(ontology, remove);
    INFO(read);
    sqlite3_stmt* select = nullptr;
    REQUIRE(sqlite3_prepare_v2(db_.get(), read.c_str(), -1, &select, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_bind_int64(select, 1, id) == SQLITE_OK);
    const int rc = sqlite3_step(select);
    if (rc == SQLITE_ROW) {
      INFO(write);
      sqlite3_stmt* statement = nullptr;
      REQUIRE(sqlite3_prepare_v2(db_.get(), write.c_str(), -1, &statement, nullptr) == SQLITE_OK);
      for (int i = 0; i < sqlite3_column_count(select); ++i) {
        REQUIRE(sqlite3_bind_value(statement, i + 1, sqlite3_column_value(select, i)) == SQLITE_OK);
      }
      CHECK(sqlite3_step(statement) == SQLITE_DONE);
      sqlite3_finalize(statement);
    } else {
      CHECK(rc == SQLITE_DONE);
    }
    sqlite3_finalize(select);
    return rc == SQLITE_ROW;
  }

 private:
  std::unique_ptr<sqlite3, DbCloser> db_;
};

std::shared_ptr<const ontology::Ontology> LoadTest(const std::string& domain_text) {
  auto loaded = ontology::LoadOntologyTexts(
      {{"10-base.ontology", testing::kTestBase}, {"20-ex.ontology", domain_text}});
  INFO((loaded ? std::string() : loaded.error().ToString()));
  REQUIRE(loaded.ok());
  return *loaded;
}

TEST_CASE("schema: class tables hold single-valued columns, multi-valued get tables") {
  const auto onto = LoadTest(testing::kTestDomain);
  MemoryDb db;
  db.ExecAll(CreateSchemaSql(*onto));
  const auto columns = db.Column("SELECT name FROM pragma_table_info('ex:Element')");
  CHECK(columns == std::vector<std::string>{"ID", "ex:title", "ex:title:graph", "ex:content",
                                            "ex:content:graph", "ex:created", "ex:created:graph",
                                            "ex:size", "ex:size:graph"});
  // The domain index mirrors ex:title into the subclass table.
  const auto song = db.Column("SELECT name FROM pragma_table_info('ex:Song')");
  CHECK(song == std::vector<std::string>{"ID", "ex:track", "ex:track:graph", "ex:performer",
                                         "ex:performer:graph", "ex:title"});
  CHECK(db.Column("SELECT name FROM pragma_table_info('ex:Element_ex:keyword')") ==
        std::vector<std::string>{"ID", "ex:keyword", "ex:keyword:graph"});
  CHECK(db.Column("SELECT name FROM pragma_table_info('rdfs:Resource_rdf:type')").size() == 3);
  const auto indexes = db.Column(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  CHECK(indexes == std::vector<std::string>{"ex:Element_ex:size", "ex:Song_ex:performer",
                                            "ex:Song_ex:title"});
  // Every class and property has a Resource row, so signal IDs resolve.
  CHECK(db.One("SELECT count(*) FROM Resource") ==
        std::to_string(onto->classes().size() + onto->properties().size()));
  CHECK(db.One("SELECT value FROM quarry_meta WHERE key = 'schema_version'") == "3");
  // Multi-valued tables, rdf:type's included, are WITHOUT ROWID keyed (ID, value, graph): one
  // b-tree per row, no separate index for the key (a rowid table's UNIQUE made one).
  for (const char* table : {"ex:Element_ex:keyword", "rdfs:Resource_rdf:type", "ex:Song_ex:genre"}) {
    CAPTURE(table);
    CHECK(db.One(std::string("SELECT sql FROM sqlite_master WHERE name = '") + table + "'")
              .find("PRIMARY KEY (ID, ") != std::string::npos);
    CHECK(db.One(std::string("SELECT sql FROM sqlite_master WHERE name = '") + table + "'")
              .find("WITHOUT ROWID") != std::string::npos);
    CHECK(db.One(std::string("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                             "tbl_name = '") + table + "'") == "0");  // the key is the table
  }
  db.Exec("INSERT OR IGNORE INTO \"ex:Song_ex:genre\" VALUES (7, 'jazz', 0), (7, 'jazz', 0), "
          "(7, 'jazz', 3)");
  CHECK(db.One("SELECT count(*) FROM \"ex:Song_ex:genre\" WHERE ID = 7") == "2");
}

TEST_CASE("schema: the domain-index mirror follows inserts, updates, deletes and late types") {
  const auto onto = LoadTest(testing::kTestDomain);
  MemoryDb db;
  db.ExecAll(CreateSchemaSql(*onto));
  db.Exec("INSERT INTO \"ex:Element\" (ID, \"ex:title\") VALUES (100, 'Zebra')");
  db.Exec("INSERT INTO \"ex:Song\" (ID) VALUES (100)");  // type added after the value
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 100") == "Zebra");
  db.Exec("UPDATE \"ex:Element\" SET \"ex:title\" = 'Aardvark' WHERE ID = 100");
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 100") == "Aardvark");
  db.Exec("INSERT INTO \"ex:Song\" (ID) VALUES (101)");
  db.Exec("INSERT INTO \"ex:Element\" (ID, \"ex:title\") VALUES (101, 'Mango')");
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 101") == "Mango");
  db.Exec("UPDATE \"ex:Element\" SET \"ex:title\" = NULL WHERE ID = 101");
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 101") == "NULL");
  db.Exec("DELETE FROM \"ex:Element\" WHERE ID = 100");
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 100") == "NULL");
  // The ORDER BY the seed cares about is answered from the subclass table's own index.
  const auto plan = db.Column(
      "EXPLAIN QUERY PLAN SELECT ID FROM \"ex:Song\" ORDER BY \"ex:title\"");
  REQUIRE(!plan.empty());
}

TEST_CASE("schema: a new subclass row may carry its mirror, a wrong one is corrected") {
  const auto onto = LoadTest(testing::kTestDomain);
  MemoryDb db;
  db.ExecAll(CreateSchemaSql(*onto));
  db.Exec("INSERT INTO \"ex:Element\" (ID, \"ex:title\") VALUES (200, 'Set'), (201, 'Real')");
  // The engine's bulk path writes the mirror itself: the trigger must leave it (no UPDATE).
  db.Exec("CREATE TABLE song_updates (ID INTEGER)");
  db.Exec("CREATE TRIGGER count_updates AFTER UPDATE ON \"ex:Song\" BEGIN "
          "INSERT INTO song_updates VALUES (NEW.ID); END");
  db.Exec("INSERT INTO \"ex:Song\" (ID, \"ex:title\") VALUES (200, 'Set')");
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 200") == "Set");
  CHECK(db.One("SELECT count(*) FROM song_updates") == "0");
  // Whoever writes a stale value gets the superclass value.
  db.Exec("INSERT INTO \"ex:Song\" (ID, \"ex:title\") VALUES (201, 'Stale')");
  CHECK(db.One("SELECT \"ex:title\" FROM \"ex:Song\" WHERE ID = 201") == "Real");
}

TEST_CASE("schema: full text indexes view rows, accent- and case-insensitively") {
  const auto onto = LoadTest(testing::kTestDomain);
  MemoryDb db;
  db.ExecAll(CreateSchemaSql(*onto));
  db.Exec("INSERT INTO \"rdfs:Resource\" (ID) VALUES (7)");
  db.Exec("INSERT INTO \"ex:Element\" (ID, \"ex:title\") VALUES (7, 'Café Müller')");
  db.Exec("INSERT INTO \"ex:Element_ex:keyword\" (ID, \"ex:keyword\") VALUES (7, 'ballet'), (7, 'Pina')");
  db.Exec("INSERT INTO \"rdfs:Resource\" (ID) VALUES (8)");  // no text: no index row
  CHECK(db.WriteFtsRow(*onto, 7, /*remove=*/false));
  CHECK_FALSE(db.WriteFtsRow(*onto, 8, /*remove=*/false));
  CHECK(db.One("SELECT count(*) FROM fts5") == "1");
  CHECK(db.One("SELECT rowid FROM fts5 WHERE fts5 MATCH 'cafe'") == "7");
  CHECK(db.One("SELECT rowid FROM fts5 WHERE fts5 MATCH 'MULLER'") == "7");
  CHECK(db.One("SELECT rowid FROM fts5 WHERE fts5 MATCH 'pina'") == "7");
  // Delete with the old values, change, insert again: the index follows.
  CHECK(db.WriteFtsRow(*onto, 7, /*remove=*/true));
  db.Exec("UPDATE \"ex:Element\" SET \"ex:title\" = 'Vollmond' WHERE ID = 7");
  CHECK(db.WriteFtsRow(*onto, 7, /*remove=*/false));
  CHECK(db.Column("SELECT rowid FROM fts5 WHERE fts5 MATCH 'cafe'").empty());
  CHECK(db.One("SELECT rowid FROM fts5 WHERE fts5 MATCH 'vollmond'") == "7");
  db.Exec("INSERT INTO fts5(fts5) VALUES ('integrity-check')");
}

}  // namespace
}  // namespace quarry::schema

namespace quarry::schema {
namespace {

TEST_CASE("schema: the project's ontology creates a working schema with the pipeline's indexes") {
  auto loaded = ontology::LoadOntologyDir(QUARRY_SOURCE_ONTOLOGY_DIR);
  INFO((loaded ? std::string() : loaded.error().ToString()));
  REQUIRE(loaded.ok());
  MemoryDb db;
  db.ExecAll(CreateSchemaSql(**loaded));
  const auto indexes = db.Column("SELECT name FROM sqlite_master WHERE type = 'index'");
  const auto has = [&](const std::string& name) {
    return std::find(indexes.begin(), indexes.end(), name) != indexes.end();
  };
  CHECK(has("nfo:FileDataObject_nfo:fileLastModified"));
  CHECK(has("nmm:MusicPiece_nie:title"));  // the seed's domain index
  const auto container = Names(**loaded).StorageOf(
      *(*loaded)->FindPropertyByName("nfo:belongsToContainer"));
  CHECK(has(IndexName(container.table, container.column)));
  CHECK(db.One("SELECT count(*) FROM pragma_table_info('fts5') WHERE name IN "
               "('nie:plainTextContent', 'nie:title', 'nmm:artistName', 'nco:fullname')") == "4");
}

}  // namespace
}  // namespace quarry::schema
