// Issue 7: a ContactView follows quarry-store's GraphUpdated signals — 1,000 contacts saved
// one transaction each by another process (contacts_writer) through the store reach the view,
// in commit order, none missed, each equal to what was saved; edits and removals come through
// as changed and removed.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "bench/phonebook/contact_generator.h"
#include "quarry/contacts.h"
#include "tests/ipc/child_process.h"
#include "tests/support/bus_fixture.h"

namespace quarry::contacts {
namespace {

struct Recorder {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::vector<std::string>> added_batches;  // UIDs per emission
  std::vector<std::string> changed_uids, removed_uids;
  size_t added = 0;

  void Record(const ViewChanges& changes) {
    std::lock_guard lock(mutex);
    std::vector<std::string> uids;
    for (const auto& c : changes.added) uids.push_back(c.uid);
    std::sort(uids.begin(), uids.end());
    added += uids.size();
    if (!uids.empty()) added_batches.push_back(std::move(uids));
    for (const auto& c : changes.changed) changed_uids.push_back(c.uid);
    for (const auto& uid : changes.removed) removed_uids.push_back(uid);
    changed.notify_all();
  }
  template <typename Done>
  bool WaitFor(Done done) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(60), [&] { return done(*this); });
  }
};

TEST_CASE("ContactView: 1,000 saves by another process arrive in order, nothing missed") {
  testing::BusFixture bus;
  testing::TempDir dir;
  bus.StartStore(dir.path(), QUARRY_ONTOLOGY_DIR);
  auto writer = Connection::Bus(bus.options());
  REQUIRE(writer.ok());
  ContactBook book(**writer);
  REQUIRE(book.Save({bench::GenerateContact(0)}).ok());

  auto reader = Connection::Direct(dir.path(), QUARRY_ONTOLOGY_DIR);
  REQUIRE(reader.ok());
  Recorder recorder;
  auto view = ContactView::Open(std::move(*reader), std::nullopt,
                                [&](const ViewChanges& c) { recorder.Record(c); }, bus.options());
  REQUIRE_MESSAGE(view.ok(), (view ? "" : view.error().ToString()));
  CHECK((*view)->contacts().size() == 1);

  constexpr uint32_t kEdits = 1000;
  testing::ChildProcess writer_process(
      {QUARRY_CONTACTS_WRITER, bus.address(), "1", std::to_string(kEdits)},
      /*capture_stdout=*/false);
  // Signal 0 only waits for the writer (SIGKILL after the patience).
  const int status = writer_process.Stop(0, std::chrono::seconds(120));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE_MESSAGE(recorder.WaitFor([](Recorder& r) { return r.added >= kEdits; }),
                  "the view saw ", recorder.added, " of ", kEdits, " saves");
  // Commit order across emissions: every UID of one emission sorts before the next one's
  // (generated UIDs grow with i).
  std::vector<std::string> seen;
  for (const auto& batch : recorder.added_batches) seen.insert(seen.end(), batch.begin(), batch.end());
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.size() == kEdits);
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
  const std::vector<Contact> current = (*view)->contacts();
  REQUIRE(current.size() == kEdits + 1);
  for (uint32_t i = 0; i <= kEdits; ++i) {  // by UID order, which is generation order
    CAPTURE(i);
    CHECK(Canonical(current[i]) == Canonical(bench::GenerateContact(i)));
  }

  Contact edited = bench::GenerateContact(5);
  edited.notes = {"edited"};
  REQUIRE(book.Save({edited}).ok());
  REQUIRE(book.Remove({"contact-000007"}).ok());
  REQUIRE(recorder.WaitFor([](Recorder& r) { return !r.removed_uids.empty(); }));
  CHECK(recorder.changed_uids == std::vector<std::string>{"contact-000005"});
  CHECK(recorder.removed_uids == std::vector<std::string>{"contact-000007"});
  CHECK((*view)->contacts().size() == kEdits);
}

TEST_CASE("ContactView with a filter keeps only matching contacts") {
  testing::BusFixture bus;
  testing::TempDir dir;
  bus.StartStore(dir.path(), QUARRY_ONTOLOGY_DIR);
  auto writer = Connection::Bus(bus.options());
  REQUIRE(writer.ok());
  ContactBook book(**writer);
  // Berg1 and Lovelace3: the initial load (the filter's key search, then its IDs) keeps one.
  REQUIRE(book.Save({bench::GenerateContact(1), bench::GenerateContact(48)}).ok());
  auto reader = Connection::Direct(dir.path(), QUARRY_ONTOLOGY_DIR);
  REQUIRE(reader.ok());
  Recorder recorder;
  auto view = ContactView::Open(std::move(*reader),
                                ContactFilter{ContactFilter::Kind::kNamePrefix, "lovelace"},
                                [&](const ViewChanges& c) { recorder.Record(c); }, bus.options());
  REQUIRE(view.ok());
  {
    const auto initial = (*view)->contacts();
    REQUIRE(initial.size() == 1);
    CHECK(Canonical(initial[0]) == Canonical(bench::GenerateContact(48)));
  }
  std::vector<Contact> contacts;
  for (uint32_t i = 0; i < 40; ++i) contacts.push_back(bench::GenerateContact(i));
  REQUIRE(book.Save(contacts).ok());
  REQUIRE(recorder.WaitFor([](Recorder& r) { return r.added >= 3; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // nothing else may come
  std::vector<std::string> uids;
  for (const auto& c : (*view)->contacts()) uids.push_back(c.uid);
  CHECK(uids == std::vector<std::string>{"contact-000000", "contact-000016", "contact-000032",
                                         "contact-000048"});
}

}  // namespace
}  // namespace quarry::contacts
