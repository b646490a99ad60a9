// quarry-extract's pure parts and its sandbox, without a bus: the queue's priorities, URL
// decoding, the worker pipe protocol, the bookkeeping SPARQL and what the seccomp filter denies.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

#include "extract/core/iri.h"
#include "extract/core/serialize.h"
#include "extract/service/extract_config.h"
#include "extract/service/extract_state.h"
#include "extract/service/extractor_service.h"
#include "extract/service/file_queue.h"
#include "extract/service/sandbox.h"
#include "extract/service/worker_main.h"
#include "extract/service/worker_process.h"
#include "extract/service/worker_protocol.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract::service {
namespace {

using Strings = std::vector<std::string>;

TEST_CASE("FileQueue: files the user touched come before the backlog, each URL once") {
  FileQueue queue;
  queue.PushBacklog({"file:///b1", "file:///b2", "file:///b3"});
  queue.PushUrgent({"file:///u1", "file:///b2", "file:///u1"});
  CHECK(queue.size() == 4);
  CHECK(queue.Take(2) == Strings{"file:///u1", "file:///b2"});
  // b2 moved to the urgent queue: its backlog entry is not handed out a second time.
  CHECK(queue.Take(10) == Strings{"file:///b1", "file:///b3"});
  CHECK(queue.size() == 0);
  queue.PushBacklog({"file:///b1"});  // taken before, so it may come again
  CHECK(queue.Take(10) == Strings{"file:///b1"});
}

TEST_CASE("FileQueue: an entry is freed once no queue names it, and a taken URL may come again") {
  FileQueue queue;
  queue.PushBacklog({"file:///a", "file:///b", "file:///c"});
  queue.PushUrgent({"file:///b", "file:///c"});  // both move ahead, their backlog slots stale
  queue.PushBacklog({"file:///b"});              // urgent already: stays urgent, once
  CHECK(queue.size() == 3);
  CHECK(queue.held() == 3);
  CHECK(queue.Take(1) == Strings{"file:///b"});
  CHECK(queue.size() == 2);
  CHECK(queue.held() == 3);  // b's stale backlog slot still points to it
  queue.PushUrgent({"file:///b"});  // taken: queued again, at the end of the urgent queue
  CHECK(queue.size() == 3);
  CHECK(queue.Take(2) == Strings{"file:///c", "file:///b"});
  CHECK(queue.Take(10) == Strings{"file:///a"});  // b's and c's stale slots skipped
  CHECK(queue.size() == 0);
  CHECK(queue.held() == 0);
  // Many URLs queued and taken leave nothing behind.
  Strings many;
  for (int i = 0; i < 1000; ++i) many.push_back("file:///many/" + std::to_string(i));
  queue.PushBacklog(many);
  queue.PushUrgent(Strings(many.begin(), many.begin() + 500));
  Strings taken;
  while (queue.size() > 0) {
    for (std::string& url : queue.Take(16)) taken.push_back(std::move(url));
  }
  CHECK(taken.size() == 1000);
  CHECK(taken.front() == "file:///many/0");
  CHECK(taken[500] == "file:///many/500");
  CHECK(queue.held() == 0);
}

TEST_CASE("FileQueue: Take waits for work and returns nothing once closed") {
  FileQueue queue;
  std::thread producer([&queue] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    queue.PushUrgent({"file:///late"});
  });
  CHECK(queue.Take(4) == Strings{"file:///late"});
  producer.join();
  queue.Close();
  CHECK(queue.Take(4).empty());
}

TEST_CASE("FileUrlToPath inverts FileUrl for any bytes and refuses what is not a file URL") {
  for (const std::string path : {"/a b/c#d%e.pdf", "/x/bad-\xFF.txt", "/(1) it's & more@x:y.txt",
                                 "/line\nbreak\t.txt"}) {
    CHECK(FileUrlToPath(FileUrl(path)) == path);
  }
  CHECK(FileUrl("/(1) it's.txt") == "file:///(1)%20it's.txt");  // GLib's spelling, as miner-fs
  CHECK_FALSE(FileUrlToPath("http://x/a").has_value());
  CHECK_FALSE(FileUrlToPath("file://relative").has_value());
  CHECK_FALSE(FileUrlToPath("file:///bad%4").has_value());
  CHECK_FALSE(FileUrlToPath("file:///bad%zz").has_value());
  CHECK_FALSE(FileUrlToPath("file:///nul%00byte").has_value());
}

