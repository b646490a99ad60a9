#include "miner-fs/miner_adaptor.h"

#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <map>

#include "miner-fs/log.h"
#include "store/ipc/bus_thread.h"

namespace quarry::miner {
namespace {

sdbus::Error ToDbusError(const Error& error) {
  return sdbus::Error(fmt::format("org.quarry.Error.{}", ErrcName(error.code())), error.ToString());
}

void RegisterMiner(sdbus::IObject& object, MinerStatus& status) {
  object.registerMethod("GetStatus").onInterface(kMinerInterface).withOutputParamNames("status")
      .implementedAs([&status]() { return status.state(); });
  object.registerMethod("GetProgress").onInterface(kMinerInterface).withOutputParamNames("progress")
      .implementedAs([&status]() { return status.progress(); });
  object.registerMethod("GetRemainingTime").onInterface(kMinerInterface)
      .withOutputParamNames("remaining_seconds")
      .implementedAs([&status]() { return static_cast<int32_t>(status.remaining_seconds()); });
  object.registerMethod("Pause").onInterface(kMinerInterface)
      .withInputParamNames("application", "reason").withOutputParamNames("cookie")
      .implementedAs([&status](const std::string& application, const std::string& reason) {
        return static_cast<int32_t>(status.Pause(application, reason));
      });
  object.registerMethod("Resume").onInterface(kMinerInterface).withInputParamNames("cookie")
      .implementedAs([&status](int32_t cookie) {
        if (auto resumed = status.Resume(cookie); !resumed) throw ToDbusError(resumed.error());
      });
  object.registerMethod("GetPauseDetails").onInterface(kMinerInterface)
      .withOutputParamNames("applications", "reasons")
      .implementedAs([&status]() {
        std::vector<std::string> applications;
        std::vector<std::string> reasons;
        for (const PauseRecord& record : status.pauses()) {
          applications.push_back(record.application);
          reasons.push_back(record.reason);
        }
        return std::make_tuple(applications, reasons);
      });
  object.registerSignal("Progress").onInterface(kMinerInterface)
      .withParameters<std::string, double, int32_t>("status", "progress", "remaining_seconds");
}

void RegisterIndex(sdbus::IObject& object, MinerStatus& status, Miner& miner) {
  object.registerMethod("IndexFile").onInterface(kMinerIndexInterface).withInputParamNames("path")
      .implementedAs([&miner](const std::string& path) {
        if (path.empty() || path.front() != '/') {
          throw sdbus::Error("org.quarry.Error.InvalidArgument",
                             fmt::format("'{}' is not an absolute path", path));
        }
        miner.RequestIndexFile(path);
      });
  object.registerMethod("Reload").onInterface(kMinerIndexInterface)
      .implementedAs([&miner]() { miner.RequestReload(); });
  object.registerMethod("GetCounts").onInterface(kMinerIndexInterface).withOutputParamNames("counts")
      .implementedAs([&status]() {
        const MinerCounts counts = status.counts();
        return std::map<std::string, uint64_t>{
            {"found", counts.found}, {"indexed", counts.indexed}, {"waiting", counts.waiting},
            {"failed", counts.failed}, {"handed_off", counts.handed_off},
            {"deferred", counts.deferred}, {"folders", counts.folders}, {"watched", counts.watched},
            {"unwatched", counts.unwatched},
            {"watch_limit_reached", counts.watch_limit_reached ? 1u : 0u}};
      });
  object.registerMethod("GetErrors").onInterface(kMinerIndexInterface).withOutputParamNames("errors")
      .implementedAs([&status]() { return status.errors(); });
  object.registerMethod("GetCurrent").onInterface(kMinerIndexInterface).withOutputParamNames("path")
      .implementedAs([&status]() { return status.current(); });
}

}  // namespace

class MinerService::Impl {
 public:
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<sdbus::IObject> object;
  MinerStatus* status = nullptr;
  std::unique_ptr<ipc::BusThread> loop;
};

Result<std::unique_ptr<MinerService>> MinerService::Start(const std::string& bus_address,
                                                          MinerStatus& status, Miner& miner) {
  auto impl = std::make_unique<Impl>();
  impl->status = &status;
  try {
    impl->connection = bus_address.empty() ? sdbus::createSessionBusConnection()
                                           : sdbus::createSessionBusConnectionWithAddress(bus_address);
    impl->object = sdbus::createObject(*impl->connection, kMinerObjectPath);
    RegisterMiner(*impl->object, status);
    RegisterIndex(*impl->object, status, miner);
    impl->object->finishRegistration();
    sdbus::IObject* object = impl->object.get();
    status.SetListener([object](const std::string& state, double progress, int remaining) {
      try {
        object->emitSignal("Progress").onInterface(kMinerInterface)
            .withArguments(state, progress, static_cast<int32_t>(remaining));
      } catch (const sdbus::Error& error) {
        LogWarning(fmt::format("cannot emit Progress: {}", error.what()));
      }
    });
    impl->connection->requestName(kMinerBusName);
    impl->loop = std::make_unique<ipc::BusThread>(
        *impl->connection, ipc::StopProcessOnLostBus([](std::string_view line) { LogWarning(line); }));
  } catch (const sdbus::Error& error) {
    status.SetListener(nullptr);
    return Error(Errc::kIo, fmt::format("cannot serve {} on the bus: {}", kMinerBusName, error.what()));
  }
  return std::unique_ptr<MinerService>(new MinerService(std::move(impl)));
}

MinerService::MinerService(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

MinerService::~MinerService() {
  impl_->status->SetListener(nullptr);
  try {
    if (!impl_->loop->lost()) impl_->connection->releaseName(kMinerBusName);
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("leaving the bus: {}", error.what()));
  }
  impl_->loop.reset();
}

bool MinerService::lost() const { return impl_->loop->lost(); }

}  // namespace quarry::miner
