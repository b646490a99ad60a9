#include "quarry/store_process.h"

#include <fmt/format.h>

#include "store/client/bus_link.h"

namespace quarry {

Result<std::optional<pid_t>> StoreProcessId(const BusOptions& options) {
  QUARRY_ASSIGN_OR_RETURN(std::unique_ptr<sdbus::IConnection> connection,
                          ConnectToBus(options.address));
  try {
    auto bus = sdbus::createProxy(*connection, "org.freedesktop.DBus", "/org/freedesktop/DBus");
    bool has_owner = false;
    bus->callMethod("NameHasOwner")
        .onInterface("org.freedesktop.DBus")
        .withArguments(options.bus_name)
        .storeResultsTo(has_owner);
    if (!has_owner) return std::optional<pid_t>();
    uint32_t pid = 0;
    bus->callMethod("GetConnectionUnixProcessID")
        .onInterface("org.freedesktop.DBus")
        .withArguments(options.bus_name)
        .storeResultsTo(pid);
    return std::optional<pid_t>(static_cast<pid_t>(pid));
  } catch (const sdbus::Error& error) {
    // The owner may leave between the two calls: that is "nobody", not a failure.
    if (error.getName() == "org.freedesktop.DBus.Error.NameHasNoOwner") {
      return std::optional<pid_t>();
    }
    return Error(Errc::kIo, fmt::format("cannot ask {} who owns {}: {}",
                                        DescribeBus(options.address), options.bus_name,
                                        error.getMessage()));
  }
}

}  // namespace quarry
