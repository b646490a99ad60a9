// Helpers for miner-fs tests: an embedded store with the project's ontology in a temp folder,
// wrapped so the test can count the queries and updates the miner sends, and a tree writer
// with explicit mtimes.
#pragma once

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

#include "miner-fs/index_store.h"
#include "quarry/connection.h"
#include "tests/support/temp_dir.h"

namespace quarry::miner::testing {

// Counts what goes through to the real store. The counters are atomic: a miner's asking thread
// may call while the test reads them.
class CountingStore final : public IndexStore {
 public:
  explicit CountingStore(IndexStore& inner) : inner_(inner) {}
  Result<std::unordered_map<std::string, KnownChildren>> Children(
      const std::vector<std::string>& folder_iris) override {
    ++children_queries;
    ++iri_queries;
    children_folders += folder_iris.size();
    most_folders = std::max(most_folders.load(), folder_iris.size());
    return inner_.Children(folder_iris);
  }
  Result<std::unordered_map<std::string, KnownChildren>> ChildrenToCompare(
      const std::vector<std::string>& folder_iris) override {
    ++children_queries;
    children_folders += folder_iris.size();
    most_folders = std::max(most_folders.load(), folder_iris.size());
    return inner_.ChildrenToCompare(folder_iris);
  }
  Result<std::optional<KnownChild>> Lookup(const std::string& uri) override {
    ++lookups;
    return inner_.Lookup(uri);
  }
  Result<void> Apply(const std::vector<std::string>& updates) override {
    ++transactions;
    update_count += updates.size();
    return inner_.Apply(updates);
  }
  Result<void> Ping() override { return inner_.Ping(); }
  std::atomic<int> children_queries = 0;   // queries (both kinds)
  std::atomic<int> iri_queries = 0;        // of them, Children() (with the files' IRIs)
  std::atomic<size_t> children_folders = 0;  // folders they asked for
  std::atomic<size_t> most_folders = 0;      // the most folders one query asked for
  std::atomic<int> lookups = 0;
  std::atomic<int> transactions = 0;
  std::atomic<size_t> update_count = 0;

 private:
  IndexStore& inner_;
};

struct EmbeddedStore {
  EmbeddedStore() {
    auto opened = Connection::Open({dir.path() / "db", QUARRY_SOURCE_ONTOLOGY_DIR, false});
    REQUIRE_MESSAGE(opened.ok(), (opened ? std::string() : opened.error().ToString()));
    connection = std::move(*opened);
    store = std::make_unique<ConnectionIndexStore>(*connection);
  }
  // The single value of a one-row, one-column query, as text ("" when no row).
  std::string Value(const std::string& sparql) {
    auto cursor = connection->Query(sparql);
    REQUIRE_MESSAGE(cursor.ok(), (cursor ? std::string() : cursor.error().ToString()));
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    return *has_row ? std::string(cursor->GetString(0)) : std::string();
  }
  quarry::testing::TempDir dir;
  std::unique_ptr<Connection> connection;
  std::unique_ptr<ConnectionIndexStore> store;
};

// Sets a path's mtime (seconds) without following symlinks.
inline void SetMtime(const std::filesystem::path& path, time_t seconds) {
  const timespec times[2] = {{seconds, 0}, {seconds, 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

}  // namespace quarry::miner::testing
