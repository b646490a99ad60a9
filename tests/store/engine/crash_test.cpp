// A process killed in the middle of a transaction loses that transaction and nothing else.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

TEST_CASE("a database reopened after a crash mid-transaction has all committed data, nothing partial") {
  TestStore store;
  store.Update(kPrefixes + "INSERT DATA { <urn:kept> a ex:Song ; ex:title \"kept\" }");
  std::string big = kPrefixes + "INSERT DATA {\n";
  for (int i = 0; i < 50000; ++i) {
    big += "<urn:big:" + std::to_string(i) + "> a ex:Song ; ex:title \"big " + std::to_string(i) + "\" .\n";
  }
  big += "}";
  store.Close();  // the child takes the writer lock
  for (const int delay_ms : {20, 150, 400}) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      auto opened = engine::Store::Open({store.dir().path() / "db", store.dir().path() / "ontology", false});
      if (opened.ok()) (void)(*opened)->Update(big);
      _exit(0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    store.Reopen();
    const auto count = store.Rows(kPrefixes + "SELECT (COUNT(?s) AS ?n) { ?s a ex:Song }");
    REQUIRE(count.size() == 1);
    INFO("after a kill at " << delay_ms << " ms: " << count[0] << " songs");
    CHECK((count[0] == "1" || count[0] == "50001"));
    CHECK(store.Rows(kPrefixes + "SELECT ?t { <urn:kept> ex:title ?t }") == std::vector<std::string>{"kept"});
    auto check = store->database().Prepare("PRAGMA integrity_check");
    REQUIRE(check.ok());
    REQUIRE(*check->Step());
    CHECK(check->ColumnText(0) == "ok");
    if (count[0] == "50001") {
      store.Update(kPrefixes + "DELETE { ?s a rdfs:Resource } WHERE { ?s a ex:Song FILTER (?s != <urn:kept>) }");
    }
    store.Close();
  }
}

}  // namespace
}  // namespace quarry::testing
