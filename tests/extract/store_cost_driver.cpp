// extract_store_cost: the store side of quarry-extract's writes (issue 5), to be measured. It
// extracts the given files, writes the miner's basic facts for them (miner::InsertResource onto
// urn:quarry:file: resources, not measured), then applies what quarry-extract's writer sends
// per file (ToSparqlUpdate with the success state, 128 files per UpdateBatch) in a reopened store.
// Not a test: run it under callgrind with collection on in UpdateBatch only, e.g.
//   valgrind --tool=callgrind --collect-atstart=no
//     --toggle-collect='quarry::engine::Store::UpdateBatch*' extract_store_cost DB DIR...
// and with QUARRY_SQL_PROFILE=FILE to count the SQL statements of the extraction phase alone
// (the variable is applied only when the store is reopened for that phase).
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "extract/core/pipeline.h"
#include "extract/service/extract_state.h"
#include "miner-fs/sparql_updates.h"
#include "store/engine/store.h"

namespace {

using quarry::extract::FileResult;

struct Extracted {
  FileResult result;
  int64_t mtime_us = 0;
  int64_t size = 0;
};

std::vector<std::string> FilesUnder(const std::vector<std::string>& roots) {
  std::vector<std::string> files;
  for (const std::string& root : roots) {
    if (std::filesystem::is_regular_file(root)) {
      files.push_back(std::filesystem::absolute(root).string());
      continue;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.is_regular_file())
        files.push_back(std::filesystem::absolute(entry.path()).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<Extracted> ExtractAll(const std::vector<std::string>& files) {
  const quarry::extract::Registry registry = quarry::extract::BuiltinRegistry();
  std::vector<Extracted> extracted;
  for (const std::string& file : files) {
    auto result = quarry::extract::ExtractFile(registry, file, quarry::extract::Limits{});
    struct stat info {};
    if (!result) {
      std::cerr << result.error().ToString() << '\n';
      continue;
    }
    if (::stat(file.c_str(), &info) != 0) continue;
    Extracted one{std::move(*result), 0, info.st_size};
    one.mtime_us =
        static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000 + info.st_mtim.tv_nsec / 1000;
    one.result.file_iri = fmt::format("urn:quarry:file:{:032x}", extracted.size() + 1);
    extracted.push_back(std::move(one));
  }
  return extracted;
}

// Measurement knobs (environment): QUARRY_COST_BATCH = files per UpdateBatch (default
// kWriteBatch), QUARRY_COST_FTS_HASHSIZE = FTS5 'hashsize' in bytes instead of the store's.
size_t EnvSize(const char* name, size_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? static_cast<size_t>(std::strtoull(value, nullptr, 10)) : fallback;
}

bool SetFtsHashsize(const std::filesystem::path& db, size_t bytes) {
  sqlite3* handle = nullptr;
  const std::string file = (db / "meta.db").string();
  bool done = sqlite3_open_v2(file.c_str(), &handle, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK;
  const std::string sql = fmt::format("INSERT INTO fts5(fts5, rank) VALUES ('hashsize', {})", bytes);
  done = done && sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
  if (!done) std::cerr << "hashsize: " << sqlite3_errmsg(handle) << '\n';
  sqlite3_close_v2(handle);
  return done;
}

int Fail(const quarry::Error& error) {
  std::cerr << "extract_store_cost: " << error.ToString() << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: extract_store_cost DB_DIR FILE_OR_DIR...\n";
    return 2;
  }
  const std::filesystem::path db = argv[1];
  std::vector<Extracted> extracted =
      ExtractAll(FilesUnder(std::vector<std::string>(argv + 2, argv + argc)));
  std::filesystem::remove_all(db);
  const std::string profile =
      std::getenv("QUARRY_SQL_PROFILE") ? std::getenv("QUARRY_SQL_PROFILE") : "";
  ::unsetenv("QUARRY_SQL_PROFILE");
  const quarry::engine::StoreOptions options{db, quarry::engine::DefaultOntologyDir()};
  {
    auto store = quarry::engine::Store::Open(options);
    if (!store) return Fail(store.error());
    for (const Extracted& one : extracted) {
      quarry::miner::FileFacts facts;
      facts.iri = one.result.file_iri;
      facts.uri = one.result.file_url;
      facts.name = std::filesystem::path(one.result.file_url).filename().string();
      facts.size = one.size;
      facts.mtime_us = one.mtime_us;
      facts.mime_type = one.result.mime_type;
      if (auto done = (*store)->Update(quarry::miner::InsertResource(facts)); !done) {
        return Fail(done.error());
      }
    }
  }
  if (!profile.empty()) ::setenv("QUARRY_SQL_PROFILE", profile.c_str(), 1);
  sqlite3_memory_highwater(1);
  auto store = quarry::engine::Store::Open(options);
  if (!store) return Fail(store.error());
  // After the open, which sets the store's own (schema/fts.h); FTS5 rereads its settings.
  if (const size_t hashsize = EnvSize("QUARRY_COST_FTS_HASHSIZE", 0); hashsize != 0) {
    if (!SetFtsHashsize(db, hashsize)) return 1;
  }
  constexpr size_t kWriteBatch = 128;  // extractor_workers.cpp
  const size_t write_batch = EnvSize("QUARRY_COST_BATCH", kWriteBatch);
  std::vector<std::string> batch;
  const auto flush = [&]() -> quarry::Result<void> {
    auto done = (*store)->UpdateBatch(batch);
    batch.clear();
    return done;
  };
  for (Extracted& one : extracted) {
    one.result.file_state = quarry::extract::service::SuccessState(one.mtime_us);
    batch.push_back(quarry::extract::ToSparqlUpdate(one.result));
    if (batch.size() == write_batch) {
      if (auto done = flush(); !done) return Fail(done.error());
    }
  }
  if (!batch.empty()) {
    if (auto done = flush(); !done) return Fail(done.error());
  }
  // SQLite's heap peak of this phase (page cache, statements, FTS5's pending terms).
  std::cout << fmt::format("extracted files={} sqlite_heap_peak_kib={}\n", extracted.size(),
                           sqlite3_memory_highwater(0) / 1024);
  return 0;
}
