// SignalEmitter: the GraphUpdated and Writeback signals of quarry-store (DESIGN.md
// "GraphUpdated" and "Writeback"; README.md "Signals" has the wire details).
//
// The writer thread hands over each committed transaction's changes (Submit, called from the
// engine's change sink right after COMMIT) and goes on with the next job; the emitter's own
// thread feeds them to a ChangeBatcher, which coalesces GraphUpdated by time and size, and
// emits. Writeback goes out once per transaction, only for updates that did not come from a
// miner (so the writeback service never reacts to what a miner just read from a file).
// Stop() emits whatever is still pending: on a clean shutdown no committed change goes
// unannounced.
// Thread-safety: Start/Stop from the thread that owns the service; Submit from any thread
// (the writer). Signals are emitted from the emitter thread only.
#pragma once

#include <sdbus-c++/IObject.h>

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "store/engine/committed_changes.h"
#include "store/ipc/backend.h"
#include "store/notifier/change_batcher.h"

namespace quarry::ipc {

class SignalEmitter {
 public:
  using Limits = notifier::ChangeBatcher::Limits;

  explicit SignalEmitter(Limits limits) : limits_(limits) {}
  ~SignalEmitter() { Stop(); }
  SignalEmitter(const SignalEmitter&) = delete;
  SignalEmitter& operator=(const SignalEmitter&) = delete;

  // Starts the emitting thread; signals go out from `object` (which must outlive Stop()).
  void Start(sdbus::IObject& object);
  // Queues one committed transaction's changes; `source` decides whether its writeback
  // changes are announced.
  void Submit(engine::CommittedChanges&& changes, UpdateSource source);
  // Emits everything queued or pending, then ends the thread. Safe to call twice.
  void Stop();

 private:
  using Writeback = std::map<int64_t, std::vector<int64_t>>;
  struct Committed {
    std::vector<engine::ClassChangeSet> classes;
    Writeback writeback;  // empty for miner updates
  };

  void Run();
  void EmitGraphUpdated(const engine::ClassChangeSet& emission);
  void EmitWriteback(const Writeback& writeback);

  const Limits limits_;
  sdbus::IObject* object_ = nullptr;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Committed> queue_;  // guarded by mutex_
  bool stopping_ = false;        // guarded by mutex_
  std::jthread thread_;
};

}  // namespace quarry::ipc
