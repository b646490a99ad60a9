// GraphUpdated and Writeback from a real quarry-store on a private bus (issue 4): contents,
// order, coalescing by time and size, match-rule filtering through quarry::Notifier, ID
// resolution, writeback by update source, nothing for a rolled-back update.
// No test measures time: each waits for signals with generous timeouts, and time-based
// coalescing is checked with a delay far longer than the test (flushed by a clean stop).
#include <doctest/doctest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <set>
#include <tuple>

#include "quarry/notifier.h"
#include "tests/ipc/store_fixture.h"

namespace quarry::testing {
namespace {

using Triples = std::vector<ChangedTriple>;
using Writeback = std::map<int32_t, std::vector<int32_t>>;
using WireTriple = sdbus::Struct<int32_t, int32_t, int32_t, int32_t>;

const std::string kSong = "http://example.org/ex#Song";
const std::string kAlbum = "http://example.org/ex#Album";
constexpr auto kPatience = std::chrono::seconds(20);

// A second notify class, a writeback property and a link like nie:isPartOf.
const std::string kSignalsOntology = kTestPrefixes + R"(
ex:Album a rdfs:Class ; rdfs:subClassOf ex:Media ; nrl:notify true .
ex:comment a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:string ;
  nrl:maxCardinality 1 ; nrl:writeback true .
ex:partOf a rdf:Property ; rdfs:domain ex:Element ; rdfs:range ex:Element .
)";

// Every Resources signal of the object path, whoever sends it: unlike a Notifier (which
// matches the sender's well-known name) it also hears signals flushed after the store released
// its name on the way out.
class SignalListener {
 public:
  struct GraphUpdated {
    std::string class_iri;
    Triples deletes;
    Triples inserts;
  };

  explicit SignalListener(const std::string& address)
      : connection_(sdbus::createSessionBusConnectionWithAddress(address)) {
    slot_ = connection_->addMatch(
        "type='signal',path='/org/quarry/Store1',interface='org.quarry.Store1.Resources'",
        [this](sdbus::Message& message) { Receive(message); });
    connection_->enterEventLoopAsync();
  }
  ~SignalListener() { connection_->leaveEventLoop(); }

  // The first `count` GraphUpdated signals; fails the test if they do not come.
  std::vector<GraphUpdated> WaitGraphUpdated(size_t count) {
    std::unique_lock lock(mutex_);
    REQUIRE(arrived_.wait_for(lock, kPatience, [&] { return graph_updated_.size() >= count; }));
    return graph_updated_;
  }
  std::vector<Writeback> WaitWriteback(size_t count) {
    std::unique_lock lock(mutex_);
    REQUIRE(arrived_.wait_for(lock, kPatience, [&] { return writeback_.size() >= count; }));
    return writeback_;
  }
  size_t graph_updated_count() {
    const std::lock_guard lock(mutex_);
    return graph_updated_.size();
  }

 private:
  static Triples Decode(const std::vector<WireTriple>& wire) {
    Triples triples;
    for (const WireTriple& t : wire) {
      triples.push_back({t.get<0>(), t.get<1>(), t.get<2>(), t.get<3>()});
    }
    return triples;
  }
  void Receive(sdbus::Message& message) {
    const std::string member = message.getMemberName();
    const std::lock_guard lock(mutex_);
    if (member == "GraphUpdated") {
      std::string class_iri;
      std::vector<WireTriple> deletes, inserts;
      message >> class_iri >> deletes >> inserts;
      graph_updated_.push_back({class_iri, Decode(deletes), Decode(inserts)});
    } else if (member == "Writeback") {
      Writeback subjects;
      message >> subjects;
      writeback_.push_back(subjects);
    }
    arrived_.notify_all();
  }

