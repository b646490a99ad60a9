#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include <filesystem>

#include "miner-fs/crawler.h"
#include "miner-fs/file_uri.h"
#include "store/common/unique_fd.h"
#include "tests/miner-fs/miner_test_util.h"

namespace quarry::miner {
namespace {

using testing::CountingStore;
using testing::EmbeddedStore;

// One crawl of `root` through the embedded store, flushed at the end.
struct CrawlRun {
  CrawlRun(EmbeddedStore& embedded,
           const MinerConfig& config = DefaultConfig(UserDirs{"/nonexistent", {}}))
      : counting(*embedded.store),
        rules(config),
        batcher(counting, extraction, 100, std::chrono::milliseconds(60000)),
        crawler(file_system, counting, batcher, rules, mime) {}

  void Crawl(const std::filesystem::path& root, bool recursive = true) {
    const auto added = crawler.AddRoot({root, recursive});
    REQUIRE_MESSAGE(added.ok(), (added ? std::string() : added.error().ToString()));
    for (;;) {
      const auto stepped = crawler.Step();
      REQUIRE_MESSAGE(stepped.ok(), (stepped ? std::string() : stepped.error().ToString()));
      if (!*stepped) break;
    }
    const auto flushed = batcher.Flush();
    REQUIRE_MESSAGE(flushed.ok(), (flushed ? std::string() : flushed.error().ToString()));
  }

  CountingStore counting;
  PosixFileSystem file_system;
  IgnoreRules rules;
  MimeDetector mime;
  PendingExtraction extraction;
  UpdateBatcher batcher;
  Crawler crawler;
};

// A first crawl of embedded.dir/root, from an empty store.
void IndexOnce(EmbeddedStore& embedded) { CrawlRun(embedded).Crawl(embedded.dir / "root"); }

std::string CountFiles(EmbeddedStore& embedded) {
  return embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f a nfo:FileDataObject }");
}

void MakeTree(const quarry::testing::TempDir& dir) {
  dir.Write("root/a.txt", "alpha");
  dir.Write("root/b.pdf", "%PDF-1.4");
  dir.Write("root/sub/c.mp3", "ID3");
  dir.Write("root/sub/deeper/d with space #1.txt", "delta");
  dir.Write("root/.hidden", "h");
  dir.Write("root/backup.txt~", "old");
}

TEST_CASE("Crawler: first crawl writes the basic facts, in batches") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  testing::SetMtime(embedded.dir / "root/a.txt", 1600000000);
  CrawlRun run(embedded);
  run.Crawl(embedded.dir / "root");
  // root, sub, deeper + 4 files; the hidden file and the backup file are ignored.
  CHECK(CountFiles(embedded) == "7");
  CHECK(run.crawler.stats().files == 4);
  CHECK(run.counting.transactions == 1);
  CHECK(run.extraction.size() == 4);
  const std::string a_uri = FileUri((embedded.dir / "root/a.txt").string());
  CHECK(embedded.Value(fmt::format(
            "SELECT ?n {{ ?f nie:url \"{}\" ; nfo:fileName ?n ; nfo:fileSize 5 ; "
            "nfo:fileLastModified \"2020-09-13T12:26:40Z\"^^xsd:dateTime ; nie:mimeType \"text/plain\" }}",
            a_uri)) == "a.txt");
  const std::string d_uri = FileUri((embedded.dir / "root/sub/deeper/d with space #1.txt").string());
  CHECK(d_uri.ends_with("/d%20with%20space%20%231.txt"));
  CHECK(embedded.Value(fmt::format(
            "SELECT ?folder {{ ?f nie:url \"{}\" ; nfo:belongsToContainer ?c . ?c a nfo:Folder ; "
            "nfo:fileName ?folder }}",
            d_uri)) == "deeper");
}

TEST_CASE("Crawler: a second crawl with nothing changed writes nothing") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  IndexOnce(embedded);  // the state the next crawl starts from
  CrawlRun second(embedded);
  second.Crawl(embedded.dir / "root");
  CHECK(second.counting.transactions == 0);
  CHECK(second.counting.update_count == 0);
  CHECK(second.extraction.size() == 0);
  // One query per folder: root, sub, deeper; none asks for the files' IRIs.
  CHECK(second.counting.children_queries == 3);
  CHECK(second.counting.iri_queries == 0);
}

