// Notifier: GraphUpdated signals reach the callback decoded, filtered by class with arg0.
// A test emitter stands in for the store's signal emission: it owns a bus name and emits
// GraphUpdated from the store's object path and interface with sdbus-c++.
// The a(iiii) codec both sides use (store/ipc/quad_array.h, issue 7) against sdbus-c++'s own
// marshalling, each way: the wire format did not change.
#include "quarry/notifier.h"

#include <doctest/doctest.h>
#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <climits>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "store/engine/committed_changes.h"
#include "store/ipc/dbus_names.h"
#include "store/ipc/quad_array.h"
#include "store/ipc/raw_message.h"
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
  // An a(iii): the fast reader must refuse a struct of the wrong arity.
  void ShortStructs(const std::string& class_iri) {
    auto signal = object_->createSignal(ipc::kResourcesInterface, "GraphUpdated");
    using Short = sdbus::Struct<int32_t, int32_t, int32_t>;
    signal << class_iri << std::vector<Short>{Short{1, 2, 3}} << std::vector<Short>{};
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
  emitter.ShortStructs(kSong);
  emitter.GraphUpdated(kSong, {WireTriple{0, 800, 12, 801}},
                       {WireTriple{5, 800, 13, 0}, WireTriple{5, 802, 13, 0}});
  REQUIRE(inbox.WaitFor(1));
  std::lock_guard lock(inbox.mutex);
  REQUIRE(inbox.events.size() == 1);  // the Artist signal was never delivered
  const GraphUpdatedEvent& event = inbox.events.front();
  CHECK(event.class_iri == kSong);
  CHECK(event.deletes == std::vector<ChangedTriple>{{0, 800, 12, 801}});
  CHECK(event.inserts == std::vector<ChangedTriple>{{5, 800, 13, 0}, {5, 802, 13, 0}});
  CHECK((*notifier)->malformed_signals() == 2);
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

TEST_CASE("Notifier: a bus that goes away is reported by lost(), the application goes on") {
  // sdbus-c++'s own loop thread let the Disconnected error escape: std::terminate ended the
  // application (this test process) with SIGABRT.
  BusFixture bus;
  auto notifier = Notifier::Open({kSong}, [](const GraphUpdatedEvent&) {}, bus.options());
  REQUIRE(notifier.ok());
  CHECK_FALSE((*notifier)->lost());
  bus.KillBus();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!(*notifier)->lost()) {
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "lost() stayed false");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  notifier->reset();  // leaving a loop that has ended
}

// Extreme and negative IDs (an ID past INT32_MAX arrives as its low 32 bits, ChangedQuad::WireId),
// and more than one emission's default 4,096.
std::vector<ChangedTriple> ManyTriples(size_t count) {
  std::vector<ChangedTriple> triples{{INT32_MIN, INT32_MAX, -1, 0}, {0, -7, INT32_MIN, INT32_MAX}};
  for (size_t i = 0; triples.size() < count; ++i) {
    const auto n = static_cast<int32_t>(i);
    triples.push_back({n % 3 - 1, n * 7919, -n, INT32_MIN + n});
  }
  return triples;
}

std::vector<WireTriple> ToWire(const std::vector<ChangedTriple>& triples) {
  std::vector<WireTriple> wire;
  for (const ChangedTriple& t : triples) {
    wire.emplace_back(t.graph, t.subject, t.predicate, t.object);
  }
  return wire;
}

std::vector<ChangedTriple> FromWire(const std::vector<WireTriple>& wire) {
  std::vector<ChangedTriple> triples;
  for (const WireTriple& t : wire) {
    triples.push_back({t.get<0>(), t.get<1>(), t.get<2>(), t.get<3>()});
  }
  return triples;
}

