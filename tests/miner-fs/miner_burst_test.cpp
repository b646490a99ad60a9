// The monitor path of quarry::miner::Miner in-process, on an embedded store: a burst of new,
// changed and deleted files in one folder costs one query for what the store knows (the
// folder's known children), not one Lookup per file, and one transaction (issue 5, change to
// query latency). The miner is paused while the burst is written, so every event is queued
// when it resumes and the counts do not depend on timing.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <mutex>
#include <thread>

#include "miner-fs/file_uri.h"
#include "miner-fs/miner.h"
#include "store/common/unique_fd.h"
#include "tests/miner-fs/miner_test_util.h"

namespace quarry::miner {
namespace {

using namespace std::chrono_literals;
using testing::CountingStore;
using testing::EmbeddedStore;

// The miner thread and the test thread share the embedded connection: one at a time.
class LockedStore final : public IndexStore {
 public:
  explicit LockedStore(EmbeddedStore& embedded) : embedded_(embedded), counting_(*embedded.store) {}
  Result<std::unordered_map<std::string, KnownChildren>> Children(
      const std::vector<std::string>& folder_iris) override {
    const std::lock_guard lock(mutex_);
    return counting_.Children(folder_iris);
  }
  // Forwarded as such: the crawl's query without the files' IRIs, as ConnectionIndexStore has it.
  Result<std::unordered_map<std::string, KnownChildren>> ChildrenToCompare(
      const std::vector<std::string>& folder_iris) override {
    const std::lock_guard lock(mutex_);
    return counting_.ChildrenToCompare(folder_iris);
  }
  Result<std::optional<KnownChild>> Lookup(const std::string& uri) override {
    const std::lock_guard lock(mutex_);
    return counting_.Lookup(uri);
  }
  Result<void> Apply(const std::vector<std::string>& updates) override {
    const std::lock_guard lock(mutex_);
    return counting_.Apply(updates);
  }
  Result<void> Ping() override {
    const std::lock_guard lock(mutex_);
    return counting_.Ping();
  }
  std::string Value(const std::string& sparql) {
    const std::lock_guard lock(mutex_);
    return embedded_.Value(sparql);
  }
  struct Counts {
    int children_queries = 0;
    int lookups = 0;
    int transactions = 0;
    size_t updates = 0;
  };
  Counts counts() {
    const std::lock_guard lock(mutex_);
    return {counting_.children_queries, counting_.lookups, counting_.transactions, counting_.update_count};
  }

 private:
  std::mutex mutex_;
  EmbeddedStore& embedded_;
  CountingStore counting_;
};

struct MinerRun {
  // `ask_ahead`: the crawler asks known children on its own thread, through `ahead` (the same
  // store, its queries counted). `adjust`: last changes to the options before the miner is made.
  explicit MinerRun(const std::filesystem::path& root,
                    std::chrono::milliseconds idle_wait = std::chrono::minutes(1), bool ask_ahead = false,
                    const std::function<void(MinerOptions&)>& adjust = {})
      : store(embedded) {
    MinerOptions options;
    options.idle_wait = idle_wait;
    if (ask_ahead) options.ahead_store = &ahead;
    options.config = DefaultConfig(UserDirs{"/nonexistent", {}});
    options.config.roots = {{root, true}};
    options.config.pause_on_battery = false;
    options.config.cpu_percent = 100;
    if (adjust) adjust(options);
    auto created = Miner::Create(std::move(options), store, file_system, extraction, status);
    REQUIRE_MESSAGE(created.ok(), (created ? std::string() : created.error().ToString()));
    miner = std::move(*created);
    REQUIRE(stop.get() >= 0);
    runner = std::thread([this] { result = miner->Run(stop.get()); });
  }
  ~MinerRun() {
    const uint64_t one = 1;
    (void)!::write(stop.get(), &one, sizeof(one));
    runner.join();
    CHECK_MESSAGE(result.ok(), (result ? std::string() : result.error().ToString()));
  }