TEST_CASE("ConnectionIndexStore: each known child comes back under the folder it was asked for") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  embedded.dir.Write("root/empty/.keep~", "ignored, so the folder has no known child");
  IndexOnce(embedded);
  const auto iri_of = [&](const std::string& relative) {
    const std::string iri = embedded.Value(fmt::format(
        "SELECT ?r {{ ?r nie:url \"{}\" }}", FileUri((embedded.dir / relative).string())));
    REQUIRE_FALSE(iri.empty());
    return iri;
  };
  const std::string root = iri_of("root");
  const std::string sub = iri_of("root/sub");
  const std::string empty = iri_of("root/empty");
  // Asked in an order unlike the one they were written in, with an IRI the store never saw.
  const std::vector<std::string> asked = {empty, sub, "urn:quarry:test:unknown", root};
  auto children = embedded.store->Children(asked);
  REQUIRE_MESSAGE(children.ok(), (children ? std::string() : children.error().ToString()));
  REQUIRE(children->size() == 4);
  CHECK(children->at(empty).empty());
  CHECK(children->at("urn:quarry:test:unknown").empty());
  const KnownChildren& in_root = children->at(root);
  CHECK(in_root.size() == 4);  // a.txt, b.pdf, sub, empty (the hidden and backup files are ignored)
  REQUIRE(in_root.contains("a.txt"));
  CHECK(in_root.at("a.txt").kind == EntryKind::kFile);
  CHECK(in_root.at("a.txt").size == 5);
  CHECK(in_root.at("a.txt").mtime_us > 0);
  REQUIRE(in_root.contains("sub"));
  CHECK(in_root.at("sub").kind == EntryKind::kFolder);
  CHECK(in_root.at("sub").iri == sub);
  const KnownChildren& in_sub = children->at(sub);
  CHECK(in_sub.size() == 2);
  REQUIRE(in_sub.contains("c.mp3"));
  CHECK(in_sub.at("c.mp3").kind == EntryKind::kFile);
  REQUIRE(in_sub.contains("deeper"));
  CHECK(in_sub.at("deeper").kind == EntryKind::kFolder);
}

TEST_CASE("ConnectionIndexStore: children to compare carry the folders' IRIs, not the files'") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  IndexOnce(embedded);
  const std::string root = embedded.Value(fmt::format(
      "SELECT ?r {{ ?r nie:url \"{}\" }}", FileUri((embedded.dir / "root").string())));
  REQUIRE_FALSE(root.empty());
  auto full = embedded.store->Children({root});
  auto compare = embedded.store->ChildrenToCompare({root});
  REQUIRE_MESSAGE(full.ok(), (full ? std::string() : full.error().ToString()));
  REQUIRE_MESSAGE(compare.ok(), (compare ? std::string() : compare.error().ToString()));
  const KnownChildren& with = full->at(root);
  const KnownChildren& without = compare->at(root);
  REQUIRE(with.size() == 3);  // a.txt, b.pdf, sub
  REQUIRE(without.size() == with.size());
  for (const auto& [name, child] : with) {
    CAPTURE(name);
    REQUIRE(without.contains(name));
    const KnownChild& other = without.at(name);
    CHECK(other.kind == child.kind);
    CHECK(other.mtime_us == child.mtime_us);
    CHECK(other.size == child.size);
    CHECK_FALSE(child.iri.empty());
    // A folder keeps its IRI (the crawl descends with it); a file's is left out.
    CHECK(other.iri == (child.kind == EntryKind::kFolder ? child.iri : std::string()));
  }
}

