// Backend (issue 5): the writer merges the full-text index's segments when no write came for a
// moment, in small steps, and a write that arrives meanwhile runs after the step in progress.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>

#include "store/ipc/backend.h"
#include "store/ipc/status_board.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {
namespace {

using ipc::Backend;
using ipc::BackendOptions;

int64_t FtsSegments(engine::Store& store) {
  auto count =
      store.database().Prepare("SELECT count(DISTINCT id >> 37) FROM fts5_data WHERE id >> 37 > 0");
  REQUIRE(count.ok());
  auto has_row = count->Step();
  REQUIRE(has_row.ok());
  REQUIRE(*has_row);
  return count->ColumnInt64(0);
}

struct WriteSeen {
  int steps_before = 0;  // idle merge steps that had run when the write ran
  int64_t segments = 0;
};

TEST_CASE("Backend: idle full-text merging stops for a write after the running step") {
  TempDir dir;
  dir.Write("ontology/10-base.ontology", kTestBase);
  dir.Write("ontology/20-ex.ontology", kTestDomain);
  ipc::StatusBoard status;
  std::atomic<int> steps = 0;
  std::unique_ptr<Backend> backend;
  auto seen = std::make_shared<std::promise<WriteSeen>>();
  BackendOptions options;
  options.directory = dir.path() / "db";
  options.ontology_dir = dir.path() / "ontology";
  options.reader_count = 1;
  options.idle_merge_pages = 1;  // many small steps
  options.after_idle_merge_step = [&] {
    if (++steps != 1) return;
    // A write arrives while the writer merges: it must not wait for the rest of the merging.
    backend->SubmitWrite(ipc::UpdateSource::kInteractive,
                         {[&steps, seen](engine::Store& store) {
                            seen->set_value({steps.load(), FtsSegments(store)});
                          },
                          [seen](const Error&) {
                            seen->set_value({-1, -1});
                          }});
  };
  std::filesystem::create_directories(options.directory);
  backend = std::make_unique<Backend>(std::move(options), status);
  backend->Start();
  REQUIRE(backend->WaitUntilOpen().ok());
  // 15 transactions, one FTS5 segment each; nothing merges them while they are written.
  auto written = std::make_shared<std::promise<int64_t>>();
  for (int i = 0; i < 15; ++i) {
    backend->SubmitWrite(
        ipc::UpdateSource::kMiner,
        {[i, written](engine::Store& store) {
           const auto done = store.Update(fmt::format(
               "PREFIX ex: <http://example.org/ex#> INSERT DATA {{ <urn:s{0}> a ex:Song ; "
               "ex:title \"song{0} blue\" }}",
               i));
           REQUIRE(done.ok());
           if (i == 14) written->set_value(FtsSegments(store));
         },
         [](const Error&) {}});
  }
  CHECK(written->get_future().get() == 15);
  const WriteSeen write = seen->get_future().get();
  CHECK(write.steps_before == 1);
  CHECK(write.segments < 15);  // the first step merged
  backend->Shutdown();
}

}  // namespace
}  // namespace quarry::testing