  void WaitForIdle() {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (status.state() != kStateIdle) {
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "the miner did not become idle");
      std::this_thread::sleep_for(10ms);
    }
  }
  // The number of files whose URL starts with `prefix`.
  static std::string CountSparql(const std::string& prefix) {
    return fmt::format(
        "SELECT (COUNT(?f) AS ?c) {{ ?f a nfo:FileDataObject ; nie:url ?u FILTER (STRSTARTS(?u, {})) }}",
        SparqlString(prefix));
  }
  // Waits (at most `bound`) until the number of files whose URL starts with `prefix` is
  // `expected`.
  void WaitForCount(const std::string& prefix, int expected,
                    std::chrono::milliseconds bound = std::chrono::minutes(1)) {
    const std::string sparql = CountSparql(prefix);
    const auto deadline = std::chrono::steady_clock::now() + bound;
    for (;;) {
      const std::string value = store.Value(sparql);
      if (value == std::to_string(expected)) return;
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                      fmt::format("waited for {} files under {}, have {}", expected, prefix, value));
      std::this_thread::sleep_for(10ms);
    }
  }

  EmbeddedStore embedded;
  LockedStore store;
  CountingStore ahead{store};  // the crawler's second connection (`ask_ahead`)
  PosixFileSystem file_system;
  PendingExtraction extraction;
  MinerStatus status;
  std::unique_ptr<Miner> miner;
  UniqueFd stop{::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)};
  Result<void> result = Ok();
  std::thread runner;
};

void WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
}

TEST_CASE("Miner: 100 new files in one folder cost one query and one transaction") {
  quarry::testing::TempDir dir;
  const std::filesystem::path root = dir.path() / "root";
  std::filesystem::create_directories(root / "sub");
  WriteFile(root / "existing.txt", "already there");
  MinerRun run(root);
  run.WaitForIdle();
  const std::string prefix = FileUri((root / "new-").string());
  run.WaitForCount(FileUri((root / "existing").string()), 1);

  // 100 new files, written while the miner is paused: one burst when it resumes.
  int cookie = run.status.Pause("test", "burst");
  const auto before = run.store.counts();
  for (int i = 0; i < 100; ++i) WriteFile(root / fmt::format("new-{}.txt", i), fmt::format("file {}\n", i));
  REQUIRE(run.status.Resume(cookie).ok());
  run.WaitForCount(prefix, 100);
  const auto after = run.store.counts();
  CHECK(after.lookups - before.lookups == 0);
  CHECK(after.children_queries - before.children_queries == 1);
  CHECK(after.transactions - before.transactions == 1);
  CHECK(after.updates - before.updates == 100);

  // 10 changed, 10 deleted and 5 moved to another name in the same burst: still one query; the
  // changed files keep their resources (no duplicate), the moved ones keep theirs.
  const std::string moved_iri = run.store.Value(fmt::format(
      "SELECT ?f {{ ?f nie:url {} }}", SparqlString(FileUri((root / "new-90.txt").string()))));
  REQUIRE(!moved_iri.empty());
  const std::string all_files = "SELECT (COUNT(?f) AS ?c) { ?f a nfo:FileDataObject }";
  const int files_before = std::stoi(run.store.Value(all_files));
  cookie = run.status.Pause("test", "burst");
  const auto before_changes = run.store.counts();
  for (int i = 0; i < 10; ++i) WriteFile(root / fmt::format("new-{}.txt", i), "longer content than before\n");
  for (int i = 10; i < 20; ++i) std::filesystem::remove(root / fmt::format("new-{}.txt", i));
  for (int i = 90; i < 95; ++i) {
    std::filesystem::rename(root / fmt::format("new-{}.txt", i), root / fmt::format("renamed-{}.txt", i));
  }
  REQUIRE(run.status.Resume(cookie).ok());
  run.WaitForCount(prefix, 85);
  run.WaitForCount(FileUri((root / "renamed-").string()), 5);
  const auto after_changes = run.store.counts();
  CHECK(after_changes.lookups - before_changes.lookups == 0);
  CHECK(after_changes.children_queries - before_changes.children_queries == 1);
  CHECK(after_changes.transactions - before_changes.transactions == 1);
  CHECK(after_changes.updates - before_changes.updates == 25);
  CHECK(run.store.Value(fmt::format("SELECT ?f {{ ?f nie:url {} }}",
                                    SparqlString(FileUri((root / "renamed-90.txt").string())))) == moved_iri);
  CHECK(run.store.Value(fmt::format("SELECT ?s {{ ?f nie:url {} ; nfo:fileSize ?s }}",
                                    SparqlString(FileUri((root / "new-0.txt").string())))) == "27");
  CHECK(run.store.Value(all_files) == std::to_string(files_before - 10));

  // A single new file is still one Lookup (a large folder is not fetched whole for it).
  cookie = run.status.Pause("test", "single");
  const auto before_single = run.store.counts();
  WriteFile(root / "sub" / "single.txt", "one");
  REQUIRE(run.status.Resume(cookie).ok());
  run.WaitForCount(FileUri((root / "sub" / "single").string()), 1);
  const auto after_single = run.store.counts();
  CHECK(after_single.lookups - before_single.lookups == 1);
  CHECK(after_single.children_queries - before_single.children_queries == 0);
}