TEST_CASE("ConnectionIndexStore: batches of every slot count and past the largest give each folder its own children") {
  // The children query is prepared per slot count (4, 8, 12, 16, 32 ... 256 folders), unused
  // slots bound to an IRI no resource has, more than 256 folders asked in several queries.
  EmbeddedStore embedded;
  constexpr int kFolders = 300;
  for (int i = 0; i < kFolders; ++i) {
    embedded.dir.Write(fmt::format("root/d{:03}/only{}.txt", i, i), std::string(static_cast<size_t>(i % 7), 'x'));
    if (i % 3 == 0) embedded.dir.Write(fmt::format("root/d{:03}/second.txt", i), "2");
  }
  IndexOnce(embedded);
  std::vector<std::string> folders;  // folders[i] = d<i>'s IRI
  for (int i = 0; i < kFolders; ++i) {
    folders.push_back(embedded.Value(fmt::format(
        "SELECT ?r {{ ?r nie:url \"{}\" }}", FileUri((embedded.dir / fmt::format("root/d{:03}", i)).string()))));
    REQUIRE_FALSE(folders.back().empty());
  }
  for (const size_t count : {1, 3, 4, 5, 12, 13, 16, 17, 33, 129, 255, 256, 257, 300}) {
    CAPTURE(count);
    // Every third batch asked from the end, so slots and folders pair differently across texts.
    std::vector<std::string> asked(folders.begin(), folders.begin() + static_cast<ptrdiff_t>(count));
    if (count % 3 == 0) std::reverse(asked.begin(), asked.end());
    for (const bool file_iris : {true, false}) {
      CAPTURE(file_iris);
      auto children = file_iris ? embedded.store->Children(asked) : embedded.store->ChildrenToCompare(asked);
      REQUIRE_MESSAGE(children.ok(), (children ? std::string() : children.error().ToString()));
      REQUIRE(children->size() == count);
      for (size_t i = 0; i < count; ++i) {
        CAPTURE(i);
        const KnownChildren& known = children->at(folders[i]);
        REQUIRE(known.size() == (i % 3 == 0 ? 2u : 1u));
        const std::string only = fmt::format("only{}.txt", i);
        REQUIRE(known.contains(only));
        CHECK(known.at(only).size == static_cast<int64_t>(i % 7));
        CHECK(known.at(only).kind == EntryKind::kFile);
        CHECK(known.at(only).iri.empty() == !file_iris);
      }
    }
  }
}

TEST_CASE("Crawler: changed and deleted files found without their IRIs keep or lose their resources") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  IndexOnce(embedded);
  const std::filesystem::path root = embedded.dir / "root";
  const auto resource = [&](const std::string& relative) {
    return embedded.Value(fmt::format("SELECT ?r {{ ?r nie:url \"{}\" }}", FileUri((root / relative).string())));
  };
  const std::string a_before = resource("a.txt");
  const std::string c_before = resource("sub/c.mp3");
  REQUIRE_FALSE(a_before.empty());
  REQUIRE_FALSE(c_before.empty());
  embedded.dir.Write("root/a.txt", "alpha, longer now");     // changed
  std::filesystem::remove(root / "b.pdf");                    // deleted
  std::filesystem::remove(root / "sub/c.mp3");                // a file that is now a folder
  embedded.dir.Write("root/sub/c.mp3/inside.txt", "i");
  CrawlRun second(embedded);
  second.Crawl(root);
  CHECK(second.crawler.stats().changed == 2);  // a.txt, the folder sub (its mtime)
  CHECK(second.crawler.stats().deleted == 2);  // b.pdf, the file c.mp3
  CHECK(second.crawler.stats().created == 2);  // the folder c.mp3, inside.txt
  // One query with the files' IRIs for each folder with such a change: root and sub.
  CHECK(second.counting.iri_queries == 2);
  CHECK(resource("a.txt") == a_before);  // the same resource, updated
  CHECK(embedded.Value(fmt::format("SELECT ?s {{ <{}> nfo:fileSize ?s }}", a_before)) == "17");
  CHECK(resource("b.pdf").empty());
  CHECK(embedded.Value(fmt::format("SELECT (COUNT(?t) AS ?c) {{ <{}> a ?t }}", c_before)) == "0");
  const std::string c_after = resource("sub/c.mp3");
  REQUIRE_FALSE(c_after.empty());
  CHECK(c_after != c_before);
  CHECK(embedded.Value(fmt::format("SELECT (COUNT(?t) AS ?c) {{ <{}> a ?t FILTER (?t = nfo:Folder) }}", c_after)) ==
        "1");
  // root, sub, deeper, a, c.mp3, inside, d
  CHECK(CountFiles(embedded) == "7");
  // A third crawl finds nothing left to do.
  CrawlRun third(embedded);
  third.Crawl(root);
  CHECK(third.counting.transactions == 0);
  CHECK(third.counting.iri_queries == 0);
}

