// `quarry` failures: messages on stderr as "quarry: <context>: <message>", exit code 1 for a
// failed operation, 2 for a usage error, nothing on stdout; updates refused while another
// process holds the database's lock.
#include <doctest/doctest.h>

#include "store/engine/sqlite/lock_file.h"
#include "tests/cli/run_quarry.h"

namespace quarry::testing {
namespace {

TEST_CASE("bad SPARQL: exit 1 with the parser's message") {
  const TempDir dir;
  const std::string db = (dir / "db").string();
  const QuarryRun query = RunQuarry({"sparql", "--database", db, "--query", "SELECT ?s WHERE {"});
  CHECK(query.exit_code == 1);
  CHECK(query.out.empty());
  CHECK(query.err.rfind("quarry: query: ", 0) == 0);
  CHECK(query.err.back() == '\n');
  const QuarryRun update = RunQuarry({"sparql", "--database", db, "--update", "INSERT DATA {"});
  CHECK(update.exit_code == 1);
  CHECK(update.err.rfind("quarry: update: ", 0) == 0);
  const QuarryRun unknown =
      RunQuarry({"sparql", "--database", db, "--update", "INSERT DATA { <urn:x> a nmm:Nope }"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("unknown class") != std::string::npos);
}

TEST_CASE("missing files: exit 1 naming the file") {
  const TempDir dir;
  const std::string db = (dir / "db").string();
  const std::string missing = (dir / "missing.rq").string();
  const QuarryRun query = RunQuarry({"sparql", "--database", db, "--query-file", missing});
  CHECK(query.exit_code == 1);
  CHECK(query.err == "quarry: cannot open " + missing + ": No such file or directory\n");
  const std::string missing_ttl = (dir / "missing.ttl").string();
  const QuarryRun import = RunQuarry({"import", "--database", db, missing_ttl});
  CHECK(import.exit_code == 1);
  CHECK(import.out.empty());
  CHECK(import.err ==
        "quarry: import: cannot open " + missing_ttl + ": No such file or directory\n");
}

TEST_CASE("a broken import file names file:line:column and imports nothing") {
  const TempDir dir;
  const std::string db = (dir / "db").string();
  const auto file = dir.Write("broken.ttl",
                              "@prefix nmm: <http://tracker.api.gnome.org/ontology/v3/nmm#> .\n"
                              "<urn:a> a nmm:MusicPiece .\n"
                              "<urn:b> a nmm:MusicPiece\n");
  const QuarryRun run = RunQuarry({"import", "--database", db, file.string()});
  CHECK(run.exit_code == 1);
  CHECK(run.err.rfind("quarry: import: " + file.string() + ":3:", 0) == 0);
  CHECK(QuarryOk({"sparql", "--database", db, "--format", "csv", "--query",
                  "SELECT ?s WHERE { ?s a nmm:MusicPiece }"}) == "s\r\n");
}

TEST_CASE("sparql without --database asks quarry-store, and says when none runs") {
  ::setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/quarry-cli-test-bus", 1);
  const QuarryRun run = RunQuarry({"sparql", "--query", "ASK {}"});
  ::unsetenv("DBUS_SESSION_BUS_ADDRESS");
  CHECK(run.exit_code == 1);
  INFO(run.err);
  CHECK(run.err.starts_with("quarry: quarry-store is not running on the session bus: "));
}

TEST_CASE("usage errors exit with 2") {
  const TempDir dir;
  const std::string db = (dir / "db").string();
  SUBCASE("no subcommand") { CHECK(RunQuarry({}).exit_code == 2); }
  SUBCASE("import without --database") { CHECK(RunQuarry({"import", "x.ttl"}).exit_code == 2); }
  SUBCASE("no request") { CHECK(RunQuarry({"sparql", "--database", db}).exit_code == 2); }
  SUBCASE("two requests") {
    CHECK(RunQuarry({"sparql", "--database", db, "--query", "ASK {}", "--update", "CLEAR ALL"})
              .exit_code == 2);
  }
  SUBCASE("unknown format") {
    const QuarryRun run =
        RunQuarry({"sparql", "--database", db, "--format", "yaml", "--query", "ASK {}"});
    CHECK(run.exit_code == 2);
    CHECK_FALSE(run.err.empty());
  }
  SUBCASE("bad --param") {
    CHECK(RunQuarry({"sparql", "--database", db, "--query", "ASK {}", "--param", "novalue"})
              .exit_code == 2);
  }
  SUBCASE("import without files") { CHECK(RunQuarry({"import", "--database", db}).exit_code == 2); }
  SUBCASE("--help is not an error") {
    const QuarryRun run = RunQuarry({"sparql", "--help"});
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("--update-file") != std::string::npos);
  }
}

TEST_CASE("while another process holds the lock, queries work and updates are refused") {
  const TempDir dir;
  const std::string db = (dir / "db").string();
  QuarryOk({"sparql", "--database", db, "--update",
            "INSERT DATA { <urn:s> a nmm:MusicPiece ; nie:title \"t\" }"});
  auto lock = engine::LockFile::TryAcquire(db);
  REQUIRE(lock.ok());
  REQUIRE(lock->has_value());
  CHECK(QuarryOk({"sparql", "--database", db, "--format", "csv", "--query",
                  "SELECT ?t WHERE { ?s nie:title ?t }"}) == "t\r\nt\r\n");
  const QuarryRun update = RunQuarry(
      {"sparql", "--database", db, "--update", "INSERT DATA { <urn:s2> a nmm:MusicPiece }"});
  CHECK(update.exit_code == 1);
  CHECK(update.err.find("read-only") != std::string::npos);
  const auto file = dir.Write("data.ttl", "<urn:s3> a <urn:whatever> .\n");
  const QuarryRun import = RunQuarry({"import", "--database", db, file.string()});
  CHECK(import.exit_code == 1);
  CHECK(import.err.rfind("quarry: import: ", 0) == 0);
  CHECK(import.err.find("read-only") != std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