TEST_CASE("Worker frames: round trip, a deadline, and the end of the stream") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string big(200'000, 'x');  // larger than one pipe buffer: written by a thread
  std::thread writer([&] {
    CHECK(WriteFrame(fds[1], "first").ok());
    CHECK(WriteFrame(fds[1], "").ok());
    CHECK(WriteFrame(fds[1], big).ok());
  });
  FrameReader reader(fds[0]);
  std::string frame;
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame == "first");
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame.empty());
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame == big);
  // The 200,000-byte frame's buffer is not kept once it is read (one per worker slot).
  CHECK(reader.capacity() <= FrameReader::kKeptBytes);
  writer.join();
  const auto soon = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
  CHECK(reader.Read(frame, soon) == FrameReader::Status::kTimeout);
  ::close(fds[1]);
  CHECK(reader.Read(frame) == FrameReader::Status::kEof);
  ::close(fds[0]);
}

TEST_CASE("Worker frames: a large frame is read into a buffer of its size, freed after it") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string big(3'000'000, 'z');  // past kKeptBytes: a PDF's text
  std::thread writer([&] {
    CHECK(WriteFrames(fds[1], {"small", big, "next"}).ok());
  });
  FrameReader reader(fds[0]);
  std::string frame;
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame == "small");
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame == big);
  // "next" may be in the buffer already: the big buffer stays only while it holds more.
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame == "next");
  CHECK(reader.capacity() <= FrameReader::kKeptBytes);
  writer.join();
  ::close(fds[1]);
  ::close(fds[0]);
}

TEST_CASE("Worker frames: several in one write and tagged frames read back as single frames") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string big(300'000, 'y');  // several pipe buffers: short writes are resumed
  std::thread writer([&] {
    CHECK(WriteFrames(fds[1], {"/a/path", "", "urn:x"}).ok());
    CHECK(WriteTaggedFrame(fds[1], 'M', "text").ok());
    CHECK(WriteTaggedFrame(fds[1], 'N', "").ok());
    CHECK(WriteFrames(fds[1], {big, "after", big}).ok());
    CHECK(WriteTaggedFrame(fds[1], 'R', big).ok());
    // More frames than one writev takes at once: still every frame, in order.
    CHECK(WriteFrames(fds[1], {"1", "2", "3", "4", "5", "6", "7", "8", "9"}).ok());
  });
  FrameReader reader(fds[0]);
  std::vector<std::string> frames;
  std::string frame;
  for (int i = 0; i < 6 + 3 + 9; ++i) {
    REQUIRE(reader.Read(frame) == FrameReader::Status::kFrame);
    frames.push_back(frame);
  }
  writer.join();
  CHECK(frames[0] == "/a/path");
  CHECK(frames[1].empty());
  CHECK(frames[2] == "urn:x");
  CHECK(frames[3] == "Mtext");
  CHECK(frames[4] == "N");
  CHECK(frames[5] == big);
  CHECK(frames[6] == "after");
  CHECK(frames[7] == big);
  CHECK(frames[8] == "R" + big);
  for (int i = 0; i < 9; ++i) CHECK(frames[9 + static_cast<size_t>(i)] == std::to_string(i + 1));
  // Nothing is left over, and a frame split across reads still arrives whole.
  const auto soon = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
  CHECK(reader.Read(frame, soon) == FrameReader::Status::kTimeout);
  CHECK(::write(fds[1], "\x03\x00\x00\x00" "a", 5) == 5);
  CHECK(reader.Read(frame, std::chrono::steady_clock::now() + std::chrono::milliseconds(30)) ==
        FrameReader::Status::kTimeout);
  CHECK(::write(fds[1], "bc", 2) == 2);
  CHECK(reader.Read(frame) == FrameReader::Status::kFrame);
  CHECK(frame == "abc");
  ::close(fds[1]);
  CHECK(reader.Read(frame) == FrameReader::Status::kEof);
  ::close(fds[0]);
}