TEST_CASE("Crawler: a restart asks for the known children of up to kFoldersPerQuery folders a query") {
  static_assert(Crawler::kFoldersPerQuery == 16, "the counts below assume 16 folders a query");
  EmbeddedStore embedded;
  // 1 root, 12 folders below it, 3 below each of them: 49 folders on 3 levels.
  for (int i = 0; i < 12; ++i) {
    for (int k = 0; k < 3; ++k) embedded.dir.Write(fmt::format("root/f{}/g{}/x.txt", i, k), "x");
  }
  {
    CrawlRun first(embedded);
    first.Crawl(embedded.dir / "root");
    CHECK(first.counting.children_queries == 0);  // every folder was new
  }
  CrawlRun second(embedded);
  second.Crawl(embedded.dir / "root");
  CHECK(second.counting.transactions == 0);
  CHECK(second.crawler.stats().folders == 49);
  // Breadth first: the root alone, then its 12 folders together, then their 36 in batches of
  // at most kFoldersPerQuery (16, 16, 4): a batch's first folder waits for the whole batch's
  // answer, so a level of 36 is not asked in one query.
  CHECK(second.counting.children_queries == 5);
  CHECK(second.counting.children_folders == 49);
  CHECK(second.counting.most_folders == 16);
  CHECK(second.crawler.stats().created == 0);
  CHECK(second.crawler.stats().changed == 0);
  CHECK(second.crawler.stats().deleted == 0);
}

TEST_CASE("IsValidUtf8: ASCII, multi-byte sequences and what breaks them") {
  CHECK(IsValidUtf8(""));
  CHECK(IsValidUtf8("plain-ascii name.txt"));
  CHECK(IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x84.txt"));  // é € 📄
  CHECK(IsValidUtf8("a longer ASCII prefix, then caf\xc3\xa9"));     // past whole 8-byte words
  CHECK_FALSE(IsValidUtf8("name\xff"));                               // no lead byte
  CHECK_FALSE(IsValidUtf8("12345678\xff" "2345678"));                 // in the second word
  CHECK_FALSE(IsValidUtf8("long ascii prefix then \xc3"));            // cut short at the end
  CHECK_FALSE(IsValidUtf8("a\xc3(b"));                                // a continuation missing
  CHECK_FALSE(IsValidUtf8("\xc0\xaf"));                               // overlong '/'
  CHECK_FALSE(IsValidUtf8("\xed\xa0\x80"));                           // a surrogate
  CHECK_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));                       // past U+10FFFF
  CHECK_FALSE(IsValidUtf8("ascii\x80" "ascii"));                      // a lone continuation
}

TEST_CASE("Crawler: known children asked ahead are asked again after ForgetKnown") {
  EmbeddedStore embedded;
  embedded.dir.Write("root/a/one.txt", "1");
  embedded.dir.Write("root/b/two.txt", "2");
  IndexOnce(embedded);  // the state the next crawl starts from
  CrawlRun second(embedded);
  REQUIRE(second.crawler.AddRoot({embedded.dir / "root", true}).ok());
  REQUIRE(second.crawler.Step().ok());  // the root: a and b are queued
  REQUIRE(second.crawler.Step().ok());  // a: asks for a and b together
  CHECK(second.counting.children_queries == 2);
  // Someone else indexes a file in b meanwhile (the miner's monitor): b's answer is stale.
  embedded.dir.Write("root/b/three.txt", "3");
  second.crawler.ForgetKnown();
  {
    CrawlRun other(embedded);
    other.Crawl(embedded.dir / "root");
  }
  REQUIRE(second.crawler.Step().ok());  // b: asks again and finds three.txt known
  CHECK(second.counting.children_queries == 3);
  CHECK(second.crawler.stats().created == 0);
  REQUIRE(second.batcher.Flush().ok());
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"three.txt\" }") == "1");
}

