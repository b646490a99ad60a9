// quarry-store's life cycle: backup and restore while serving, a broken database at start,
// and a clean stop on SIGTERM.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "store/engine/sqlite/database.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

std::vector<std::filesystem::path> MovedAside(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("meta.db.broken-") && !name.ends_with("-wal") && !name.ends_with("-shm")) {
      found.push_back(entry.path());
    }
  }
  return found;
}

TEST_CASE("Backup: Save then Restore brings the saved data back while queries are answered") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  client.Update(R"(INSERT DATA { <urn:kept> a ex:Song ; ex:title "kept" })");
  const std::string backup = (store.dir() / "backup.db").string();
  client.Save(backup);
  CHECK(std::filesystem::exists(backup));
  client.Update(R"(DELETE DATA { <urn:kept> a ex:Song } ; INSERT DATA { <urn:later> a ex:Song })");

  std::atomic<bool> restoring{true};
  std::atomic<int> answered{0};
  std::atomic<int> failed{0};
  std::thread querier([&] {
    StoreClient other = store.Client();
    while (restoring || answered < 5) {
      if (ErrorOf([&] { other.Query("SELECT ?s { ?s a ex:Song }"); }).empty())
        ++answered;
      else
        ++failed;
    }
  });
  client.Restore(backup);
  restoring = false;
  querier.join();
  CHECK(failed == 0);
  CHECK(answered >= 5);
  const Rows songs = client.Query("SELECT ?s { ?s a ex:Song }");
  REQUIRE(songs.size() == 1);
  CHECK(songs[0][0] == "urn:kept");
  client.Update(R"(INSERT DATA { <urn:after> a ex:Song })");  // the writer works on the new file
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").size() == 2);
  CHECK(client.Status() == "Idle");
}

// Sets an environment variable for the processes started while it lives (quarry-store reads
// its test hooks from there).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

