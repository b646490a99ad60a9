// raw_sqlite_save: the physical limit of a batch save (issue 7). Replays the rows a batch save
// wrote into Quarry's schema with hand-written SQL on raw SQLite: one prepared
// `INSERT INTO t (columns) VALUES (?, …)` per table, bound and stepped once per row, plus one
// FTS5 insert per full-text row, in one transaction, with Quarry's pragmas. No SPARQL, no
// ontology checks, no ID look-ups: what is left is SQLite's own work for the same rows.
//
//   raw_sqlite_save EMPTY_DB FULL_DB OUT_DB [--without-rowid] [--most-specific-types]
//                   [--no-mirror-triggers] [--partial-indexes]
// EMPTY_DB: a Quarry database with the schema and no contacts; FULL_DB: the same after the save
// (phonebook_bench --path embedded); OUT_DB: a copy of EMPTY_DB that receives the rows. Rows of
// FULL_DB with an ID above EMPTY_DB's largest resource ID are the save's. Prints the rows per
// table and the time of the replay (BEGIN … COMMIT), read from memory.
// What-ifs of the storage layout (OUT_DB only; Quarry does not read such a database):
// --without-rowid: the type table and the multi-valued tables (rows keyed by UNIQUE (ID, value,
// graph)) become WITHOUT ROWID tables with that key, one b-tree fewer per row;
// --most-specific-types: type rows only for a resource's most specific classes (the superclass
// rows left out, as if derived from rdfs:subClassOf when queried);
// --no-mirror-triggers: the domain-index triggers dropped (what their AFTER INSERT programs cost
// for rows whose mirrored values are NULL);
// --partial-indexes: every single-column index declared in the schema (nrl:indexed, domain
// indexes) rebuilt as `… WHERE column IS NOT NULL`, so rows without a value add no entry.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace {

using Value = std::variant<std::monostate, int64_t, double, std::string>;

[[noreturn]] void Die(sqlite3* db, const std::string& what) {
  std::fprintf(stderr, "raw_sqlite_save: %s: %s\n", what.c_str(), db ? sqlite3_errmsg(db) : "");
  std::exit(1);
}

sqlite3* Open(const char* path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path, &db) != SQLITE_OK) Die(db, path);
  return db;
}

void Exec(sqlite3* db, const std::string& sql) {
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) Die(db, sql);
}

sqlite3_stmt* Prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
    Die(db, sql);
  }
  return stmt;
}

std::string Quote(const std::string& name) {
  std::string out = "\"";
  for (const char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

Value Read(sqlite3_stmt* stmt, int i) {
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_INTEGER: return sqlite3_column_int64(stmt, i);
    case SQLITE_FLOAT: return sqlite3_column_double(stmt, i);
    case SQLITE_NULL: return std::monostate();
    default: return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)));
  }
}

void Bind(sqlite3_stmt* stmt, int i, const Value& value) {
  if (const auto* n = std::get_if<int64_t>(&value)) sqlite3_bind_int64(stmt, i, *n);
  else if (const auto* d = std::get_if<double>(&value)) sqlite3_bind_double(stmt, i, *d);
  else if (const auto* s = std::get_if<std::string>(&value)) {
    sqlite3_bind_text(stmt, i, s->data(), static_cast<int>(s->size()), SQLITE_STATIC);
  } else {
    sqlite3_bind_null(stmt, i);
  }
}

struct TableRows {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
};

// SELECT cols FROM table WHERE id_column > threshold, all rows into memory.
TableRows Load(sqlite3* db, const std::string& table, const std::string& id_column,
               int64_t threshold) {
  TableRows out{table, {}, {}};
  sqlite3_stmt* stmt = Prepare(db, "SELECT * FROM " + Quote(table) + " WHERE " + id_column +
                                       " > ?1 ORDER BY " + id_column);
  sqlite3_bind_int64(stmt, 1, threshold);
  const int n = sqlite3_column_count(stmt);
  for (int i = 0; i < n; ++i) out.columns.emplace_back(sqlite3_column_name(stmt, i));
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    std::vector<Value> row;
    for (int i = 0; i < n; ++i) row.push_back(Read(stmt, i));
    out.rows.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  return out;
}

// Keeps each resource's type rows of its most specific class. The ontology is not stored as
// triples, so the hierarchy is read from the rows: a superclass has at least the resources of its
// subclasses, and the contacts give each resource one asserted class, so the class of a resource
// with the fewest resources in the save is the asserted one.
void KeepMostSpecific(TableRows& types) {
  std::map<int64_t, size_t> members;  // class ID -> resources
  for (const auto& row : types.rows) ++members[std::get<int64_t>(row[1])];
  std::vector<std::vector<Value>> kept;
  for (size_t begin = 0; begin < types.rows.size();) {
    size_t end = begin;
    size_t fewest = SIZE_MAX;
    const int64_t id = std::get<int64_t>(types.rows[begin][0]);
    for (; end < types.rows.size() && std::get<int64_t>(types.rows[end][0]) == id; ++end) {
      fewest = std::min(fewest, members[std::get<int64_t>(types.rows[end][1])]);
    }
    for (size_t i = begin; i < end; ++i) {
      if (members[std::get<int64_t>(types.rows[i][1])] == fewest) kept.push_back(types.rows[i]);
    }
    begin = end;
  }
  types.rows = std::move(kept);
}

