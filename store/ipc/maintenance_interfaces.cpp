// org.quarry.Store1.Status and org.quarry.Store1.Backup.
#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <thread>

#include "store/ipc/backup.h"
#include "store/ipc/dbus_names.h"
#include "store/ipc/interfaces.h"
#include "store/ipc/log.h"
#include "store/ipc/outgoing_blocks.h"
#include "store/ipc/query_parameters.h"
#include "store/ipc/reply.h"

namespace quarry::ipc {
namespace {

constexpr const char* kStagingFolder = "restore-staging";

// Test hook (tests/ipc/lifecycle_test.cpp): with QUARRY_STORE_TEST_RESTORE_GATE=FILE in the
// environment, a restore holds (Busy, reads paused) until FILE exists, at most a minute, so a
// test can send queries that certainly arrive while the restore runs. Unset: no effect.
void WaitForTestGate() {
  const char* gate = std::getenv("QUARRY_STORE_TEST_RESTORE_GATE");
  if (gate == nullptr || *gate == '\0') return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  std::error_code error;
  while (!std::filesystem::exists(gate, error) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The write job of Restore: the writer thread is the one that may swap files, and updates
// queue behind it meanwhile; reads are paused from the start (Busy means queued, README.md
// "Busy"), so no query sees the old data once Restore was called.
Result<void> RunRestore(Backend& backend, StatusBoard& status,
                        const std::filesystem::path& backup) {
  backend.PauseReads();
  status.SetBusy(0.0);
  WaitForTestGate();
  const std::filesystem::path staging = backend.options().directory / kStagingFolder;
  auto staged = StageRestore(backup, staging, backend.options().ontology_dir);
  Result<void> outcome = staged ? Ok() : Result<void>(staged.error());
  if (staged) {
    status.SetBusy(0.5);
    outcome = backend.ReplaceDatabase(*staged);
  } else {
    backend.ResumeReads();
  }
  std::error_code ignored;
  std::filesystem::remove_all(staging, ignored);
  if (outcome) {
    status.SetMessage(fmt::format("database restored from {}", backup.string()));
    LogInfo(fmt::format("database restored from {}", backup.string()));
  }
  status.SetIdle();
  if (!outcome)
    return std::move(outcome).error().WithContext(fmt::format("Restore {}", backup.string()));
  return outcome;
}

}  // namespace

void RegisterStatus(sdbus::IObject& object, StatusBoard& status) {
  object.registerMethod("GetStatus")
      .onInterface(kStatusInterface)
      .withOutputParamNames("status")
      .implementedAs([&status]() { return status.status(); });
  object.registerMethod("GetProgress")
      .onInterface(kStatusInterface)
      .withOutputParamNames("progress")
      .implementedAs([&status]() { return status.progress(); });
  object.registerMethod("GetStatusMessage")
      .onInterface(kStatusInterface)
      .withOutputParamNames("message")
      .implementedAs([&status]() { return status.message(); });
  // {"translated": n, "reused": m, "stream_…": …}: query texts the readers compiled, and runs of a text they
  // had compiled before (query_parameters.h).
  object.registerMethod("GetQueryStatistics")
      .onInterface(kStatusInterface)
      .withOutputParamNames("statistics")
      .implementedAs([]() {
        const QueryStatistics& statistics = ProcessQueryStatistics();
        return std::map<std::string, uint64_t>{
            {"translated", statistics.translated.load(std::memory_order_relaxed)},
            {"reused", statistics.reused.load(std::memory_order_relaxed)},
            {"inline_reads", statistics.inline_reads.load(std::memory_order_relaxed)},
            // FD streams (outgoing_blocks.h): unsent bytes in memory now and at most, and
            // bytes that waited in a spill file.
            {"stream_buffered_bytes", ProcessStreamBudget().held_bytes()},
            {"stream_buffered_peak", ProcessStreamBudget().peak_bytes()},
            {"stream_spilled_bytes", ProcessStreamBudget().spilled_bytes()}};
      });
  object.registerSignal("Progress")
      .onInterface(kStatusInterface)
      .withParameters<std::string, double>("status", "progress");
}

void RegisterBackup(sdbus::IObject& object, Backend& backend, StatusBoard& status) {
  object.registerMethod("Save")
      .onInterface(kBackupInterface)
      .withInputParamNames("path")
      .implementedAs([&backend](sdbus::Result<>&& result, std::string path) {
        auto reply = Share(std::move(result));
        backend.SubmitRead({[reply, path = std::filesystem::path(path)](engine::Store& store) {
                              auto saved = SaveBackup(store.database(), path);
                              if (!saved) saved = std::move(saved).error().WithContext("Save");
                              SendOutcome(reply, saved);
                            },
                            FailWith(reply)});
      });
  object.registerMethod("Restore")
      .onInterface(kBackupInterface)
      .withInputParamNames("path")
      .implementedAs([&backend, &status](sdbus::Result<>&& result, std::string path) {
        auto reply = Share(std::move(result));
        backend.SubmitWrite(
            UpdateSource::kInteractive,
            {[reply, &backend, &status, path = std::filesystem::path(path)](engine::Store&) {
               SendOutcome(reply, RunRestore(backend, status, path));
             },
             FailWith(reply)});
      });
}

}  // namespace quarry::ipc