TEST_CASE("Bookkeeping SPARQL: mtimes round trip, URLs are quoted, failures carry the module") {
  const int64_t mtime = 1'700'000'000'123'456;
  CHECK(MtimeLiteral(mtime) == "2023-11-14T22:13:20.123456Z");
  CHECK(ParseMtime(MtimeLiteral(mtime)).value() == mtime);
  const std::string lookup = LookupQuery({"file:///a\"b", "file:///c"});
  CHECK(lookup.find("\"file:///a\\\"b\" \"file:///c\"") != std::string::npos);
  const std::string failed = StateOnlyUpdate("urn:quarry:file:1", "file:///x.pdf", mtime,
                                             "timed out after 30000 ms", "pdf");
  // Onto the miner's resource: only the state, and only while the resource exists (issue 5).
  CHECK(failed.find("nie:url") == std::string::npos);
  CHECK(failed.ends_with(" } WHERE { <urn:quarry:file:1> a "
                         "<http://tracker.api.gnome.org/ontology/v3/nfo#FileDataObject> }\n"));
  // A file the miner does not know, named by its URL, is created as the core names it.
  const std::string unknown =
      StateOnlyUpdate("file:///x.pdf", "file:///x.pdf", mtime, "timed out after 30000 ms", "pdf");
  CHECK(unknown.find("<file:///x.pdf> a nfo:FileDataObject ; nie:url \"file:///x.pdf\"") !=
        std::string::npos);
  CHECK(unknown.ends_with(" } WHERE {}\n"));
  CHECK(failed.find("qxo#extractionFailure> \"timed out after 30000 ms\"") != std::string::npos);
  CHECK(failed.find("qxo#failedExtractor> \"pdf\"") != std::string::npos);
  const std::string nothing = StateOnlyUpdate("urn:quarry:file:1", "file:///x", mtime, "", "");
  CHECK(nothing.find("extractionFailure> \"") == std::string::npos);
}

// A core result onto the miner's resource, with a related resource and a literal that looks
// like the end of the file's template.
FileResult CoreResult() {
  FileResult result{"file:///x.pdf", "urn:quarry:file:1", "urn:quarry:element:1",
                    "application/pdf", {}, {}};
  result.extraction.element.AddType("http://tracker.api.gnome.org/ontology/v3/nfo#Document");
  result.extraction.element.Add("http://tracker.api.gnome.org/ontology/v3/nie#plainTextContent",
                                std::string("text } WHERE { <urn:x> a <urn:y> }\n"));
  Description artist;
  artist.iri = "urn:artist:1";
  artist.AddType("http://tracker.api.gnome.org/ontology/v3/nmm#Artist");
  result.extraction.related.push_back(artist);
  return result;
}

TEST_CASE("Bookkeeping SPARQL: the success state goes into the file's template (issue 5)") {
  const int64_t mtime = 1'700'000'000'123'456;
  const std::string core = ToSparqlUpdate(CoreResult());
  FileResult extracted = CoreResult();
  extracted.file_state = SuccessState(mtime);
  const std::string update = ToSparqlUpdate(extracted);
  const std::string state =
      "<http://quarry.gnome.invalid/ontology/v1/qxo#extractedMtime> "
      "\"2023-11-14T22:13:20.123456Z\"^^xsd:dateTime";
  const std::string tail = "} WHERE { <urn:quarry:file:1> a nfo:FileDataObject }\n";
  REQUIRE(core.ends_with(tail));
  REQUIRE(update.ends_with(tail));
  // In the last template (the file's INSERT OR REPLACE), on the file, under its WHERE: no
  // operation of its own, and everything else as without it.
  const size_t at = update.find(state);
  REQUIRE(at != std::string::npos);
  CHECK(update.find(state, at + 1) == std::string::npos);
  CHECK(at > update.rfind("INSERT OR REPLACE {"));
  CHECK(update.rfind("<urn:quarry:file:1>", at) > update.rfind("INSERT OR REPLACE {"));
  CHECK(update.size() > core.size());
  CHECK(std::count(update.begin(), update.end(), ';') ==
        std::count(core.begin(), core.end(), ';') + 1);  // one more property of the file
  CHECK(core.find("extractedMtime") == std::string::npos);
  CHECK(update.find("PREFIX xsd:") != std::string::npos);  // its datatype's prefix declared
}

