// Backend (issue 7, reads through quarry-store): a read whose query is known to be short runs on
// the submitting thread (the bus thread) with an idle reader's connection, instead of being
// handed to that reader's thread and back; an unknown or long one still goes to a reader thread,
// and a lent reader picks up what was queued while it was lent.
#include "store/ipc/backend.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "store/ipc/status_board.h"
#include "tests/store/schema/test_ontology.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {
namespace {

using namespace std::chrono_literals;
using ipc::Backend;
using ipc::BackendOptions;
using ipc::StoreJob;

struct Ran {
  std::thread::id thread;
  engine::Store* store = nullptr;
};

class BackendFixture {
 public:
  BackendFixture(int readers, std::chrono::microseconds budget, int mapped_readers = 1) {
    dir_.Write("ontology/10-base.ontology", kTestBase);
    dir_.Write("ontology/20-ex.ontology", kTestDomain);
    BackendOptions options;
    options.directory = dir_.path() / "db";
    options.ontology_dir = dir_.path() / "ontology";
    options.reader_count = readers;
    options.inline_read_budget = budget;
    options.mapped_readers = mapped_readers;
    std::filesystem::create_directories(options.directory);
    backend_ = std::make_unique<Backend>(std::move(options), status_);
    backend_->Start();
    REQUIRE(backend_->WaitUntilOpen().ok());
  }
  ~BackendFixture() { backend_->Shutdown(); }

  Backend& backend() { return *backend_; }

  // Submits a read that sleeps `work` and waits until it ran; where it ran.
  Ran Read(std::optional<size_t> key, std::chrono::milliseconds work = 0ms) {
    auto done = std::make_shared<std::promise<Ran>>();
    std::future<Ran> ran = done->get_future();
    backend_->SubmitRead({[done, work](engine::Store& store) {
                            if (work > 0ms) std::this_thread::sleep_for(work);
                            done->set_value({std::this_thread::get_id(), &store});
                          },
                          [done](const Error&) { done->set_value({}); }},
                         key);
    REQUIRE(ran.wait_for(30s) == std::future_status::ready);
    Settle();
    return ran.get();
  }

  // Waits until no read runs: the reader that ran the last one has recorded its cost (it does
  // so after the job returns, when the caller may already be submitting the next).
  void Settle() {
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> settled = done->get_future();
    backend_->SubmitWrite(ipc::UpdateSource::kInteractive,
                          {[this, done](engine::Store&) {
                             backend_->PauseReads();
                             backend_->ResumeReads();
                             done->set_value();
                           },
                           [done](const Error&) { done->set_value(); }});
    REQUIRE(settled.wait_for(30s) == std::future_status::ready);
  }