TEST_CASE("GraphUpdated a(iiii): the sd-bus codec and sdbus-c++ read each other's arrays") {
  BusFixture bus;
  auto connection = sdbus::createSessionBusConnectionWithAddress(bus.address());
  auto object = sdbus::createObject(*connection, ipc::kObjectPath);
  const auto new_signal = [&] {
    return object->createSignal(ipc::kResourcesInterface, "GraphUpdated");
  };
  const std::vector<ChangedTriple> deletes = ManyTriples(5000);
  for (const std::vector<ChangedTriple>& inserts :
       {std::vector<ChangedTriple>{}, ManyTriples(3), ManyTriples(4097)}) {
    CAPTURE(inserts.size());  // each block: one direction
    // Written by the codec, read by sdbus-c++
    {
      auto signal = new_signal();
      signal << kSong;
      ipc::AppendQuadArray(ipc::RawMessage::Of(signal), std::span<const ChangedTriple>(deletes));
      ipc::AppendQuadArray(ipc::RawMessage::Of(signal), std::span<const ChangedTriple>(inserts));
      signal.seal();
      signal.rewind(true);
      CHECK(std::string(sd_bus_message_get_signature(ipc::RawMessage::Of(signal), 1)) ==
            "sa(iiii)a(iiii)");
      std::string class_iri;
      std::vector<WireTriple> wire_deletes, wire_inserts;
      signal >> class_iri >> wire_deletes >> wire_inserts;
      CHECK(class_iri == kSong);
      CHECK(FromWire(wire_deletes) == deletes);
      CHECK(FromWire(wire_inserts) == inserts);
    }
    // Written by sdbus-c++, read by the codec
    {
      auto signal = new_signal();
      signal << kSong << ToWire(deletes) << ToWire(inserts);
      signal.seal();
      signal.rewind(true);
      std::string class_iri;
      signal >> class_iri;
      std::vector<ChangedTriple> read_deletes, read_inserts;
      ipc::ReadQuadArray(ipc::RawMessage::Of(signal), read_deletes);
      ipc::ReadQuadArray(ipc::RawMessage::Of(signal), read_inserts);
      CHECK(class_iri == kSong);
      CHECK(read_deletes == deletes);
      CHECK(read_inserts == inserts);
      CHECK(sd_bus_message_at_end(ipc::RawMessage::Of(signal), 1) > 0);
    }
    // The store's quads through the codec both ways
    {
      std::vector<engine::ChangedQuad> quads;
      for (const ChangedTriple& t : inserts) {
        quads.emplace_back(t.graph, t.subject, t.predicate, t.object);
      }
      quads.emplace_back(int64_t{1} << 32 | 5, -2, INT64_C(0x7fffffff), int64_t{1} << 31);
      auto signal = new_signal();
      ipc::AppendQuadArray(ipc::RawMessage::Of(signal),
                           std::span<const engine::ChangedQuad>(quads));
      signal.seal();
      signal.rewind(true);
      std::vector<engine::ChangedQuad> read;
      ipc::ReadQuadArray(ipc::RawMessage::Of(signal), read);
      CHECK(read == quads);
      CHECK(read.back() == engine::ChangedQuad(5, -2, INT32_MAX, INT32_MIN));
    }
  }
}

TEST_CASE("GraphUpdated a(iiii): the codec refuses another type, as sdbus-c++ does") {
  BusFixture bus;
  auto connection = sdbus::createSessionBusConnectionWithAddress(bus.address());
  auto object = sdbus::createObject(*connection, ipc::kObjectPath);
  auto signal = object->createSignal(ipc::kResourcesInterface, "GraphUpdated");
  signal << std::vector<sdbus::Struct<int32_t, int32_t, int32_t, int64_t>>{{1, 2, 3, 4}};
  signal.seal();
  signal.rewind(true);
  std::vector<ChangedTriple> read;
  CHECK_THROWS_AS(ipc::ReadQuadArray(ipc::RawMessage::Of(signal), read), sdbus::Error);
  CHECK(read.empty());
}

TEST_CASE("Notifier: 5,000 deletes and 4,097 inserts with extreme IDs arrive exactly") {
  BusFixture bus;
  Emitter emitter(bus.address());
  Inbox inbox;
  BusOptions options = bus.options();
  options.bus_name = kEmitterName;
  auto notifier =
      Notifier::Open({kSong}, [&](const GraphUpdatedEvent& e) { inbox.Put(e); }, options);
  REQUIRE(notifier.ok());
  const std::vector<ChangedTriple> deletes = ManyTriples(5000);
  const std::vector<ChangedTriple> inserts = ManyTriples(4097);
  emitter.GraphUpdated(kSong, ToWire(deletes), ToWire(inserts));
  emitter.GraphUpdated(kSong, {}, {});
  REQUIRE(inbox.WaitFor(2));
  std::lock_guard lock(inbox.mutex);
  CHECK(inbox.events[0].deletes == deletes);
  CHECK(inbox.events[0].inserts == inserts);
  CHECK(inbox.events[1].class_iri == kSong);
  CHECK(inbox.events[1].deletes.empty());
  CHECK(inbox.events[1].inserts.empty());
  CHECK((*notifier)->malformed_signals() == 0);
}

}  // namespace
}  // namespace quarry::testing