TEST_CASE("Bookkeeping SPARQL: a failure is cleared only when asked, and the rest stays the same") {
  const int64_t mtime = 1'700'000'000'123'456;
  const std::string clear = ClearFailure("urn:quarry:file:1");
  CHECK(clear.find("DELETE { <urn:quarry:file:1> <http://quarry.gnome.invalid/ontology/v1/qxo#"
                   "extractionFailure> ?f } WHERE") != std::string::npos);
  CHECK(clear.find("failedExtractor> ?e } WHERE") != std::string::npos);
  const std::string nothing = StateOnlyUpdate("urn:quarry:file:1", "file:///x", mtime, "", "");
  const std::string nothing_only =
      StateOnlyUpdate("urn:quarry:file:1", "file:///x", mtime, "", "", /*clear_failure=*/false);
  CHECK(nothing_only.find("DELETE") == std::string::npos);
  const size_t body = nothing_only.find("INSERT OR REPLACE");
  REQUIRE(body != std::string::npos);
  CHECK(nothing == nothing_only.substr(0, body) + clear + " ;\n" + nothing_only.substr(body));
}

// Runs `body` in a forked child inside the sandbox; the child's exit code is what body returns.
template <typename Body>
int InSandbox(Body body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (!EnterWorkerSandbox(512ull << 20)) ::_exit(100);
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

TEST_CASE("Sandbox: no network, no file writes, no exec, but reading works") {
  testing::TempDir dir;
  const std::string existing = dir.Write("in.txt", "hello").string();
  const std::string created = (dir / "new.txt").string();
  CHECK(InSandbox([] { return ::socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM ? 0 : 1; }) == 0);
  CHECK(InSandbox([] { return ::socket(AF_UNIX, SOCK_STREAM, 0) < 0 && errno == EPERM ? 0 : 1; }) == 0);
  CHECK(InSandbox([&] {
          return ::open(created.c_str(), O_WRONLY | O_CREAT, 0600) < 0 && errno == EACCES ? 0 : 1;
        }) == 0);
  CHECK(InSandbox([&] { return ::open(existing.c_str(), O_RDWR) < 0 && errno == EACCES ? 0 : 1; }) == 0);
  CHECK(InSandbox([&] { return ::unlink(existing.c_str()) < 0 && errno == EPERM ? 0 : 1; }) == 0);
  CHECK(InSandbox([] {
          char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
          return ::execv("/bin/true", argv) < 0 && errno == EPERM ? 0 : 1;
        }) == 0);
  CHECK(InSandbox([&] {
          const int fd = ::open(existing.c_str(), O_RDONLY);
          char buffer[8] = {};
          return fd >= 0 && ::read(fd, buffer, sizeof buffer) == 5 ? 0 : 1;
        }) == 0);
  CHECK(InSandbox([] {  // RLIMIT_AS: 1 GiB cannot be had under a 512 MiB limit
          void* block = ::malloc(1ull << 30);
          return block == nullptr ? 0 : 1;
        }) == 0);
  CHECK_FALSE(std::filesystem::exists(created));
  CHECK(std::filesystem::exists(existing));
}

TEST_CASE("LoadExtractConfig: quarry.toml [throttle] through the miner's loader") {
  testing::TempDir dir;
  SUBCASE("no file: the miner's default budget, no warnings") {
    const auto config = LoadExtractConfig(dir / "missing.toml");
    REQUIRE(config.ok());
    CHECK(config->cpu_percent == 60);
    CHECK(config->warnings.empty());
  }
  SUBCASE("cpu_percent, and Tracker's level when it is absent") {
    CHECK(LoadExtractConfig(dir.Write("a.toml", "[throttle]\ncpu_percent = 40\n"))->cpu_percent == 40);
    CHECK(LoadExtractConfig(dir.Write("b.toml", "[throttle]\nlevel = 20\n"))->cpu_percent == 20);
  }
  SUBCASE("a bad value keeps the default and names its key; other sections are the miner's") {
    const auto config = LoadExtractConfig(
        dir.Write("c.toml", "[throttle]\ncpu_percent = \"fast\"\n[writes]\nbatch_files = 0\n"));
    REQUIRE(config.ok());
    CHECK(config->cpu_percent == 60);
    CHECK(config->warnings ==
          std::vector<std::string>{"throttle.cpu_percent: expected a number; using default 60"});
  }
  SUBCASE("not TOML: an error naming the file") {
    const auto config = LoadExtractConfig(dir.Write("d.toml", "[throttle\n"));
    REQUIRE_FALSE(config.ok());
    CHECK(config.error().ToString().find("d.toml") != std::string::npos);
  }
}

TEST_CASE("LoadExtractConfig: [extract] text_allowlist, its warnings kept (issue 5)") {
  testing::TempDir dir;
  SUBCASE("no file: the miner's default list") {
    const auto config = LoadExtractConfig(dir / "missing.toml");
    REQUIRE(config.ok());
    CHECK(config->text_allowlist == miner::MinerConfig{}.text_allowlist);
    CHECK(config->text_allowlist.front() == "*.txt");
  }
  SUBCASE("a list") {
    const auto config =
        LoadExtractConfig(dir.Write("a.toml", "[extract]\ntext_allowlist = [\"*\"]\n"));
    REQUIRE(config.ok());
    CHECK(config->text_allowlist == std::vector<std::string>{"*"});
  }
  SUBCASE("a bad value: the default, and the warning is the extractor's to report") {
    const auto config =
        LoadExtractConfig(dir.Write("b.toml", "[extract]\ntext_allowlist = [\"\"]\n"));
    REQUIRE(config.ok());
    CHECK(config->text_allowlist == miner::MinerConfig{}.text_allowlist);
    REQUIRE(config->warnings.size() == 1);
    CHECK(config->warnings[0].starts_with("extract.text_allowlist: \"\" is not a glob"));
  }
}

TEST_CASE("WorkerProcess::CpuTime reads the worker's own CPU clock (the throttle's input)") {
  // A "worker" that burns CPU, then waits: its CPU time grows while this thread only sleeps.
  auto worker = WorkerProcess::Spawn(
      {"/bin/sh", "-c", "i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done; sleep 60"});
  REQUIRE(worker.ok());
  const auto first = (*worker)->CpuTime();
  REQUIRE(first.has_value());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::optional<std::chrono::microseconds> later;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    later = (*worker)->CpuTime();
    REQUIRE(later.has_value());
  } while (*later < *first + std::chrono::milliseconds(30) &&
           std::chrono::steady_clock::now() < deadline);
  CHECK(*later >= *first + std::chrono::milliseconds(30));
}