// Rebuilds each table keyed by UNIQUE (ID, …) as a WITHOUT ROWID table with that primary key,
// keeping its rows and secondary indexes (views and triggers keep their text: legacy rename).
void WithoutRowid(sqlite3* db) {
  std::vector<std::pair<std::string, std::string>> tables;
  sqlite3_stmt* list = Prepare(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND "
                                   "sql LIKE '%UNIQUE (ID,%'");
  while (sqlite3_step(list) == SQLITE_ROW) {
    tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list, 0)),
                        reinterpret_cast<const char*>(sqlite3_column_text(list, 1)));
  }
  sqlite3_finalize(list);
  Exec(db, "PRAGMA legacy_alter_table=ON; BEGIN");
  for (auto& [name, sql] : tables) {
    std::vector<std::string> indexes;
    sqlite3_stmt* stmt = Prepare(db, "SELECT sql FROM sqlite_schema WHERE type = 'index' AND "
                                     "tbl_name = ?1 AND sql IS NOT NULL");
    sqlite3_bind_text(stmt, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      indexes.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
    sql.replace(sql.find("UNIQUE (ID,"), std::strlen("UNIQUE"), "PRIMARY KEY");
    Exec(db, "ALTER TABLE " + Quote(name) + " RENAME TO " + Quote(name + "__old"));
    Exec(db, sql + " WITHOUT ROWID");
    Exec(db, "INSERT INTO " + Quote(name) + " SELECT * FROM " + Quote(name + "__old"));
    Exec(db, "DROP TABLE " + Quote(name + "__old"));
    for (const std::string& index : indexes) Exec(db, index);
  }
  Exec(db, "COMMIT; PRAGMA legacy_alter_table=OFF");
}

// Drops every domain-index mirror trigger ("<class>_<property>_mirror_<event>").
void DropMirrorTriggers(sqlite3* db) {
  std::vector<std::string> names;
  sqlite3_stmt* list = Prepare(db, "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND "
                                   "name LIKE '%\\_mirror\\_%' ESCAPE '\\'");
  while (sqlite3_step(list) == SQLITE_ROW) {
    names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list, 0)));
  }
  sqlite3_finalize(list);
  for (const std::string& name : names) Exec(db, "DROP TRIGGER " + Quote(name));
  std::printf("whatif\tmirror triggers dropped\t%zu\n", names.size());
}

// Rebuilds each declared single-column index as a partial index of the rows with a value.
void PartialIndexes(sqlite3* db) {
  std::vector<std::pair<std::string, std::string>> indexes;  // name, CREATE INDEX text
  sqlite3_stmt* list = Prepare(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND "
                                   "sql IS NOT NULL AND sql NOT LIKE '%,%' AND sql NOT LIKE "
                                   "'%WHERE%'");
  while (sqlite3_step(list) == SQLITE_ROW) {
    indexes.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list, 0)),
                         reinterpret_cast<const char*>(sqlite3_column_text(list, 1)));
  }
  sqlite3_finalize(list);
  Exec(db, "BEGIN");
  for (const auto& [name, sql] : indexes) {
    const size_t open = sql.rfind('(');
    const size_t close = sql.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    const std::string column = sql.substr(open + 1, close - open - 1);
    Exec(db, "DROP INDEX " + Quote(name));
    Exec(db, sql + " WHERE " + column + " IS NOT NULL");
  }
  Exec(db, "COMMIT");
  std::printf("whatif\tpartial indexes\t%zu\n", indexes.size());
}

}  // namespace

