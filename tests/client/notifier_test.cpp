// Notifier: GraphUpdated signals reach the callback decoded, filtered by class with arg0.
// A test emitter stands in for the store's signal emission: it owns a bus name and emits
// GraphUpdated from the store's object path and interface with sdbus-c++.
#include "quarry/notifier.h"

#include <doctest/doctest.h>
#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "store/ipc/dbus_names.h"
#include "tests/client/client_fixture.h"

namespace quarry::testing {
namespace {

using WireTriple = sdbus::Struct<int32_t, int32_t, int32_t, int32_t>;
constexpr const char* kEmitterName = "org.quarry.TestEmitter";
const std::string kSong = "http://example.org/ex#Song";
const std::string kArtist = "http://example.org/ex#Artist";

class Emitter {
 public:
  explicit Emitter(const std::string& address)
      : connection_(sdbus::createSessionBusConnectionWithAddress(address)) {
    connection_->requestName(kEmitterName);
    object_ = sdbus::createObject(*connection_, ipc::kObjectPath);
    object_->registerSignal("GraphUpdated")
        .onInterface(ipc::kResourcesInterface)
        .withParameters<std::string, std::vector<WireTriple>, std::vector<WireTriple>>();
    object_->registerSignal("Broken").onInterface("org.quarry.Test").withParameters<int32_t>();
    object_->finishRegistration();
  }
  void GraphUpdated(const std::string& class_iri, std::vector<WireTriple> deletes,
                    std::vector<WireTriple> inserts) {
    object_->emitSignal("GraphUpdated")
        .onInterface(ipc::kResourcesInterface)
        .withArguments(class_iri, deletes, inserts);
  }
  // The right member and arg0, the wrong body: the notifier must not crash on it.
  void Malformed(const std::string& class_iri) {
    auto signal = object_->createSignal(ipc::kResourcesInterface, "GraphUpdated");
    signal << class_iri << int32_t{5};
    object_->emitSignal(signal);
  }

 private:
  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IObject> object_;
};

// Collects events from the notifier's thread.
struct Inbox {
  void Put(const GraphUpdatedEvent& event) {
    std::lock_guard lock(mutex);
    events.push_back(event);
    arrived.notify_all();
  }
  bool WaitFor(size_t count, std::chrono::milliseconds patience = std::chrono::seconds(10)) {
    std::unique_lock lock(mutex);
    return arrived.wait_for(lock, patience, [&] { return events.size() >= count; });
  }
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<GraphUpdatedEvent> events;
};

TEST_CASE("Notifier: subscribed classes arrive decoded, others are filtered by the bus") {
  BusFixture bus;
  Emitter emitter(bus.address());
  Inbox inbox;
  BusOptions options = bus.options();
  options.bus_name = kEmitterName;
  auto notifier = Notifier::Open({kSong}, [&](const GraphUpdatedEvent& e) { inbox.Put(e); }, options);
  REQUIRE_MESSAGE(notifier.ok(), (notifier ? std::string() : notifier.error().ToString()));

  emitter.GraphUpdated(kArtist, {}, {WireTriple{0, 1, 2, 3}});
  emitter.Malformed(kSong);
  emitter.GraphUpdated(kSong, {WireTriple{0, 800, 12, 801}},
                       {WireTriple{5, 800, 13, 0}, WireTriple{5, 802, 13, 0}});
  REQUIRE(inbox.WaitFor(1));
  std::lock_guard lock(inbox.mutex);
  REQUIRE(inbox.events.size() == 1);  // the Artist signal was never delivered
  const GraphUpdatedEvent& event = inbox.events.front();
  CHECK(event.class_iri == kSong);
  CHECK(event.deletes == std::vector<ChangedTriple>{{0, 800, 12, 801}});
  CHECK(event.inserts == std::vector<ChangedTriple>{{5, 800, 13, 0}, {5, 802, 13, 0}});
  CHECK((*notifier)->malformed_signals() == 1);
}

TEST_CASE("Notifier: signals from another sender on the same path are not delivered") {
  BusFixture bus;
  Emitter emitter(bus.address());
  Inbox inbox;
  auto notifier = Notifier::Open({kSong}, [&](const GraphUpdatedEvent& e) { inbox.Put(e); },
                                 bus.options());  // listens to org.quarry.Store1, not the emitter
  REQUIRE(notifier.ok());
  emitter.GraphUpdated(kSong, {}, {WireTriple{0, 1, 2, 3}});
  CHECK_FALSE(inbox.WaitFor(1, std::chrono::milliseconds(500)));
}

}  // namespace
}  // namespace quarry::testing
