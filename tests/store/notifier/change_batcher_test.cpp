// ChangeBatcher: time and size coalescing of GraphUpdated payloads, on a fake clock.
#include "store/notifier/change_batcher.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace quarry::notifier {
namespace {

using std::chrono::milliseconds;
// The batcher takes and emits the engine's change types.
using Quad = engine::ChangedQuad;
using ClassChanges = engine::ClassChangeSet;
using TimePoint = std::chrono::steady_clock::time_point;

// A batcher whose clock the test moves by hand and whose emissions it records.
struct Harness {
  explicit Harness(ChangeBatcher::Limits limits = {})
      : batcher(limits, [this] { return now; },
                [this](const ClassChanges& emission) { emitted.push_back(emission); }) {}
  void Advance(milliseconds step) {
    now += step;
    batcher.Poll();
  }
  TimePoint now{};
  std::vector<ClassChanges> emitted;
  ChangeBatcher batcher;
};

Quad Q(int64_t subject, int64_t object = 0) { return Quad{0, subject, 7, object}; }

ClassChanges Changes(std::string class_iri, std::vector<Quad> deletes, std::vector<Quad> inserts) {
  return ClassChanges{std::move(class_iri), std::move(deletes), std::move(inserts)};
}

std::vector<Quad> Range(int64_t first, int64_t count) {
  std::vector<Quad> quads;
  for (int64_t i = 0; i < count; ++i) quads.push_back(Q(first + i));
  return quads;
}

TEST_CASE("ChangeBatcher: nothing is emitted before the delay, everything at it") {
  Harness h;
  h.batcher.Add({Changes("ex:A", {}, {Q(1)})});
  REQUIRE(h.batcher.NextDeadline().has_value());
  CHECK(*h.batcher.NextDeadline() == h.now + milliseconds(100));
  h.Advance(milliseconds(60));
  h.batcher.Add({Changes("ex:A", {}, {Q(2)})});
  h.Advance(milliseconds(39));
  CHECK(h.emitted.empty());
  h.Advance(milliseconds(1));  // 100 ms after the first pending change, not after the last
  REQUIRE(h.emitted.size() == 1);
  CHECK(h.emitted[0].class_iri == "ex:A");
  CHECK(h.emitted[0].inserts == std::vector<Quad>{Q(1), Q(2)});
  CHECK(h.batcher.empty());
  CHECK_FALSE(h.batcher.NextDeadline().has_value());
}

TEST_CASE("ChangeBatcher: one emission per class, deletes before inserts, in commit order") {
  Harness h;
  h.batcher.Add({Changes("ex:B", {}, {Q(1)}), Changes("ex:A", {Q(9)}, {})});
  h.batcher.Add({Changes("ex:A", {Q(8)}, {Q(3)}), Changes("ex:B", {Q(5)}, {Q(2)})});
  h.Advance(milliseconds(100));
  REQUIRE(h.emitted.size() == 2);
  CHECK(h.emitted[0].class_iri == "ex:B");  // B's first change was committed first
  CHECK(h.emitted[0].deletes == std::vector<Quad>{Q(5)});
  CHECK(h.emitted[0].inserts == std::vector<Quad>{Q(1), Q(2)});
  CHECK(h.emitted[1].class_iri == "ex:A");
  CHECK(h.emitted[1].deletes == std::vector<Quad>{Q(9), Q(8)});
  CHECK(h.emitted[1].inserts == std::vector<Quad>{Q(3)});
}

TEST_CASE("ChangeBatcher: the size limit emits at once") {
  Harness h({milliseconds(100), 4});
  h.batcher.Add({Changes("ex:A", {}, Range(1, 3))});
  CHECK(h.emitted.empty());
  h.batcher.Add({Changes("ex:A", {}, Range(4, 1))});
  REQUIRE(h.emitted.size() == 1);
  CHECK(h.emitted[0].inserts == Range(1, 4));
  CHECK(h.batcher.empty());
}

TEST_CASE("ChangeBatcher: a transaction is not split to fill an emission") {
  Harness h({milliseconds(100), 4});
  h.batcher.Add({Changes("ex:A", {}, Range(1, 2))});
  h.batcher.Add({Changes("ex:A", {Q(50)}, Range(3, 2))});  // 2 + 3 > 4: the first goes alone
  REQUIRE(h.emitted.size() == 1);
  CHECK(h.emitted[0].inserts == Range(1, 2));
  CHECK(h.emitted[0].deletes.empty());
  h.Advance(milliseconds(100));
  REQUIRE(h.emitted.size() == 2);
  CHECK(h.emitted[1].deletes == std::vector<Quad>{Q(50)});
  CHECK(h.emitted[1].inserts == Range(3, 2));
}

TEST_CASE("ChangeBatcher: a transaction larger than the limit is split, deletes first") {
  Harness h({milliseconds(100), 4});
  h.batcher.Add({Changes("ex:A", Range(100, 3), Range(1, 6))});
  REQUIRE(h.emitted.size() == 3);
  CHECK(h.emitted[0].deletes == Range(100, 3));
  CHECK(h.emitted[0].inserts == Range(1, 1));
  CHECK(h.emitted[1].deletes.empty());
  CHECK(h.emitted[1].inserts == Range(2, 4));
  CHECK(h.emitted[2].inserts == Range(6, 1));
  for (const ClassChanges& emission : h.emitted) CHECK(TripleCount(emission) <= 4);
  CHECK(h.batcher.empty());
}

TEST_CASE("ChangeBatcher: a size flush keeps older classes ahead of newer ones") {
  Harness h({milliseconds(100), 3});
  h.batcher.Add({Changes("ex:A", {}, {Q(1)})});
  h.batcher.Add({Changes("ex:B", {}, Range(10, 3))});
  REQUIRE(h.emitted.size() == 2);
  CHECK(h.emitted[0].class_iri == "ex:A");
  CHECK(h.emitted[1].class_iri == "ex:B");
}

TEST_CASE("ChangeBatcher: a transaction at the limit goes out after everything pending") {
  Harness h({milliseconds(100), 4});
  h.batcher.Add({Changes("ex:A", {}, {Q(1)}), Changes("ex:B", {}, {Q(2)})});
  h.Advance(milliseconds(30));
  h.batcher.Add({Changes("ex:B", {Q(2)}, Range(10, 4)), Changes("ex:C", {}, {Q(3)})});
  REQUIRE(h.emitted.size() == 4);
  CHECK(h.emitted[0].class_iri == "ex:A");
  CHECK(h.emitted[0].inserts == std::vector<Quad>{Q(1)});
  CHECK(h.emitted[1].class_iri == "ex:B");  // B's pending insert, not merged with the large set
  CHECK(h.emitted[1].deletes.empty());
  CHECK(h.emitted[1].inserts == std::vector<Quad>{Q(2)});
  CHECK(h.emitted[2].class_iri == "ex:B");
  CHECK(h.emitted[2].deletes == std::vector<Quad>{Q(2)});
  CHECK(h.emitted[2].inserts == Range(10, 3));
  CHECK(h.emitted[3].class_iri == "ex:B");
  CHECK(h.emitted[3].deletes.empty());
  CHECK(h.emitted[3].inserts == Range(13, 1));
  // C stays pending, with a deadline counted from its own commit.
  REQUIRE(h.batcher.NextDeadline().has_value());
  CHECK(*h.batcher.NextDeadline() == h.now + milliseconds(100));
  h.Advance(milliseconds(100));
  REQUIRE(h.emitted.size() == 5);
  CHECK(h.emitted[4].class_iri == "ex:C");
  CHECK(h.emitted[4].inserts == std::vector<Quad>{Q(3)});
  CHECK(h.batcher.empty());
}

TEST_CASE("ChangeBatcher: deleting a pending insert flushes before coalescing") {
  Harness h;
  h.batcher.Add({Changes("ex:A", {}, {Q(1, 5)})});
  SUBCASE("the delete of the pending insert starts a new emission") {
    h.batcher.Add({Changes("ex:A", {Q(1, 5)}, {Q(1, 6)})});
    REQUIRE(h.emitted.size() == 1);
    CHECK(h.emitted[0].inserts == std::vector<Quad>{Q(1, 5)});
    h.Advance(milliseconds(100));
    REQUIRE(h.emitted.size() == 2);
    CHECK(h.emitted[1].deletes == std::vector<Quad>{Q(1, 5)});
    CHECK(h.emitted[1].inserts == std::vector<Quad>{Q(1, 6)});
  }
  SUBCASE("an unrelated delete coalesces") {
    h.batcher.Add({Changes("ex:A", {Q(2, 5)}, {})});
    CHECK(h.emitted.empty());
    h.Advance(milliseconds(100));
    REQUIRE(h.emitted.size() == 1);
    CHECK(h.emitted[0].deletes == std::vector<Quad>{Q(2, 5)});
    CHECK(h.emitted[0].inserts == std::vector<Quad>{Q(1, 5)});
  }
}

TEST_CASE("ChangeBatcher: Flush emits at once, empty changes are ignored") {
  Harness h;
  h.batcher.Add({Changes("ex:A", {}, {})});
  CHECK(h.batcher.empty());
  CHECK_FALSE(h.batcher.NextDeadline().has_value());
  h.batcher.Add({Changes("ex:A", {Q(3)}, {})});
  h.batcher.Flush();
  REQUIRE(h.emitted.size() == 1);
  h.Advance(milliseconds(500));
  CHECK(h.emitted.size() == 1);  // nothing left for the timer
}

TEST_CASE("ChangeBatcher: a new deadline starts with the next change after a flush") {
  Harness h({milliseconds(50), 4096});
  h.batcher.Add({Changes("ex:A", {}, {Q(1)})});
  h.Advance(milliseconds(50));
  REQUIRE(h.emitted.size() == 1);
  h.Advance(milliseconds(30));
  h.batcher.Add({Changes("ex:A", {}, {Q(2)})});
  CHECK(*h.batcher.NextDeadline() == h.now + milliseconds(50));
  h.Advance(milliseconds(49));
  CHECK(h.emitted.size() == 1);
  h.Advance(milliseconds(1));
  CHECK(h.emitted.size() == 2);
}

}  // namespace
}  // namespace quarry::notifier