// A marker file appearing in a watched folder: the monitor re-crawls that folder and every file
// the store knows in it goes. The crawl asks the folder's known children with their IRIs in its
// one query; asked without them first, the deletes needed a second query for the IRIs.
TEST_CASE("Miner: a marker appearing in a folder removes its files with one children query") {
  quarry::testing::TempDir dir;
  const std::filesystem::path root = dir.path() / "root";
  std::filesystem::create_directories(root / "sub");
  for (int i = 0; i < 3; ++i) WriteFile(root / "sub" / fmt::format("f{}.txt", i), "indexed");
  WriteFile(root / "kept.txt", "outside the marked folder");
  bool ask_ahead = false;
  SUBCASE("known children asked on the miner's thread") {}
  SUBCASE("known children asked ahead on the crawler's thread") { ask_ahead = true; }
  MinerRun run(root, std::chrono::minutes(1), ask_ahead);
  run.WaitForIdle();
  const std::string sub_prefix = FileUri((root / "sub" / "f").string());
  run.WaitForCount(sub_prefix, 3);

  const int cookie = run.status.Pause("test", "marker");
  const auto before = run.store.counts();
  WriteFile(root / "sub" / ".nomedia", "");
  REQUIRE(run.status.Resume(cookie).ok());
  run.WaitForCount(sub_prefix, 0);
  run.WaitForIdle();
  const auto after = run.store.counts();
  CHECK(after.children_queries - before.children_queries == 1);
  CHECK(after.lookups - before.lookups == 0);
  CHECK(after.updates - before.updates == 3);
  // The folder itself stays a resource of its parent; the files outside it are untouched.
  CHECK(run.store.Value(run.CountSparql(FileUri((root / "sub").string()))) == "1");
  CHECK(run.store.Value(run.CountSparql(FileUri((root / "kept").string()))) == "1");
}

