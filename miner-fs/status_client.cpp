#include "miner-fs/status_client.h"

#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include "miner-fs/extract_client.h"
#include "miner-fs/miner_adaptor.h"
#include "store/ipc/dbus_names.h"

namespace quarry::miner {
namespace {

constexpr std::chrono::seconds kCallTimeout{2};

Error ToError(const sdbus::Error& error, const char* service) {
  const bool is_absent = error.getName() == "org.freedesktop.DBus.Error.ServiceUnknown" ||
                         error.getName() == "org.freedesktop.DBus.Error.NameHasNoOwner";
  if (is_absent) return Error(Errc::kNotFound, fmt::format("{} is not running", service));
  return Error(Errc::kIo, fmt::format("{}: {}", service, error.getMessage()));
}

template <typename T>
T Call(sdbus::IProxy& proxy, const char* interface, const char* method) {
  T value{};
  proxy.callMethod(method).onInterface(interface).withTimeout(kCallTimeout).storeResultsTo(value);
  return value;
}

// A value of GetStatus's a{sv}; a missing key or another type gives `fallback`.
template <typename T>
T Field(const std::map<std::string, sdbus::Variant>& fields, const char* key, T fallback = {}) {
  const auto found = fields.find(key);
  if (found == fields.end() || !found->second.containsValueOfType<T>()) return fallback;
  return found->second.get<T>();
}

}  // namespace

class StatusClient::Impl {
 public:
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<sdbus::IProxy> store;
  std::unique_ptr<sdbus::IProxy> miner;
  std::unique_ptr<sdbus::IProxy> extractor;
};

Result<std::unique_ptr<StatusClient>> StatusClient::Connect(const std::string& bus_address) {
  auto impl = std::make_unique<Impl>();
  try {
    impl->connection = bus_address.empty() ? sdbus::createSessionBusConnection()
                                           : sdbus::createSessionBusConnectionWithAddress(bus_address);
    impl->store = sdbus::createProxy(*impl->connection, ipc::kBusName, ipc::kObjectPath);
    impl->miner = sdbus::createProxy(*impl->connection, kMinerBusName, kMinerObjectPath);
    impl->extractor = sdbus::createProxy(*impl->connection, kExtractBusName, kExtractObjectPath);
  } catch (const sdbus::Error& error) {
    return Error(Errc::kIo, fmt::format("cannot connect to the session bus: {}", error.what()));
  }
  return std::unique_ptr<StatusClient>(new StatusClient(std::move(impl)));
}

StatusClient::StatusClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StatusClient::~StatusClient() = default;

Result<StoreStatus> StatusClient::Store() {
  try {
    StoreStatus status;
    status.state = Call<std::string>(*impl_->store, ipc::kStatusInterface, "GetStatus");
    status.progress = Call<double>(*impl_->store, ipc::kStatusInterface, "GetProgress");
    return status;
  } catch (const sdbus::Error& error) {
    return ToError(error, ipc::kBusName);
  }
}

Result<MinerReport> StatusClient::Miner() {
  try {
    sdbus::IProxy& proxy = *impl_->miner;
    MinerReport report;
    report.name = "Files";
    report.state = Call<std::string>(proxy, kMinerInterface, "GetStatus");
    report.progress = Call<double>(proxy, kMinerInterface, "GetProgress");
    report.remaining_seconds = Call<int32_t>(proxy, kMinerInterface, "GetRemainingTime");
    report.counts = Call<std::map<std::string, uint64_t>>(proxy, kMinerIndexInterface, "GetCounts");
    report.current = Call<std::string>(proxy, kMinerIndexInterface, "GetCurrent");
    report.errors = Call<std::vector<std::string>>(proxy, kMinerIndexInterface, "GetErrors");
    std::vector<std::string> applications;
    std::vector<std::string> reasons;
    proxy.callMethod("GetPauseDetails").onInterface(kMinerInterface).withTimeout(kCallTimeout)
        .storeResultsTo(applications, reasons);
    for (size_t i = 0; i < applications.size() && i < reasons.size(); ++i) {
      report.pauses.push_back({applications[i], reasons[i]});
    }
    return report;
  } catch (const sdbus::Error& error) {
    return ToError(error, kMinerBusName);
  }
}

Result<ExtractReport> StatusClient::Extractor() {
  try {
    const auto fields =
        Call<std::map<std::string, sdbus::Variant>>(*impl_->extractor, kExtractInterface, "GetStatus");
    ExtractReport report;
    report.state = Field<std::string>(fields, "state", "?");
    report.queued = Field<uint32_t>(fields, "queued");
    report.current = Field<std::vector<std::string>>(fields, "current");
    report.extracted = Field<uint64_t>(fields, "extracted");
    report.failed = Field<uint64_t>(fields, "failed");
    report.skipped = Field<uint64_t>(fields, "skipped");
    report.workers = Field<uint32_t>(fields, "workers");
    return report;
  } catch (const sdbus::Error& error) {
    return ToError(error, kExtractBusName);
  }
}

}  // namespace quarry::miner
