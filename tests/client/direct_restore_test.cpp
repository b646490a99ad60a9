// Issue 4: Connection::Direct readers follow quarry-store's Restore (the database file swapped
// under them) instead of reading the old file on.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include "store/engine/sqlite/database.h"
#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

const std::string kSongs = kEx + "SELECT ?s { ?s a ex:Song } ORDER BY ?s";

using Table = std::vector<std::vector<std::string>>;

// Stores <urn:saved>, backs it up, then replaces it by <urn:later>: returns the backup.
std::filesystem::path BackupThenChange(const StoreFixture& store, Connection& bus) {
  REQUIRE(bus.Update(kEx + "INSERT DATA { <urn:saved> a ex:Song }").ok());
  const std::filesystem::path backup = store.dir / "backup.db";
  REQUIRE(bus.Backup(backup).ok());
  REQUIRE(bus.Update(kEx + "DELETE DATA { <urn:saved> a ex:Song } ; "
                           "INSERT DATA { <urn:later> a ex:Song }")
              .ok());
  return backup;
}

TEST_CASE("Direct: a reader sees the restored data after Restore, without reconnecting") {
  StoreFixture store;
  std::unique_ptr<Connection> bus = store.Bus();
  const std::filesystem::path backup = BackupThenChange(store, *bus);

  std::unique_ptr<Connection> direct = store.Direct();
  auto prepared = direct->Prepare(kSongs);
  REQUIRE(prepared.ok());
  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:later"}});

  const auto restored = bus->Restore(backup);
  REQUIRE_MESSAGE(restored.ok(), (restored ? std::string() : restored.error().ToString()));

  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:saved"}});
  auto cursor = prepared->Execute();  // prepared before the restore: compiled again
  REQUIRE(cursor.ok());
  CHECK(ReadRows(*cursor, false) == Table{{"urn:saved"}});

  // Writes after the restore go to the new file, and the reader keeps up with them.
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:after> a ex:Song }").ok());
  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:after"}, {"urn:saved"}});
}

// A reader checks meta.db's inode only when the database directory's mtime moved since a check
// found it settled (direct_backend.cpp, issue 7): with the directory untouched for an hour the
// reader trusts it, and the rename of a restore must still be noticed.
TEST_CASE("Direct: a restore is noticed after reads that found the directory settled") {
  StoreFixture store;
  std::unique_ptr<Connection> bus = store.Bus();
  const std::filesystem::path backup = BackupThenChange(store, *bus);

  std::unique_ptr<Connection> direct = store.Direct();
  auto prepared = direct->Prepare(kSongs);
  REQUIRE(prepared.ok());
  // The directory last changed an hour ago, as far as its mtime tells.
  timespec times[2] = {{0, UTIME_OMIT}, {::time(nullptr) - 3600, 0}};
  REQUIRE(::utimensat(AT_FDCWD, store.database().c_str(), times, 0) == 0);
  for (int i = 0; i < 3; ++i) {  // the first read finds it settled, the next ones trust it
    CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:later"}});
    auto cursor = prepared->Execute();
    REQUIRE(cursor.ok());
    CHECK(ReadRows(*cursor, false) == Table{{"urn:later"}});
  }

  const auto restored = bus->Restore(backup);
  REQUIRE_MESSAGE(restored.ok(), (restored ? std::string() : restored.error().ToString()));
  auto cursor = prepared->Execute();
  REQUIRE(cursor.ok());
  CHECK(ReadRows(*cursor, false) == Table{{"urn:saved"}});
  CHECK(QueryRows(*direct, kSongs, false) == Table{{"urn:saved"}});
}

// The store's Restore swaps meta.db while another process's Direct reader is in the middle of
// a result (an open read transaction on the old file and its WAL). The reader must finish on
// the old data or fail clearly — never mix files — and the new file must not pick up the old
// WAL's frames (the store moves -wal and -shm aside with the old file).
TEST_CASE(
    "Direct: a reader mid-result during Restore finishes on the old data; the new file is clean") {
  StoreFixture store;
  std::unique_ptr<Connection> bus = store.Bus();
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:saved> a ex:Song }").ok());
  const std::filesystem::path backup = store.dir / "backup.db";
  REQUIRE(bus->Backup(backup).ok());
  // Enough rows that the old data sits in WAL frames and the cursor spans many pages.
  std::string update = kEx + "DELETE DATA { <urn:saved> a ex:Song } ; INSERT DATA {";
  constexpr int kOld = 3000;
  for (int i = 0; i < kOld; ++i) update += fmt::format(" <urn:old-{:05}> a ex:Song .", i);
  REQUIRE(bus->Update(update + " }").ok());

  std::unique_ptr<Connection> direct = store.Direct();
  auto cursor = direct->Query(kSongs);
  REQUIRE(cursor.ok());
  Table before;
  for (int i = 0; i < 10; ++i) {
    REQUIRE(*cursor->Next());
    before.push_back({std::string(cursor->GetString(0))});
  }

  const auto restored = bus->Restore(backup);
  REQUIRE_MESSAGE(restored.ok(), (restored ? std::string() : restored.error().ToString()));
  // The store wrote on the new file after the swap: its frames go to the new WAL only.
  REQUIRE(bus->Update(kEx + "INSERT DATA { <urn:after> a ex:Song }").ok());

  // The rest of the result: the old data, whole and in order, or a clear error.
  for (;;) {
    const auto has_row = cursor->Next();
    if (!has_row) {
      MESSAGE("the old result ended with: " << has_row.error().ToString());
      CHECK_FALSE(has_row.error().message().empty());
      break;
    }
    if (!*has_row) {
      CHECK(before.size() == size_t{kOld});
      break;
    }
    before.push_back({std::string(cursor->GetString(0))});
  }
  for (size_t i = 0; i < before.size(); ++i) {
    REQUIRE(before[i][0] == fmt::format("urn:old-{:05}", i));
  }

  // New reads, through the store and directly, see exactly the restored file plus the update.
  const Table now{{"urn:after"}, {"urn:saved"}};
  CHECK(QueryRows(*bus, kSongs, false) == now);
  CHECK(QueryRows(*direct, kSongs, false) == now);
  CHECK(QueryRows(*store.Direct(), kSongs, false) == now);
  auto check = engine::Database::Open(store.database() / "meta.db", engine::OpenMode::kReadOnly);
  REQUIRE(check.ok());
  auto integrity = check->Prepare("PRAGMA integrity_check");
  REQUIRE(integrity.ok());
  REQUIRE(*integrity->Step());
  CHECK(integrity->ColumnText(0) == "ok");
}

}  // namespace
}  // namespace quarry::testing
