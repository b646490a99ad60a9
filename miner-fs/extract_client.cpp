#include "miner-fs/extract_client.h"

#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

namespace quarry::miner {

class ExtractClient::Impl {
 public:
  std::string bus_address;
  std::unique_ptr<sdbus::IConnection> connection;  // opened by the first Queue()
  std::unique_ptr<sdbus::IProxy> proxy;
  std::chrono::milliseconds timeout{};

  Result<void> Open() {
    if (proxy) return Ok();
    try {
      connection = bus_address.empty() ? sdbus::createSessionBusConnection()
                                       : sdbus::createSessionBusConnectionWithAddress(bus_address);
      proxy = sdbus::createProxy(*connection, kExtractBusName, kExtractObjectPath);
    } catch (const sdbus::Error& error) {
      connection.reset();
      return Error(Errc::kIo, fmt::format("cannot connect to the bus for {}: {}", kExtractBusName, error.what()));
    }
    return Ok();
  }
};

Result<std::unique_ptr<ExtractClient>> ExtractClient::Connect(const std::string& bus_address,
                                                              std::chrono::milliseconds timeout) {
  // No connection yet: a no-change restart hands nothing off, and its start-up should not wait
  // for a bus handshake it does not use.
  auto impl = std::make_unique<Impl>();
  impl->bus_address = bus_address;
  impl->timeout = timeout;
  return std::unique_ptr<ExtractClient>(new ExtractClient(std::move(impl)));
}

ExtractClient::ExtractClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ExtractClient::~ExtractClient() = default;

Result<void> ExtractClient::Queue(const std::vector<std::string>& uris) {
  QUARRY_TRY(impl_->Open());
  try {
    impl_->proxy->callMethod("Queue").onInterface(kExtractInterface).withTimeout(impl_->timeout)
        .withArguments(uris);
    return Ok();
  } catch (const sdbus::Error& error) {
    const bool is_absent = error.getName() == "org.freedesktop.DBus.Error.ServiceUnknown" ||
                           error.getName() == "org.freedesktop.DBus.Error.NameHasNoOwner";
    if (is_absent) return Error(Errc::kNotFound, fmt::format("{} is not running", kExtractBusName));
    return Error(Errc::kIo, fmt::format("{}.Queue of {} files: {}", kExtractInterface, uris.size(),
                                        error.getMessage()));
  }
}

}  // namespace quarry::miner