// Two threads on one embedded connection (the crawler's and its asking thread), one call at a
// time. A children query holds back (up to 500 ms, a guard against waiting forever when the
// crawler needs this very answer) until the crawler has listed another folder, and counts the
// queries during which it did: proof the crawl went on while a query was in flight.
class OverlapStore final : public IndexStore {
 public:
  explicit OverlapStore(IndexStore& inner) : inner_(inner) {}
  Result<std::unordered_map<std::string, KnownChildren>> Children(
      const std::vector<std::string>& folder_iris) override {
    {
      std::unique_lock lock(mutex_);
      ++children_queries;
      progressed_.notify_all();  // a listing waiting for this query (Listed)
      const int listed_before = listed_;
      progressed_.wait_for(lock, std::chrono::milliseconds(500), [&] { return listed_ > listed_before; });
      if (listed_ > listed_before) ++overlapped;
      if (fail_next) {
        fail_next = false;
        return Error(Errc::kIo, "store went away");
      }
    }
    const std::lock_guard call(call_mutex_);
    return inner_.Children(folder_iris);
  }
  Result<std::optional<KnownChild>> Lookup(const std::string& uri) override {
    const std::lock_guard call(call_mutex_);
    return inner_.Lookup(uri);
  }
  Result<void> Apply(const std::vector<std::string>& updates) override {
    const std::lock_guard call(call_mutex_);
    {
      const std::lock_guard lock(mutex_);
      ++transactions;
    }
    return inner_.Apply(updates);
  }
  Result<void> Ping() override {
    const std::lock_guard call(call_mutex_);
    return inner_.Ping();
  }
  // The crawler's folder listener: one more folder listed. The first few listings after the
  // second query also wait (up to 2 s) for the asking thread to start its next query, so that a
  // loaded machine, where the crawler lists every folder before that thread runs, still shows
  // the overlap.
  void Listed() {
    std::unique_lock lock(mutex_);
    ++listed_;
    progressed_.notify_all();
    if (waits_left_ > 0 && children_queries >= 2) {
      --waits_left_;
      const int queries = children_queries;
      progressed_.wait_for(lock, std::chrono::seconds(2), [&] { return children_queries > queries; });
    }
  }
  int Count(const int& counter) {
    const std::lock_guard lock(mutex_);
    return counter;
  }

  int children_queries = 0;
  int overlapped = 0;
  int transactions = 0;
  bool fail_next = false;

 private:
  IndexStore& inner_;
  std::mutex call_mutex_;
  std::mutex mutex_;
  std::condition_variable progressed_;
  int listed_ = 0;
  int waits_left_ = 3;
};

// A crawl whose known children are asked by the crawler's own thread through `overlap`.
struct AheadRun {
  explicit AheadRun(EmbeddedStore& embedded)
      : overlap(*embedded.store),
        rules(DefaultConfig(UserDirs{"/nonexistent", {}})),
        batcher(overlap, extraction, 1000, std::chrono::milliseconds(60000)),
        crawler(file_system, overlap, batcher, rules, mime, &overlap) {
    crawler.SetFolderListener([this](const std::string&, const std::string&, bool) { overlap.Listed(); });
  }

  // Steps to the end; the number of steps that failed.
  int Crawl(const std::filesystem::path& root) {
    REQUIRE(crawler.AddRoot({root, true}).ok());
    int failures = 0;
    for (;;) {
      const auto stepped = crawler.Step();
      if (!stepped) {
        ++failures;
        continue;
      }
      if (!*stepped) break;
    }
    REQUIRE(batcher.Flush().ok());
    return failures;
  }

  OverlapStore overlap;
  PosixFileSystem file_system;
  IgnoreRules rules;
  MimeDetector mime;
  PendingExtraction extraction;
  UpdateBatcher batcher;
  Crawler crawler;
};

// 1 root, 12 folders below it, 3 below each: 49 folders, 36 files.
void MakeWideTree(const quarry::testing::TempDir& dir) {
  for (int i = 0; i < 12; ++i) {
    for (int k = 0; k < 3; ++k) dir.Write(fmt::format("root/f{}/g{}/x.txt", i, k), "x");
  }
}

TEST_CASE("Crawler: asking ahead on its own thread, a restart with nothing changed writes nothing") {
  EmbeddedStore embedded;
  MakeWideTree(embedded.dir);
  IndexOnce(embedded);  // the state the next crawl starts from
  AheadRun second(embedded);
  CHECK(second.Crawl(embedded.dir / "root") == 0);
  CHECK(second.overlap.Count(second.overlap.transactions) == 0);
  CHECK(second.extraction.size() == 0);
  CHECK(second.crawler.stats().folders == 49);
  CHECK(second.crawler.stats().files == 36);
  CHECK(second.crawler.stats().created == 0);
  CHECK(second.crawler.stats().changed == 0);
  CHECK(second.crawler.stats().deleted == 0);
  // Folders were listed while a query was in flight.
  CHECK(second.overlap.Count(second.overlap.overlapped) >= 1);
}