// The loop waits 10 minutes when nothing is due (paused included): only the wake of the Resume
// that releases the last pause gets the work taken in meanwhile done within the 20 s bound.
TEST_CASE("Miner: a change or an overflow taken in while paused is handled at Resume, not at a timeout") {
  quarry::testing::TempDir dir;
  const std::filesystem::path root = dir.path() / "root";
  std::filesystem::create_directories(root);
  WriteFile(root / "existing.txt", "already there");
  MinerRun run(root, std::chrono::minutes(10));
  run.WaitForIdle();
  run.WaitForCount(FileUri((root / "existing").string()), 1);
  constexpr auto kBound = 20s;

  // A file written while paused: its events wait in the coalescer.
  int cookie = run.status.Pause("test", "change");
  WriteFile(root / "changed.txt", "written while paused");
  std::this_thread::sleep_for(100ms);  // lets the loop read the events while paused
  REQUIRE(run.status.Resume(cookie).ok());
  run.WaitForCount(FileUri((root / "changed").string()), 1, kBound);

  // An overflow while paused: the file's events are lost, only the re-crawl finds it.
  cookie = run.status.Pause("test", "overflow");
  WriteFile(root / "lost.txt", "its events are dropped");
  run.miner->RequestSimulatedOverflow();
  std::this_thread::sleep_for(100ms);  // lets the loop take the overflow in while paused
  CHECK(run.store.Value(run.CountSparql(FileUri((root / "lost").string()))) == "0");
  REQUIRE(run.status.Resume(cookie).ok());
  run.WaitForCount(FileUri((root / "lost").string()), 1, kBound);

  // A pause that is not the last one wakes nothing, and the work waits for the last.
  const int first = run.status.Pause("test", "first");
  const int second = run.status.Pause("test", "second");
  WriteFile(root / "held.txt", "held by two pauses");
  REQUIRE(run.status.Resume(first).ok());
  std::this_thread::sleep_for(200ms);
  CHECK(run.store.Value(run.CountSparql(FileUri((root / "held").string()))) == "0");
  REQUIRE(run.status.Resume(second).ok());
  run.WaitForCount(FileUri((root / "held").string()), 1, kBound);
}

TEST_CASE("MinerStatus: the resume waker runs when the last pause is released, and not after it is cleared") {
  MinerStatus status;
  int wakes = 0;
  status.SetResumeWaker([&wakes] { ++wakes; });
  const int first = status.Pause("a", "one");
  const int second = status.Pause("b", "two");
  REQUIRE(status.Resume(first).ok());
  CHECK(wakes == 0);
  CHECK(!status.Resume(first).ok());
  CHECK(wakes == 0);
  REQUIRE(status.Resume(second).ok());
  CHECK(wakes == 1);
  status.SetResumeWaker(nullptr);
  REQUIRE(status.Resume(status.Pause("c", "three")).ok());
  CHECK(wakes == 1);
}

// A reloaded configuration makes a new crawler; it kept the miner's store but dropped the
// second connection, so every crawl after a reload waited for each folder's known children on
// the miner's own thread.
TEST_CASE("Miner: after a configuration reload the crawl still asks ahead on the second connection") {
  quarry::testing::TempDir dir;
  const std::filesystem::path root = dir.path() / "root";
  for (const char* name : {"a/x.txt", "b/y.txt", "c/d/z.txt"}) {
    std::filesystem::create_directories((root / name).parent_path());
    WriteFile(root / name, name);
  }
  const std::filesystem::path config_file = dir.path() / "quarry.toml";
  WriteFile(config_file, fmt::format("[index]\nrecursive_folders = [{}]\nsingle_folders = []\n",
                                     SparqlString(root.string())));
  MinerRun run(root, std::chrono::minutes(1), /*ask_ahead=*/true,
               [&](MinerOptions& options) { options.config_file = config_file; });
  run.WaitForIdle();
  run.WaitForCount(FileUri(root.string()) + "/", 7);  // 3 files, 4 folders
  const int asked_before = run.ahead.children_queries;
  run.miner->RequestReload();
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (run.ahead.children_queries == asked_before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  // The reload's full crawl asks for the known folders' children (root, a, b, c, c/d).
  CHECK(run.ahead.children_queries.load() > asked_before);
  run.WaitForIdle();
  CHECK(run.store.Value(MinerRun::CountSparql(FileUri(root.string()) + "/")) == "7");
}

}  // namespace
}  // namespace quarry::miner