  std::unique_ptr<sdbus::IConnection> connection_;
  sdbus::Slot slot_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<GraphUpdated> graph_updated_;
  std::vector<Writeback> writeback_;
};

// A store with the signals ontology and a listener subscribed before it starts.
struct SignalStore {
  explicit SignalStore(const std::vector<std::string>& args = {}) {
    fixture.dir().Write("ontology/30-signals.ontology", kSignalsOntology);
    fixture.Start(args);
    listener = std::make_unique<SignalListener>(fixture.address());
  }
  // tracker:id of an IRI, through the store.
  int32_t Id(const std::string& iri) {
    const Rows rows = client.Query("SELECT (tracker:id(<" + iri + ">) AS ?id) {}");
    REQUIRE(rows.size() == 1);
    return std::stoi(rows[0][0]);
  }
  int32_t Ex(const std::string& local) { return Id("http://example.org/ex#" + local); }
  Triples SongTypes(int32_t subject) {
    Triples types;
    const int32_t type = Id("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
    for (const char* cls : {"Song", "Media", "Element"}) types.push_back({0, subject, type, Ex(cls)});
    types.push_back({0, subject, type, Id("http://www.w3.org/2000/01/rdf-schema#Resource")});
    return types;
  }

  StoreFixture fixture;
  StoreClient client{fixture.address()};
  std::unique_ptr<SignalListener> listener;
};

Triples Sorted(Triples triples) {
  std::sort(triples.begin(), triples.end(), [](const ChangedTriple& a, const ChangedTriple& b) {
    return std::tie(a.graph, a.subject, a.predicate, a.object) <
           std::tie(b.graph, b.subject, b.predicate, b.object);
  });
  return triples;
}

Triples Concat(Triples first, const Triples& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

bool Contains(const Triples& triples, const ChangedTriple& triple) {
  return std::find(triples.begin(), triples.end(), triple) != triples.end();
}

TEST_CASE("GraphUpdated: insert, update and delete of a song, IDs only") {
  SignalStore store;
  store.client.Update(R"(INSERT DATA { <urn:art> a ex:Artist ; ex:name "Band" .
                                       <urn:s1> a ex:Song ; ex:title "A" ; ex:performer <urn:art> })");
  auto signals = store.listener->WaitGraphUpdated(1);
  const int32_t s1 = store.Id("urn:s1");
  const int32_t title = store.Ex("title");
  CHECK(signals[0].class_iri == kSong);
  CHECK(signals[0].deletes.empty());
  CHECK(Sorted(signals[0].inserts) ==
        Sorted(Concat(store.SongTypes(s1), {{0, s1, title, 0},
                                            {0, s1, store.Ex("performer"), store.Id("urn:art")}})));

  store.client.Update("INSERT OR REPLACE { <urn:s1> ex:title \"B\" } WHERE {}");
  signals = store.listener->WaitGraphUpdated(2);
  CHECK(signals[1].deletes == Triples{{0, s1, title, 0}});
  CHECK(signals[1].inserts == Triples{{0, s1, title, 0}});

  store.client.Update("DELETE DATA { <urn:s1> a rdfs:Resource }");
  signals = store.listener->WaitGraphUpdated(3);
  CHECK(signals[2].inserts.empty());
  CHECK(Sorted(signals[2].deletes) == Sorted(signals[0].inserts));  // the whole song went
  CHECK(signals.size() == 3);  // the artist is no notify class
}

TEST_CASE("GraphUpdated: a rename is one signal, deletes first, a deleted <a> carries <b>") {
  SignalStore store;
  store.client.Update(R"(INSERT DATA { <urn:b1> a ex:Album . <urn:b2> a ex:Album .
                                       <urn:a> a ex:Song ; ex:title "Old" ; ex:partOf <urn:b1> })");
  store.listener->WaitGraphUpdated(2);  // Album, then Song
  const int32_t a = store.Id("urn:a");
  const int32_t part_of = store.Ex("partOf");
  store.client.Update(R"(DELETE { <urn:a> ex:title ?t ; ex:partOf <urn:b1> }
                         INSERT { <urn:a> ex:title "New" ; ex:partOf <urn:b2> }
                         WHERE { <urn:a> ex:title ?t })");
  auto signals = store.listener->WaitGraphUpdated(3);
  CHECK(signals[2].class_iri == kSong);
  CHECK(Sorted(signals[2].deletes) ==
        Sorted({{0, a, store.Ex("title"), 0}, {0, a, part_of, store.Id("urn:b1")}}));
  CHECK(Sorted(signals[2].inserts) ==
        Sorted({{0, a, store.Ex("title"), 0}, {0, a, part_of, store.Id("urn:b2")}}));