TEST_CASE("Crawler: asking ahead on its own thread, changes in folders listed meanwhile are found") {
  EmbeddedStore embedded;
  MakeWideTree(embedded.dir);
  IndexOnce(embedded);  // the state the next crawl starts from
  const std::filesystem::path root = embedded.dir / "root";
  // Every leaf folder changes, so whichever were listed during a query, each is checked.
  for (int i = 0; i < 12; ++i) {
    for (int k = 0; k < 3; ++k) embedded.dir.Write(fmt::format("root/f{}/g{}/x.txt", i, k), "longer");
  }
  embedded.dir.Write("root/f11/g2/new.txt", "new");
  std::filesystem::remove(root / "f7/g1/x.txt");
  AheadRun second(embedded);
  CHECK(second.Crawl(root) == 0);
  // 35 files, and the two folders whose entries changed (f11/g2, f7/g1).
  CHECK(second.crawler.stats().changed == 37);
  CHECK(second.crawler.stats().created == 1);
  CHECK(second.crawler.stats().deleted == 1);
  CHECK(second.overlap.Count(second.overlap.overlapped) >= 1);
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"x.txt\" ; nfo:fileSize 6 }") == "35");
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"x.txt\" }") == "35");
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"new.txt\" }") == "1");
}

TEST_CASE("Crawler: a failed query ahead fails one step and is asked again") {
  EmbeddedStore embedded;
  MakeWideTree(embedded.dir);
  IndexOnce(embedded);  // the state the next crawl starts from
  embedded.dir.Write("root/f3/g0/x.txt", "changed");
  AheadRun second(embedded);
  second.overlap.fail_next = true;  // the root's query
  CHECK(second.Crawl(embedded.dir / "root") == 1);
  // The root's step failed (its item is dropped, as when the miner's store goes away): its
  // sub-folders were never queued, so this crawl wrote nothing; the next one finds the change.
  CHECK(second.crawler.stats().folders == 1);
  CHECK(second.crawler.stats().changed == 0);
  CHECK(second.Crawl(embedded.dir / "root") == 0);
  CHECK(second.crawler.stats().folders == 1 + 49);
  CHECK(second.crawler.stats().changed == 1);
  CHECK(second.crawler.stats().created == 0);
  CHECK(second.crawler.stats().deleted == 0);
}

TEST_CASE("Crawler: changes since the last crawl") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  IndexOnce(embedded);  // the state the next crawl starts from
  const std::filesystem::path root = embedded.dir / "root";
  embedded.dir.Write("root/a.txt", "alpha, longer now");
  std::filesystem::remove_all(root / "sub/deeper");
  embedded.dir.Write("root/sub/new.md", "# new");
  CrawlRun second(embedded);
  second.Crawl(root);
  CHECK(second.crawler.stats().changed >= 1);
  CHECK(second.crawler.stats().created == 1);
  CHECK(second.crawler.stats().deleted == 1);
  CHECK(CountFiles(embedded) == "6");  // root, sub, a, b, c, new (deeper and d are gone)
  CHECK(embedded.Value(fmt::format("SELECT ?s {{ ?f nie:url \"{}\" ; nfo:fileSize ?s }}",
                                   FileUri((root / "a.txt").string()))) == "17");
  CHECK(second.extraction.size() == 2);  // a.txt changed, new.md created
}

TEST_CASE("Crawler: marker files, .gitignore and churn folders") {
  EmbeddedStore embedded;
  embedded.dir.Write("root/keep.txt", "k");
  embedded.dir.Write("root/private/.nomedia", "");
  embedded.dir.Write("root/private/photo.jpg", "j");
  embedded.dir.Write("root/project/.gitignore", "*.o\nout/\n");
  embedded.dir.Write("root/project/main.c", "int main;");
  embedded.dir.Write("root/project/main.o", "obj");
  embedded.dir.Write("root/project/out/bin", "b");
  embedded.dir.Write("root/project/node_modules/x/index.js", "js");
  embedded.dir.Write("root/cmake-build/CMakeCache.txt", "cache");
  embedded.dir.Write("root/cmake-build/foo.o", "obj");
  CrawlRun run(embedded);
  run.Crawl(embedded.dir / "root");
  const std::string names = embedded.Value(
      "SELECT (GROUP_CONCAT(?n; separator=\",\") AS ?all) { SELECT ?n { ?f nfo:fileName ?n } ORDER BY ?n }");
  CHECK(names == "cmake-build,keep.txt,main.c,private,project,root");
}

