// `quarry daemon start|status|stop`, `quarry status`, and `quarry sparql` without --database,
// on a private bus.
#include <doctest/doctest.h>

#include "tests/cli/run_quarry.h"
#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

TEST_CASE("quarry daemon: start, status, queries through the store, stop") {
  TempDir dir;
  dir.Write("ontology/10-base.ontology", kTestBase);
  dir.Write("ontology/20-ex.ontology", kTestDomain);
  BusFixture bus;  // exports DBUS_SESSION_BUS_ADDRESS to the quarry children
  ::setenv("QUARRY_STORE_BIN", QUARRY_STORE_BIN, 1);

  const QuarryRun not_yet = RunQuarry({"daemon", "status"});
  CHECK(not_yet.exit_code == 3);
  CHECK(not_yet.out == "quarry-store is not running\n");
  const QuarryRun no_store = RunQuarry({"sparql", "-q", "SELECT * {}"});
  CHECK(no_store.exit_code == 1);
  CHECK(no_store.err.starts_with("quarry: quarry-store is not running on the session bus"));

  const std::string started = QuarryOk({"daemon", "start", "--database", (dir / "db").string(),
                                        "--ontology", (dir / "ontology").string()});
  CHECK(started.starts_with("quarry-store started (pid "));
  CHECK(QuarryOk({"daemon", "status"}).starts_with("quarry-store is running (pid "));
  CHECK(QuarryOk({"daemon", "start"}).starts_with("quarry-store is already running"));
  const std::string status = QuarryOk({"status"});  // Busy while the database still opens
  // The store's line first; no miner or extractor runs on this private bus.
  CHECK((status.starts_with("Store         Idle\n") || status.starts_with("Store         Busy ")));
  CHECK(status.find("Miner Files   not running\n") != std::string::npos);
  CHECK(status.find("Extractor     not running\n") != std::string::npos);

  QuarryOk({"sparql", "-u", kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"Hallo\"@de }"});
  const std::string table = "t\n--------\nHallo@de\n1 row\n";
  CHECK(QuarryOk({"sparql", "-q", kEx + "SELECT ?t { ?s ex:title ?t }"}) == table);
  CHECK(QuarryOk({"sparql", "--fd", "-q", kEx + "SELECT ?t { ?s ex:title ?t }"}) == table);
  // Plain D-Bus carries neither variable names nor language tags.
  CHECK(QuarryOk({"sparql", "--no-fd", "-q", kEx + "SELECT ?t { ?s ex:title ?t }"}) ==
        "\n-----\nHallo\n1 row\n");
  CHECK(QuarryOk({"sparql", "-q", kEx + "SELECT ?t { ~s ex:title ?t }", "--param", "s=<urn:a>"}) ==
        table);
  const QuarryRun bad = RunQuarry({"sparql", "-q", "SELECT ?s {"});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.starts_with("quarry: query: "));

  const std::string stopped = QuarryOk({"daemon", "stop"});
  CHECK(stopped.starts_with("quarry-store stopped (pid "));
  CHECK(RunQuarry({"daemon", "status"}).exit_code == 3);
  CHECK(QuarryOk({"daemon", "stop"}) == "quarry-store is not running\n");
  ::unsetenv("QUARRY_STORE_BIN");
}

TEST_CASE("quarry backup and restore go through the store") {
  StoreFixture store;
  const std::string backup = (store.dir / "saved.db").string();
  QuarryOk({"sparql", "-u", kEx + "INSERT DATA { <urn:a> a ex:Song ; ex:title \"one\" }"});
  QuarryOk({"backup", backup});
  QuarryOk({"sparql", "-u", kEx + "DELETE DATA { <urn:a> ex:title \"one\" }"});
  QuarryOk({"restore", backup});
  CHECK(QuarryOk({"sparql", "-q", kEx + "SELECT ?t { <urn:a> ex:title ?t }"}).ends_with("one\n1 row\n"));
  const QuarryRun missing = RunQuarry({"restore", (store.dir / "nope.db").string()});
  CHECK(missing.exit_code == 2);  // CLI11 checks the file exists
}

}  // namespace
}  // namespace quarry::testing