int main(int argc, char** argv) {
  bool without_rowid = false, most_specific_types = false, no_mirror_triggers = false,
       partial_indexes = false;
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "--without-rowid") == 0) without_rowid = true;
    else if (std::strcmp(argv[i], "--most-specific-types") == 0) most_specific_types = true;
    else if (std::strcmp(argv[i], "--no-mirror-triggers") == 0) no_mirror_triggers = true;
    else if (std::strcmp(argv[i], "--partial-indexes") == 0) partial_indexes = true;
    else argc = 0;
  }
  if (argc < 4) {
    std::fprintf(stderr, "usage: raw_sqlite_save EMPTY_DB FULL_DB OUT_DB [--without-rowid] "
                         "[--most-specific-types] [--no-mirror-triggers] [--partial-indexes]\n");
    return 2;
  }
  sqlite3* empty = Open(argv[1]);
  sqlite3* full = Open(argv[2]);
  int64_t threshold = 0;
  {
    sqlite3_stmt* stmt = Prepare(empty, "SELECT max(ID) FROM Resource");
    if (sqlite3_step(stmt) == SQLITE_ROW) threshold = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(empty);
  // The save's rows: every ordinary table with an ID column (the FTS5 shadow tables excluded:
  // the FTS rows are inserted through the virtual table below, as the engine does).
  std::vector<TableRows> tables;
  {
    sqlite3_stmt* list = Prepare(full,
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name NOT LIKE 'fts%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name");
    while (sqlite3_step(list) == SQLITE_ROW) {
      const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(list, 0));
      sqlite3_stmt* info = Prepare(full, "SELECT 1 FROM pragma_table_info(?1) WHERE name = 'ID'");
      sqlite3_bind_text(info, 1, name.c_str(), -1, SQLITE_TRANSIENT);
      const bool has_id = sqlite3_step(info) == SQLITE_ROW;
      sqlite3_finalize(info);
      if (!has_id) continue;
      TableRows rows = Load(full, name, "ID", threshold);
      if (most_specific_types && name == "rdfs:Resource_rdf:type") KeepMostSpecific(rows);
      if (!rows.rows.empty()) tables.push_back(std::move(rows));
    }
    sqlite3_finalize(list);
  }
  // Full-text rows: the values the engine's view computes for the new resources.
  std::string fts_table, fts_view;
  {
    sqlite3_stmt* stmt = Prepare(full,
        "SELECT name FROM sqlite_schema WHERE sql LIKE 'CREATE VIRTUAL TABLE%fts5%'");
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      fts_table = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
    stmt = Prepare(full, "SELECT name FROM sqlite_schema WHERE type = 'view' AND name LIKE 'fts%'");
    if (sqlite3_step(stmt) == SQLITE_ROW) fts_view = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
  }
  TableRows fts;
  if (!fts_table.empty() && !fts_view.empty()) fts = Load(full, fts_view, "ID", threshold);
  sqlite3_close(full);

  sqlite3* out = Open(argv[3]);
  Exec(out, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF; "
            "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384; PRAGMA mmap_size=268435456;");
  if (without_rowid) WithoutRowid(out);
  if (no_mirror_triggers) DropMirrorTriggers(out);
  if (partial_indexes) PartialIndexes(out);
  Exec(out, "PRAGMA wal_checkpoint(TRUNCATE)");
  std::vector<sqlite3_stmt*> inserts;
  for (const TableRows& table : tables) {
    std::string columns, slots;
    for (size_t i = 0; i < table.columns.size(); ++i) {
      columns += (i ? ", " : "") + Quote(table.columns[i]);
      slots += i ? ", ?" : "?";
    }
    inserts.push_back(Prepare(out, "INSERT INTO " + Quote(table.name) + " (" + columns +
                                       ") VALUES (" + slots + ")"));
  }
  sqlite3_stmt* fts_insert = nullptr;
  if (!fts.rows.empty()) {
    std::string columns = "rowid", slots = "?";
    for (size_t i = 1; i < fts.columns.size(); ++i) {
      columns += ", " + Quote(fts.columns[i]);
      slots += ", ?";
    }
    fts_insert = Prepare(out, "INSERT INTO " + Quote(fts_table) + " (" + columns + ") VALUES (" +
                                  slots + ")");
  }
  size_t total_rows = 0;
  std::vector<double> table_micros(tables.size());
  const auto since = [](std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - from).count();
  };
  const auto start = std::chrono::steady_clock::now();
  Exec(out, "BEGIN IMMEDIATE");
  for (size_t t = 0; t < tables.size(); ++t) {
    const auto table_start = std::chrono::steady_clock::now();
    for (const auto& row : tables[t].rows) {
      for (size_t i = 0; i < row.size(); ++i) Bind(inserts[t], static_cast<int>(i) + 1, row[i]);
      if (sqlite3_step(inserts[t]) != SQLITE_DONE) Die(out, "insert into " + tables[t].name);
      sqlite3_reset(inserts[t]);
    }
    total_rows += tables[t].rows.size();
    table_micros[t] = since(table_start);
  }
  const auto fts_start = std::chrono::steady_clock::now();
  for (const auto& row : fts.rows) {
    for (size_t i = 0; i < row.size(); ++i) Bind(fts_insert, static_cast<int>(i) + 1, row[i]);
    if (sqlite3_step(fts_insert) != SQLITE_DONE) Die(out, "insert into " + fts_table);
    sqlite3_reset(fts_insert);
  }
  const double fts_micros = since(fts_start);
  const auto commit_start = std::chrono::steady_clock::now();
  Exec(out, "COMMIT");
  const double commit_micros = since(commit_start);
  const double micros = since(start);
  for (size_t t = 0; t < tables.size(); ++t) {
    std::printf("rows\t%s\t%zu\t%.1f us\n", tables[t].name.c_str(), tables[t].rows.size(),
                table_micros[t]);
  }
  std::printf("rows\t(fts)\t%zu\t%.1f us\n", fts.rows.size(), fts_micros);
  std::printf("commit\t%.1f us\n", commit_micros);
  std::printf("total\t%zu rows + %zu fts rows\t%.1f us\n", total_rows, fts.rows.size(), micros);
  for (sqlite3_stmt* stmt : inserts) sqlite3_finalize(stmt);
  if (fts_insert) sqlite3_finalize(fts_insert);
  sqlite3_close(out);
  return 0;
}