TEST_CASE("NeedsLookup: the next batch is looked up while the workers still have a batch to do") {
  // Before: a lookup only once fewer jobs than workers were left, so every 16 files the
  // workers waited for a store round trip (and for any write the writer had in progress).
  CHECK(NeedsLookup(0, 2));
  CHECK(NeedsLookup(2, 2));
  CHECK(NeedsLookup(kLookupBatch, 2));
  CHECK(NeedsLookup(kLookupBatch + 1, 2));
  // ... but never more than a batch ahead, so a Queue call still overtakes the backlog soon.
  CHECK_FALSE(NeedsLookup(kLookupBatch + 2, 2));
  CHECK_FALSE(NeedsLookup(kLookupBatch + 8, 8));
}

TEST_CASE("WorkerGlibcTunables: adds the worker's tcache count unless the user set one") {
  const std::string ours = "glibc.malloc.tcache_count=" + std::to_string(kWorkerTcacheCount);
  CHECK(WorkerGlibcTunables(nullptr) == ours);
  CHECK(WorkerGlibcTunables("") == ours);
  CHECK(WorkerGlibcTunables("glibc.malloc.arena_max=1") == "glibc.malloc.arena_max=1:" + ours);
  // The user's own count wins, wherever it stands among the items.
  CHECK(WorkerGlibcTunables("glibc.malloc.tcache_count=3") == "glibc.malloc.tcache_count=3");
  CHECK(WorkerGlibcTunables("glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0") ==
        "glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0");
  // A longer name that merely starts like ours is another tunable.
  CHECK(WorkerGlibcTunables("glibc.malloc.tcache_count_x=3") ==
        "glibc.malloc.tcache_count_x=3:" + ours);
}

}  // namespace
}  // namespace quarry::extract::service