TEST_CASE("Crawler: a non-recursive root keeps its sub-folders but not their content") {
  EmbeddedStore embedded;
  MakeTree(embedded.dir);
  CrawlRun run(embedded);
  run.Crawl(embedded.dir / "root", /*recursive=*/false);
  CHECK(CountFiles(embedded) == "4");  // root, a.txt, b.pdf, sub
}

TEST_CASE("Crawler: hostile entries are skipped, never fatal") {
  EmbeddedStore embedded;
  const std::filesystem::path root = embedded.dir / "root";
  embedded.dir.Write("root/fine.txt", "f");
  embedded.dir.Write(std::string("root/bad\xff") + "name.txt", "not utf-8");
  std::filesystem::create_directories(root / "loop");
  std::filesystem::create_directory_symlink("..", root / "loop/up");
  std::filesystem::create_symlink("/etc/passwd", root / "link.txt");
  REQUIRE(::mkfifo((root / "fifo").c_str(), 0600) == 0);
  std::string long_path = (root / "long").string();
  std::filesystem::create_directories(long_path);
  // Nest folders until a file with a NAME_MAX name inside would cross PATH_MAX.
  while (long_path.size() + 1 + NAME_MAX < PATH_MAX) {
    long_path += "/" + std::string(200, 'x');
    REQUIRE(::mkdir(long_path.c_str(), 0700) == 0);
  }
  {
    UniqueFd folder(::open(long_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    REQUIRE(folder.valid());
    UniqueFd file(::openat(folder.get(), std::string(NAME_MAX, 'y').c_str(),
                           O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    REQUIRE(file.valid());
  }
  CrawlRun run(embedded);
  run.Crawl(root);
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"fine.txt\" }") == "1");
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"link.txt\" }") == "0");
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"fifo\" }") == "0");
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"up\" }") == "0");
  CHECK(embedded.Value(fmt::format("SELECT (COUNT(?f) AS ?c) {{ ?f nfo:fileName \"{}\" }}",
                                   std::string(NAME_MAX, 'y'))) == "0");
  CHECK(run.crawler.stats().skipped == 2);  // the non-UTF-8 name and the PATH_MAX path
  // std::filesystem::remove_all cannot remove paths longer than PATH_MAX; rm can.
  CHECK(std::system(fmt::format("rm -rf '{}'", (root / "long").string()).c_str()) == 0);
}

TEST_CASE("Crawler: a folder that cannot be read is skipped") {
  if (::geteuid() == 0) return;  // root reads everything; nothing to test
  EmbeddedStore embedded;
  embedded.dir.Write("root/open/a.txt", "a");
  embedded.dir.Write("root/closed/b.txt", "b");
  std::filesystem::permissions(embedded.dir / "root/closed", std::filesystem::perms::none);
  CrawlRun run(embedded);
  run.Crawl(embedded.dir / "root");
  std::filesystem::permissions(embedded.dir / "root/closed", std::filesystem::perms::owner_all);
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"a.txt\" }") == "1");
  CHECK(embedded.Value("SELECT (COUNT(?f) AS ?c) { ?f nfo:fileName \"b.txt\" }") == "0");
  CHECK(run.crawler.stats().skipped == 1);
}

}  // namespace
TEST_CASE("PosixFileSystem: a folder listed twice gives its whole listing both times") {
  // The first List() reads a fresh descriptor without rewinding it; a second one must rewind.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    fmt::format("quarry-list-twice-{}", ::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  for (int i = 0; i < 300; ++i) {  // more than one getdents64 buffer of names
    UniqueFd file(::open((dir / fmt::format("file-with-a-longish-name-{:04}", i)).c_str(),
                         O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
    REQUIRE(file.get() >= 0);
  }
  PosixFileSystem file_system;
  auto folder = file_system.OpenFolder(dir.string());
  REQUIRE(folder.ok());
  auto names = [&]() {
    auto listed = (*folder)->List();
    REQUIRE(listed.ok());
    std::vector<std::string> found;
    for (const RawEntry& entry : *listed) found.push_back(entry.name);
    std::sort(found.begin(), found.end());
    return found;
  };
  const std::vector<std::string> first = names();
  CHECK(first.size() == 301);
  CHECK(names() == first);
  std::filesystem::remove_all(dir);
}

}  // namespace quarry::miner
