#include <doctest/doctest.h>

#include "miner-fs/event_coalescer.h"

namespace quarry::miner {
namespace {

using Clock = EventCoalescer::Clock;
using std::chrono::milliseconds;

const Clock::time_point kStart = Clock::time_point() + std::chrono::hours(1);

TEST_CASE("EventCoalescer: a file being written is indexed once, on close") {
  EventCoalescer coalescer(milliseconds(2000));
  coalescer.Add({FsEventKind::kCreated, "/d/big.iso"}, kStart);
  for (int i = 0; i < 1000; ++i) coalescer.Add({FsEventKind::kModified, "/d/big.iso"}, kStart + milliseconds(i));
  coalescer.EndOfRead();
  CHECK(coalescer.TakeReady(kStart + milliseconds(1000)).empty());
  coalescer.Add({FsEventKind::kClosedWrite, "/d/big.iso"}, kStart + milliseconds(1500));
  const auto actions = coalescer.TakeReady(kStart + milliseconds(1500));
  CHECK(actions == std::vector<FsAction>{{ActionKind::kIndex, "/d/big.iso", {}, false}});
  CHECK(coalescer.empty());
}

TEST_CASE("EventCoalescer: without a close, the quiet period decides") {
  EventCoalescer coalescer(milliseconds(2000));
  coalescer.Add({FsEventKind::kModified, "/d/log.txt"}, kStart);
  coalescer.Add({FsEventKind::kModified, "/d/log.txt"}, kStart + milliseconds(1000));
  CHECK(coalescer.NextDue() == kStart + milliseconds(3000));
  CHECK(coalescer.TakeReady(kStart + milliseconds(2999)).empty());
  CHECK(coalescer.TakeReady(kStart + milliseconds(3000)).size() == 1);
}

TEST_CASE("EventCoalescer: a move is one action, unpaired halves are a delete or a create") {
  EventCoalescer coalescer(milliseconds(2000));
  SUBCASE("paired") {
    coalescer.Add({FsEventKind::kMovedFrom, "/d/old", true, 7}, kStart);
    coalescer.Add({FsEventKind::kMovedTo, "/d/new", true, 7}, kStart);
    coalescer.EndOfRead();
    CHECK(coalescer.TakeReady(kStart) ==
          std::vector<FsAction>{{ActionKind::kMove, "/d/new", "/d/old", true}});
  }
  SUBCASE("moved out: a delete after one more read") {
    coalescer.Add({FsEventKind::kMovedFrom, "/d/gone.txt", false, 9}, kStart);
    coalescer.EndOfRead();
    CHECK(coalescer.TakeReady(kStart).empty());
    coalescer.EndOfRead();
    CHECK(coalescer.TakeReady(kStart) ==
          std::vector<FsAction>{{ActionKind::kDelete, "/d/gone.txt", {}, false}});
  }
  SUBCASE("moved out, and nothing else happens: a delete after the pairing window") {
    coalescer.Add({FsEventKind::kMovedFrom, "/d/gone.txt", false, 10}, kStart);
    CHECK(coalescer.NextDue() == kStart + EventCoalescer::kMovePairWindow);
    CHECK(coalescer.TakeReady(kStart + milliseconds(1)).empty());
    CHECK(coalescer.TakeReady(kStart + EventCoalescer::kMovePairWindow) ==
          std::vector<FsAction>{{ActionKind::kDelete, "/d/gone.txt", {}, false}});
  }
  SUBCASE("moved in from outside: indexed") {
    coalescer.Add({FsEventKind::kMovedTo, "/d/in.txt", false, 11}, kStart);
    CHECK(coalescer.TakeReady(kStart) ==
          std::vector<FsAction>{{ActionKind::kIndex, "/d/in.txt", {}, false}});
  }
  SUBCASE("written, then renamed before it was due: the move carries it") {
    coalescer.Add({FsEventKind::kModified, "/d/a.txt"}, kStart);
    coalescer.Add({FsEventKind::kMovedFrom, "/d/a.txt", false, 3}, kStart);
    coalescer.Add({FsEventKind::kMovedTo, "/d/b.txt", false, 3}, kStart);
    CHECK(coalescer.TakeReady(kStart) ==
          std::vector<FsAction>{{ActionKind::kMove, "/d/b.txt", "/d/a.txt", false}});
  }
}

TEST_CASE("EventCoalescer: a deleted folder takes its descendants' deletes along") {
  EventCoalescer coalescer(milliseconds(2000));
  coalescer.Add({FsEventKind::kDeleted, "/d/f/a.txt"}, kStart);
  coalescer.Add({FsEventKind::kDeleted, "/d/f/sub", true}, kStart);
  coalescer.Add({FsEventKind::kDeleted, "/d/f", true}, kStart);
  coalescer.Add({FsEventKind::kDeleted, "/d/other.txt"}, kStart);
  CHECK(coalescer.TakeReady(kStart) ==
        std::vector<FsAction>{{ActionKind::kDelete, "/d/f", {}, true},
                              {ActionKind::kDelete, "/d/other.txt", {}, false}});
}

TEST_CASE("EventCoalescer: created then deleted before due is only a delete") {
  EventCoalescer coalescer(milliseconds(2000));
  coalescer.Add({FsEventKind::kCreated, "/d/tmp.txt"}, kStart);
  coalescer.Add({FsEventKind::kDeleted, "/d/tmp.txt"}, kStart + milliseconds(5));
  CHECK(coalescer.TakeReady(kStart + milliseconds(5)) ==
        std::vector<FsAction>{{ActionKind::kDelete, "/d/tmp.txt", {}, false}});
}

}  // namespace
}  // namespace quarry::miner