  store.client.Update("DELETE DATA { <urn:a> a rdfs:Resource }");  // Tracker's "delete <a>"
  signals = store.listener->WaitGraphUpdated(4);
  CHECK(Contains(signals[3].deletes, {0, a, part_of, store.Id("urn:b2")}));
}

TEST_CASE("GraphUpdated: a client resolves the IDs in one query each") {
  SignalStore store;
  store.client.Update(R"(INSERT DATA { <urn:x> a ex:Song ; ex:title "X" .
                                       <urn:y> a ex:Song ; ex:title "Y" })");
  const auto signals = store.listener->WaitGraphUpdated(1);
  std::vector<int32_t> subjects;
  for (const ChangedTriple& triple : signals[0].inserts) subjects.push_back(triple.subject);
  std::sort(subjects.begin(), subjects.end());
  subjects.erase(std::unique(subjects.begin(), subjects.end()), subjects.end());
  REQUIRE(subjects.size() == 2);
  const Rows titles = store.client.Query(fmt::format(
      "SELECT ?r ?t {{ ?r ex:title ?t FILTER (tracker:id(?r) IN ({}, {})) }} ORDER BY ?t",
      subjects[0], subjects[1]));
  CHECK(titles == Rows{{"urn:x", "X"}, {"urn:y", "Y"}});
  const Rows uris = store.client.Query(fmt::format(
      "SELECT (tracker:uri({}) AS ?a) (tracker:uri({}) AS ?b) {{}}", subjects[0], subjects[1]));
  REQUIRE(uris.size() == 1);
  CHECK(std::set<std::string>(uris[0].begin(), uris[0].end()) ==
        std::set<std::string>{"urn:x", "urn:y"});
}

TEST_CASE("GraphUpdated: Notifier gets only its classes, filtered by the bus with arg0") {
  SignalStore store;
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<GraphUpdatedEvent> events;
  auto notifier = Notifier::Open(
      {kSong},
      [&](const GraphUpdatedEvent& event) {
        const std::lock_guard lock(mutex);
        events.push_back(event);
        arrived.notify_all();
      },
      BusOptions{"org.quarry.Store1", store.fixture.address()});
  REQUIRE_MESSAGE(notifier.ok(), (notifier ? std::string() : notifier.error().ToString()));
  store.client.Update("INSERT DATA { <urn:album> a ex:Album }");
  store.listener->WaitGraphUpdated(1);  // the album's signal went out
  store.client.Update("INSERT DATA { <urn:song> a ex:Song }");
  const auto all = store.listener->WaitGraphUpdated(2);
  CHECK(all[0].class_iri == kAlbum);
  std::unique_lock lock(mutex);
  REQUIRE(arrived.wait_for(lock, kPatience, [&] { return !events.empty(); }));
  CHECK(events.size() == 1);  // the album's signal, emitted first, was never delivered
  CHECK(events[0].class_iri == kSong);
  CHECK(events[0].inserts == all[1].inserts);
}

TEST_CASE("GraphUpdated: coalesced by time until the delay, flushed by a clean stop") {
  // A delay longer than any test run: only the stop can emit.
  SignalStore store({"--signal-delay-ms", "60000"});
  for (int i = 0; i < 5; ++i) {
    store.client.Update(fmt::format("INSERT DATA {{ <urn:s{}> a ex:Song ; ex:track {} }}", i, i));
  }
  const int32_t track = store.Ex("track");
  std::vector<int32_t> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(store.Id(fmt::format("urn:s{}", i)));
  CHECK(store.listener->graph_updated_count() == 0);
  CHECK(store.fixture.Stop() == 0);
  const auto signals = store.listener->WaitGraphUpdated(1);
  REQUIRE(signals.size() == 1);
  CHECK(signals[0].inserts.size() == 25);  // 5 × (4 types + track)
  for (const int32_t id : ids) CHECK(Contains(signals[0].inserts, {0, id, track, 0}));
}

