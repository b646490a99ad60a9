#include "store/ipc/signal_emitter.h"

#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <span>

#include "store/ipc/dbus_names.h"
#include "store/ipc/event_loop.h"
#include "store/ipc/log.h"
#include "store/ipc/quad_array.h"
#include "store/ipc/raw_message.h"

namespace quarry::ipc {
namespace {

// Resource IDs are SQLite rowids; the signal's fields are int32 (Tracker's wire format), which
// holds every ID a desktop database reaches.
int32_t Narrow(int64_t id) { return static_cast<int32_t>(id); }

}  // namespace

void SignalEmitter::Start(sdbus::IObject& object) {
  object_ = &object;
  thread_ = std::jthread([this] { Run(); });
}

void SignalEmitter::Submit(engine::CommittedChanges&& changes, UpdateSource source) {
  Committed committed{std::move(changes.classes), {}};
  if (source != UpdateSource::kMiner) committed.writeback = std::move(changes.writeback);
  if (committed.classes.empty() && committed.writeback.empty()) return;
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(committed));
  }
  wake_.notify_one();
}

void SignalEmitter::Stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void SignalEmitter::Run() {
  notifier::ChangeBatcher batcher(
      limits_, [] { return std::chrono::steady_clock::now(); },
      [this](const engine::ClassChangeSet& emission) { EmitGraphUpdated(emission); });
  for (;;) {
    std::deque<Committed> work;
    bool stopping = false;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [this] { return !queue_.empty() || stopping_; };
      if (const auto deadline = batcher.NextDeadline()) {
        wake_.wait_until(lock, *deadline, ready);
      } else {
        wake_.wait(lock, ready);
      }
      work.swap(queue_);
      stopping = stopping_;
    }
    for (const Committed& committed : work) {
      if (!committed.classes.empty()) batcher.Add(committed.classes);
      if (!committed.writeback.empty()) EmitWriteback(committed.writeback);
    }
    batcher.Poll();
    if (stopping) {
      batcher.Flush();
      return;
    }
  }
}

void SignalEmitter::EmitGraphUpdated(const engine::ClassChangeSet& emission) {
  try {
    // The quads go straight from the batch into the message (quad_array.h, issue 7); the
    // ChangedQuads already hold the signal's int32 fields (ChangedQuad::WireId).
    sdbus::Signal signal = object_->createSignal(kResourcesInterface, "GraphUpdated");
    signal << emission.class_iri;
    sd_bus_message* const raw = RawMessage::Of(signal);
    AppendQuadArray(raw, std::span<const engine::ChangedQuad>(emission.deletes));
    AppendQuadArray(raw, std::span<const engine::ChangedQuad>(emission.inserts));
    object_->emitSignal(signal);
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("cannot emit GraphUpdated: {}", error.what()));
  }
  WakeEventLoop();  // a large signal may not fit in the socket at once
}

void SignalEmitter::EmitWriteback(const Writeback& writeback) {
  std::map<int32_t, std::vector<int32_t>> wire;
  for (const auto& [subject, properties] : writeback) {
    std::vector<int32_t>& ids = wire[Narrow(subject)];
    for (const int64_t property : properties) ids.push_back(Narrow(property));
  }
  try {
    object_->emitSignal("Writeback").onInterface(kResourcesInterface).withArguments(wire);
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("cannot emit Writeback: {}", error.what()));
  }
  WakeEventLoop();
}

}  // namespace quarry::ipc
