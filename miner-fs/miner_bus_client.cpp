// sdbus-c++ proxy calls to quarry-miner-fs; named beside miner_adaptor.cpp because sdbus types
// stay in these two files (ARCHITECTURE.md §4).
#include "miner-fs/miner_bus_client.h"

#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include "miner-fs/miner_adaptor.h"

namespace quarry::miner {
namespace {

template <typename... Args>
Result<void> Call(const std::string& bus_address, const char* method, const Args&... args) {
  try {
    auto connection = bus_address.empty() ? sdbus::createSessionBusConnection()
                                          : sdbus::createSessionBusConnectionWithAddress(bus_address);
    auto proxy = sdbus::createProxy(*connection, kMinerBusName, kMinerObjectPath);
    proxy->callMethod(method).onInterface(kMinerIndexInterface).withArguments(args...);
    return Ok();
  } catch (const sdbus::Error& error) {
    const bool is_absent = error.getName() == "org.freedesktop.DBus.Error.ServiceUnknown" ||
                           error.getName() == "org.freedesktop.DBus.Error.NameHasNoOwner";
    if (is_absent) {
      return Error(Errc::kNotFound, fmt::format("quarry-miner-fs is not running ({} has no owner)", kMinerBusName));
    }
    return Error(Errc::kIo, fmt::format("{}: {}", method, error.getMessage()));
  }
}

}  // namespace

Result<void> MinerReload(const std::string& bus_address) { return Call(bus_address, "Reload"); }

Result<void> MinerIndexFile(const std::string& absolute_path, const std::string& bus_address) {
  return Call(bus_address, "IndexFile", absolute_path);
}

}  // namespace quarry::miner