TEST_CASE("GraphUpdated: one transaction of 10,000 triples splits at 4,096") {
  SignalStore store;
  std::string update = "INSERT DATA {";
  for (int i = 0; i < 2000; ++i) update += fmt::format(" <urn:big{}> a ex:Song ; ex:track {} .", i, i);
  store.client.Update(update + " }");
  const auto first = store.listener->WaitGraphUpdated(3);
  size_t total = 0;
  for (const auto& signal : first) {
    CHECK(signal.class_iri == kSong);
    CHECK(signal.inserts.size() <= 4096);
    total += signal.inserts.size();
  }
  CHECK(first[0].inserts.size() == 4096);
  CHECK(total == 10000);
}

// Issue 7: the emitter writes a(iiii) through the sd-bus C API (store/ipc/quad_array.h); this
// listener reads with sdbus-c++'s `>>`, as any unmodified client would.
TEST_CASE("GraphUpdated: 10,000 inserts, then 10,000 deletes, one signal each, sdbus-c++ reads") {
  SignalStore store({"--signal-max-triples", "20000"});
  std::string update = "INSERT DATA {";
  for (int i = 0; i < 2000; ++i) {
    update += fmt::format(" <urn:big{}> a ex:Song ; ex:track {} .", i, i);
  }
  store.client.Update(update + " }");
  auto signals = store.listener->WaitGraphUpdated(1);
  REQUIRE(signals[0].inserts.size() == 10000);
  CHECK(signals[0].deletes.empty());
  const int32_t track = store.Ex("track");
  Triples expected;
  for (const int i : {0, 1234, 1999}) {
    const int32_t id = store.Id(fmt::format("urn:big{}", i));
    expected = Concat(expected, Concat(store.SongTypes(id), {{0, id, track, 0}}));
  }
  for (const ChangedTriple& triple : expected) CHECK(Contains(signals[0].inserts, triple));

  store.client.Update("DELETE { ?s a rdfs:Resource } WHERE { ?s a ex:Song }");
  signals = store.listener->WaitGraphUpdated(2);
  CHECK(signals[1].inserts.empty());
  CHECK(Sorted(signals[1].deletes) == Sorted(signals[0].inserts));
}

TEST_CASE("GraphUpdated: a failed update emits nothing") {
  SignalStore store;
  store.client.Update("INSERT DATA { <urn:s1> a ex:Song ; ex:title \"One\" }");
  store.listener->WaitGraphUpdated(1);
  const std::string error = ErrorOf([&] {
    store.client.Batch({"INSERT DATA { <urn:s2> a ex:Song }",
                        "INSERT DATA { <urn:s1> ex:title \"Two\" }"});  // single-valued
  });
  CHECK(error.starts_with("org.quarry.Store1.Error.Constraint"));
  store.client.Update("INSERT DATA { <urn:s3> a ex:Song }");
  const auto signals = store.listener->WaitGraphUpdated(2);
  CHECK(Sorted(signals[1].inserts) == Sorted(store.SongTypes(store.Id("urn:s3"))));
}

TEST_CASE("Writeback: for nrl:writeback changes, except those a miner sent") {
  SignalStore store;
  store.client.Batch({"INSERT DATA { <urn:m> a ex:Song ; ex:comment \"from a file\" }"},
                     {{"source", sdbus::Variant(std::string("miner"))}});
  store.client.Update("INSERT DATA { <urn:u> a ex:Song ; ex:comment \"by hand\" ; ex:title \"T\" }");
  const auto writeback = store.listener->WaitWriteback(1);
  // Signals of one sender arrive in order: had the miner's batch produced one, it came first.
  CHECK(writeback[0] == Writeback{{store.Id("urn:u"), {store.Ex("comment")}}});
}

}  // namespace
}  // namespace quarry::testing
