// bench/query driver: times SPARQL queries through Quarry's public client API and the
// hand-written SQL "physical limit" of each on the same SQLite file, in one process, so no
// process start-up is counted. Every row and every column is read and copied into memory
// (as a client building its model would), for both.
//
// Usage: quarry_query_bench --database DIR --queries FILE [--runs N] [--ontology DIR]
//                           [--skip-quarry] [--skip-sql]
// FILE: one query per line, `name<TAB>sparql<TAB>sql` (bench/query/queries.py writes it).
// Output, one TSV line per timed run on stdout:
//   system name run ms rows bytes cpu_ms (run 0 = the first run in this process, 1..N warm;
//                                         cpu_ms = this process's CPU time during the run)
//   system name error - - - message      (the query failed; the others still run)
// system is "quarry" or "sql". See bench/query/README.md.
#include <sqlite3.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/connection.h"

namespace {

constexpr const char* kSqlSettings =
    "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384; PRAGMA mmap_size=268435456;";

struct BenchQuery {
  std::string name;
  std::string sparql;
  std::string sql;
};

struct Options {
  std::filesystem::path database;
  std::filesystem::path ontology;
  std::filesystem::path queries;
  int runs = 5;
  bool quarry = true;
  bool sql = true;
};

// What one run read: rows, and the bytes of all values (a check that both sides read alike).
struct RunStats {
  int64_t rows = 0;
  int64_t bytes = 0;
};

// Errors travel as a message; empty means success.
using RunFn = std::function<std::string(RunStats&)>;

[[noreturn]] void Usage(const std::string& why) {
  std::cerr << "quarry_query_bench: " << why << "\n"
            << "usage: quarry_query_bench --database DIR --queries FILE [--runs N] "
               "[--ontology DIR] [--skip-quarry] [--skip-sql]\n";
  std::exit(2);
}

Options ParseArgs(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--database") options.database = value();
    else if (arg == "--ontology") options.ontology = value();
    else if (arg == "--queries") options.queries = value();
    else if (arg == "--runs") options.runs = std::atoi(value().c_str());
    else if (arg == "--skip-quarry") options.quarry = false;
    else if (arg == "--skip-sql") options.sql = false;
    else Usage("unknown argument " + std::string(arg));
  }
  if (options.database.empty() || options.queries.empty()) {
    Usage("--database and --queries are required");
  }
  if (options.runs < 1) Usage("--runs must be at least 1");
  return options;
}

std::vector<BenchQuery> ReadQueries(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) Usage("cannot read the query file " + path.string());
  std::vector<BenchQuery> queries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const size_t tab1 = line.find('\t');
    const size_t tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos) Usage("query line without name<TAB>sparql<TAB>sql: " + line);
    queries.push_back({line.substr(0, tab1), line.substr(tab1 + 1, tab2 - tab1 - 1),
                       line.substr(tab2 + 1)});
  }
  return queries;
}

// Reads every column of every row into `cells`, as strings.
std::string RunQuarry(quarry::Connection& connection, const std::string& sparql, RunStats& stats) {
  auto cursor = connection.Query(sparql);
  if (!cursor) return cursor.error().ToString();
  std::vector<std::string> cells;
  const int columns = cursor.value().ColumnCount();
  while (true) {
    auto more = cursor.value().Next();
    if (!more) return more.error().ToString();
    if (!more.value()) break;
    for (int c = 0; c < columns; ++c) {
      cells.emplace_back(cursor.value().GetString(c));
      stats.bytes += static_cast<int64_t>(cells.back().size());
    }
    ++stats.rows;
  }
  return {};
}

// The same for hand-written SQL: prepare, step, copy each column's text.
std::string RunSql(sqlite3* db, const std::string& sql, RunStats& stats) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    return std::string("prepare: ") + sqlite3_errmsg(db);
  }
  std::vector<std::string> cells;
  const int columns = sqlite3_column_count(statement);
  int rc;
  while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
    for (int c = 0; c < columns; ++c) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, c));
      const int size = sqlite3_column_bytes(statement, c);
      cells.emplace_back(text ? text : "", static_cast<size_t>(size));
      stats.bytes += size;
    }
    ++stats.rows;
  }
  std::string error = rc == SQLITE_DONE ? "" : std::string("step: ") + sqlite3_errmsg(db);
  sqlite3_finalize(statement);
  return error;
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return text;
}

// CPU time of the whole process: on a machine others keep busy, steadier than wall time.
double ProcessCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// Run 0 (first in this process) and runs 1..N; stops at the first error.
void Measure(const char* system, const std::string& name, int runs, const RunFn& run) {
  for (int r = 0; r <= runs; ++r) {
    RunStats stats;
    const double cpu_start = ProcessCpuMs();
    const auto start = std::chrono::steady_clock::now();
    const std::string error = run(stats);
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    const double cpu_ms = ProcessCpuMs() - cpu_start;
    if (!error.empty()) {
      std::printf("%s\t%s\terror\t-\t-\t-\t%s\n", system, name.c_str(), OneLine(error).c_str());
      return;
    }
    std::printf("%s\t%s\t%d\t%.4f\t%lld\t%lld\t%.4f\n", system, name.c_str(), r, ms.count(),
                static_cast<long long>(stats.rows), static_cast<long long>(stats.bytes), cpu_ms);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = ParseArgs(argc, argv);
  const std::vector<BenchQuery> queries = ReadQueries(options.queries);
  std::unique_ptr<quarry::Connection> connection;
  if (options.quarry) {
    quarry::Connection::Options open;
    open.database = options.database;
    open.ontology = options.ontology;
    open.read_only = true;
    auto opened = quarry::Connection::Open(open);
    if (!opened) {
      std::cerr << "quarry_query_bench: " << opened.error().ToString() << "\n";
      return 1;
    }
    connection = std::move(opened).value();
  }
  sqlite3* db = nullptr;
  if (options.sql) {
    const std::string file = (options.database / "meta.db").string();
    // The settings Quarry's own connections use (store/engine/sqlite/database.cpp): sorting in
    // memory, 16 MiB page cache, mmap. Without them ORDER BY writes temp files (6x slower).
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK ||
        sqlite3_exec(db, kSqlSettings, nullptr, nullptr, nullptr) != SQLITE_OK) {
      std::cerr << "quarry_query_bench: cannot open " << file << ": " << sqlite3_errmsg(db) << "\n";
      return 1;
    }
  }
  for (const BenchQuery& query : queries) {
    if (connection) {
      Measure("quarry", query.name, options.runs,
              [&](RunStats& stats) { return RunQuarry(*connection, query.sparql, stats); });
    }
    if (db) {
      Measure("sql", query.name, options.runs,
              [&](RunStats& stats) { return RunSql(db, query.sql, stats); });
    }
  }
  sqlite3_close(db);
  return 0;
}