 private:
  TempDir dir_;
  ipc::StatusBoard status_;
  std::unique_ptr<Backend> backend_;
};

TEST_CASE("Backend: a read known to be short runs on the submitting thread, others on a reader") {
  BackendFixture fixture(2, std::chrono::seconds(10));
  const std::thread::id here = std::this_thread::get_id();

  // Never seen: a reader thread runs it (and measures it); seen short: this thread runs it,
  // with an idle reader's connection.
  const Ran first = fixture.Read(size_t{7});
  CHECK(first.thread != here);
  REQUIRE(first.store != nullptr);
  const Ran second = fixture.Read(size_t{7});
  CHECK(second.thread == here);
  CHECK(second.store != nullptr);
  CHECK(fixture.Read(size_t{7}).thread == here);

  // No key (e.g. a backup's read): always a reader thread.
  CHECK(fixture.Read(std::nullopt).thread != here);
  CHECK(fixture.Read(std::nullopt).thread != here);
  // Another query text is not known short because the first one is.
  CHECK(fixture.Read(size_t{8}).thread != here);
}

TEST_CASE("Backend: a read over the budget goes back to the reader threads") {
  // A budget far above a job that does nothing (even on a loaded machine), far below one
  // that sleeps.
  BackendFixture fixture(1, std::chrono::milliseconds(100));
  const std::thread::id here = std::this_thread::get_id();

  // Long on a reader thread: stays there.
  CHECK(fixture.Read(size_t{1}, 250ms).thread != here);
  CHECK(fixture.Read(size_t{1}).thread != here);  // measured short now
  CHECK(fixture.Read(size_t{1}).thread == here);
  // Long when run inline: the next run is handed to the reader again.
  CHECK(fixture.Read(size_t{1}, 250ms).thread == here);
  CHECK(fixture.Read(size_t{1}).thread != here);

  // A budget of zero turns inline reads off.
  BackendFixture off(1, std::chrono::microseconds(0));
  for (int i = 0; i < 3; ++i) CHECK(off.Read(size_t{1}).thread != here);
}

TEST_CASE("Backend: a lent reader takes the reads queued while it was lent") {
  BackendFixture fixture(1, std::chrono::seconds(10));
  const std::thread::id here = std::this_thread::get_id();
  REQUIRE(fixture.Read(size_t{3}).thread != here);

  // While the only reader's connection runs a read on this thread, another thread submits one:
  // it must neither run on that connection at the same time nor be forgotten.
  std::atomic<bool> inline_running{false};
  std::atomic<bool> overlapped{false};
  auto queued_ran = std::make_shared<std::promise<Ran>>();
  std::future<Ran> queued = queued_ran->get_future();
  std::thread::id inline_thread;
  fixture.backend().SubmitRead(
      {[&](engine::Store&) {
         inline_thread = std::this_thread::get_id();
         inline_running = true;
         std::thread other([&] {
           fixture.backend().SubmitRead(
               {[&, queued_ran](engine::Store& store) {
                  if (inline_running) overlapped = true;
                  queued_ran->set_value({std::this_thread::get_id(), &store});
                },
                [queued_ran](const Error&) { queued_ran->set_value({}); }},
               size_t{3});
         });
         other.join();
         std::this_thread::sleep_for(30ms);  // room for a wrong hand-out to run meanwhile
         inline_running = false;
       },
       [](const Error&) {}},
      size_t{3});
  CHECK(inline_thread == here);
  REQUIRE(queued.wait_for(30s) == std::future_status::ready);
  const Ran ran = queued.get();
  CHECK(ran.thread != here);
  CHECK(ran.store != nullptr);
  CHECK_FALSE(overlapped.load());
}

// The mmap_size of the connection a read ran with (0: not mapped; -1: the pragma failed). Runs
// on a reader thread: no doctest assertion here.
int64_t MmapSizeOf(engine::Store& store) {
  auto statement = store.database().Prepare("PRAGMA mmap_size");
  if (!statement) return -1;
  auto has_row = statement->Step();
  if (!has_row || !*has_row) return -1;
  return statement->ColumnInt64(0);
}

TEST_CASE("Backend: only the first mapped_readers readers map the database (reads prefer them)") {
  BackendFixture fixture(3, std::chrono::seconds(10), 1);
  const std::thread::id here = std::this_thread::get_id();

  // Three reads at once take the three readers: one connection maps meta.db, two do not.
  std::atomic<int> arrived{0};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::vector<std::future<int64_t>> sizes;
  for (int i = 0; i < 3; ++i) {
    auto size = std::make_shared<std::promise<int64_t>>();
    sizes.push_back(size->get_future());
    fixture.backend().SubmitRead({[&arrived, released, size](engine::Store& store) {
                                    size->set_value(MmapSizeOf(store));
                                    ++arrived;
                                    released.wait();
                                  },
                                  [size](const Error&) { size->set_value(-1); }},
                                 std::nullopt);
  }
  for (int i = 0; i < 3000 && arrived < 3; ++i) std::this_thread::sleep_for(10ms);
  REQUIRE(arrived == 3);
  release.set_value();
  int mapped = 0;
  for (auto& size : sizes) {
    REQUIRE(size.wait_for(30s) == std::future_status::ready);
    const int64_t value = size.get();
    CHECK(value >= 0);
    if (value > 0) ++mapped;
  }
  CHECK(mapped == 1);
  fixture.Settle();

  // All three readers idle: a read known short runs here with the connection the backend hands
  // out first, the lowest-numbered idle reader's, which is the mapped one, every time (with the
  // most recently idle reader first, the reader that took the last of the three reads above).
  fixture.Read(size_t{11});  // measured: known short from now on
  for (int i = 0; i < 5; ++i) {
    auto size = std::make_shared<std::promise<int64_t>>();
    std::future<int64_t> got = size->get_future();
    std::thread::id ran_on;
    fixture.backend().SubmitRead({[size, &ran_on](engine::Store& store) {
                                    ran_on = std::this_thread::get_id();
                                    size->set_value(MmapSizeOf(store));
                                  },
                                  [size](const Error&) { size->set_value(-1); }},
                                 size_t{11});
    REQUIRE(got.wait_for(30s) == std::future_status::ready);
    CHECK(ran_on == here);
    CHECK(got.get() > 0);
    fixture.Settle();
  }
}

TEST_CASE("Backend: mapped_readers 0 leaves every read connection unmapped") {
  BackendFixture fixture(2, std::chrono::microseconds(0), 0);
  for (int i = 0; i < 3; ++i) {
    auto size = std::make_shared<std::promise<int64_t>>();
    std::future<int64_t> got = size->get_future();
    fixture.backend().SubmitRead(
        {[size](engine::Store& store) { size->set_value(MmapSizeOf(store)); },
         [size](const Error&) { size->set_value(-1); }},
        std::nullopt);
    REQUIRE(got.wait_for(30s) == std::future_status::ready);
    CHECK(got.get() == 0);
    fixture.Settle();
  }
}

}  // namespace
}  // namespace quarry::testing