TEST_CASE("Backup: a query sent while Restore runs is queued, then answered with restored data") {
  StoreFixture store;
  // The store's restore holds (Busy, reads paused) until this file exists: the query below
  // certainly arrives while the restore runs, however fast the machine.
  const std::filesystem::path gate = store.dir().path() / "restore-gate";
  const ScopedEnv hook("QUARRY_STORE_TEST_RESTORE_GATE", gate.string());
  store.Start();
  StoreClient client = store.Client();
  client.Update(R"(INSERT DATA { <urn:kept> a ex:Song })");
  const std::string backup = (store.dir() / "backup.db").string();
  client.Save(backup);
  client.Update(R"(DELETE DATA { <urn:kept> a ex:Song } ; INSERT DATA { <urn:later> a ex:Song })");

  std::string restore_error = "not finished";
  std::thread restorer([&] {
    StoreClient other = store.Client();
    restore_error = ErrorOf([&] { other.Restore(backup); });
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (client.Status() != "Busy") {  // Status is answered by the bus thread, never queued
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::atomic<bool> answered{false};
  Rows rows;
  std::string query_error;
  std::thread querier([&] {
    StoreClient other = store.Client();
    query_error = ErrorOf([&] { rows = other.Query("SELECT ?s { ?s a ex:Song }"); });
    answered = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(answered);  // waiting in the queue: neither refused nor answered from the old file
  std::ofstream(gate).put('\n');
  restorer.join();
  querier.join();
  CHECK(restore_error == "");
  CHECK(query_error == "");
  CHECK(rows == Rows{{"urn:kept"}});  // the restored data, not <urn:later>
  CHECK(client.Status() == "Idle");
}

TEST_CASE("Status: the Progress signal reports Busy then Idle around a restore") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  client.Query("SELECT ?s { ?s a ex:Song }");  // open and idle
  auto connection = sdbus::createSessionBusConnectionWithAddress(store.address());
  auto proxy = sdbus::createProxy(*connection, "org.quarry.Store1", "/org/quarry/Store1");
  std::mutex mutex;
  std::vector<std::string> seen;
  proxy->uponSignal("Progress")
      .onInterface(kStatus)
      .call([&](const std::string& status, double progress) {
        const std::lock_guard lock(mutex);
        seen.push_back(fmt::format("{} {:.1f}", status, progress));
      });
  proxy->finishRegistration();
  connection->enterEventLoopAsync();
  const std::string backup = (store.dir() / "backup.db").string();
  client.Save(backup);
  client.Restore(backup);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  auto finished = [&] {
    const std::lock_guard lock(mutex);
    return !seen.empty() && seen.back() == "Idle 1.0";
  };
  while (!finished() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  connection->leaveEventLoop();
  const std::lock_guard lock(mutex);
  REQUIRE(seen.size() >= 2);
  CHECK(std::find(seen.begin(), seen.end(), "Busy 0.0") != seen.end());
  CHECK(seen.back() == "Idle 1.0");
  CHECK(client.StatusMessage().find("restored from") != std::string::npos);
}

TEST_CASE("Backup: Restore refuses a file that is not a Quarry database and keeps the data") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  client.Update(R"(INSERT DATA { <urn:kept> a ex:Song })");
  const auto garbage = store.dir().Write("garbage.db", std::string(8192, 'g'));
  CHECK(ErrorOf([&] {
          client.Restore(garbage.string());
        }).starts_with("org.quarry.Store1.Error.Corrupt: "));
  CHECK(ErrorOf([&] {
          client.Restore((store.dir() / "absent.db").string());
        }).starts_with("org.quarry.Store1.Error.NotFound: "));
  CHECK(ErrorOf([&] {
          client.Save("relative.db");
        }).starts_with("org.quarry.Store1.Error.InvalidArgument: "));
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").size() == 1);
}

TEST_CASE("Start: a corrupted database file is moved aside and a fresh one created") {
  StoreFixture store;
  std::filesystem::create_directories(store.database_dir());
  {
    std::ofstream file(store.database_dir() / "meta.db", std::ios::binary);
    for (int i = 0; i < 1000; ++i) file << "this is not a database ";
  }
  store.Start();
  StoreClient client = store.Client();
  client.Update(R"(INSERT DATA { <urn:new> a ex:Song })");
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").size() == 1);
  CHECK(MovedAside(store.database_dir()).size() == 1);
  CHECK(client.StatusMessage().find("moved aside") != std::string::npos);
  CHECK(client.Status() == "Idle");
}

TEST_CASE("Start: a database of an unknown schema version is moved aside, not opened") {
  StoreFixture store;
  store.Start();
  store.Client().Update(R"(INSERT DATA { <urn:old> a ex:Song })");
  REQUIRE(WIFEXITED(store.Stop()));
  {
    auto db =
        engine::Database::Open(store.database_dir() / "meta.db", engine::OpenMode::kReadWrite);
    REQUIRE(db.ok());
    REQUIRE(db->Exec("UPDATE quarry_meta SET value = '99' WHERE key = 'schema_version'").ok());
  }
  store.Start();
  StoreClient client = store.Client();
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").empty());
  CHECK(MovedAside(store.database_dir()).size() == 1);
  CHECK(client.StatusMessage().find("schema version 99") != std::string::npos);
}

TEST_CASE("Stop: SIGTERM after acknowledged updates keeps them and the store exits 0") {
  StoreFixture store;
  store.Start();
  {
    StoreClient client = store.Client();
    for (int i = 0; i < 20; ++i)
      client.Update(fmt::format("INSERT DATA {{ <urn:s{}> a ex:Song }}", i));
    client.Batch({"INSERT DATA { <urn:m1> a ex:Song }", "INSERT DATA { <urn:m2> a ex:Song }"},
                 {{"source", sdbus::Variant(std::string("miner"))}});
  }
  const int status = store.Stop(SIGTERM);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  store.Start();
  CHECK(store.Client().Query("SELECT ?s { ?s a ex:Song }").size() == 22);
}

TEST_CASE("Idle: after its writes the store folds the WAL into the database and truncates it") {
  StoreFixture store;
  store.Start();
  StoreClient client = store.Client();
  const std::filesystem::path wal = store.database_dir() / "meta.db-wal";
  for (int i = 0; i < 20; ++i) {
    client.Update("INSERT DATA { <urn:idle:" + std::to_string(i) + "> a ex:Song ; ex:title \"t\" }");
  }
  // The writer checkpoints only every 10,000 pages by itself: these few stay in the WAL until
  // it has been idle for a moment.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::filesystem::file_size(wal) > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(std::filesystem::file_size(wal) == 0);
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").size() == 20);
  // A reader of another process holding the WAL makes the checkpoint wait, never fail a write.
  auto reader = engine::Database::Open(store.database_dir() / "meta.db", engine::OpenMode::kReadOnly);
  REQUIRE(reader.ok());
  REQUIRE(reader->Exec("BEGIN").ok());
  REQUIRE(reader->Exec("SELECT count(*) FROM sqlite_master").ok());
  client.Update(R"(INSERT DATA { <urn:idle:late> a ex:Song ; ex:title "late" })");
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").size() == 21);
  REQUIRE(reader->Exec("COMMIT").ok());
}

TEST_CASE("Start: a second store on the same bus name fails instead of serving twice") {
  StoreFixture store;
  store.Start();
  ChildProcess second(
      {QUARRY_STORE_BINARY, "--bus", store.address(), "--database",
       (store.dir() / "other").string(), "--ontology", (store.dir() / "ontology").string()},
      false);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!second.TryReap() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int status = second.Stop(SIGKILL, std::chrono::milliseconds(0));
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  StoreClient client = store.Client();
  CHECK(client.Query("SELECT ?s { ?s a ex:Song }").empty());  // the first one still serves
  CHECK(client.Status() == "Idle");
}

}  // namespace
}  // namespace quarry::testing
