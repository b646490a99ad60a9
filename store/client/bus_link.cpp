#include "store/client/bus_link.h"

#include <fmt/format.h>

#include "store/ipc/error_names.h"

namespace quarry {
namespace {

// Errors that mean nobody owns the store's name (and D-Bus activation did not start one).
bool IsNotRunning(const std::string& name) {
  return name == "org.freedesktop.DBus.Error.ServiceUnknown" ||
         name == "org.freedesktop.DBus.Error.NameHasNoOwner";
}

// Errors of the store's own methods that leave the connection healthy.
bool IsCallError(const std::string& name) {
  return name == "org.freedesktop.DBus.Error.UnknownMethod" ||
         name == "org.freedesktop.DBus.Error.UnknownInterface" ||
         name == "org.freedesktop.DBus.Error.UnknownObject" ||
         name == "org.freedesktop.DBus.Error.InvalidArgs" ||
         name == "org.freedesktop.DBus.Error.AccessDenied";
}

}  // namespace

std::string DescribeBus(const std::string& address) {
  return address.empty() ? std::string("the session bus") : address;
}

Result<std::unique_ptr<sdbus::IConnection>> ConnectToBus(const std::string& address) {
  try {
    if (address.empty()) return sdbus::createSessionBusConnection();
    return sdbus::createSessionBusConnectionWithAddress(address);
  } catch (const sdbus::Error& error) {
    return Error(Errc::kIo, fmt::format("cannot connect to {}: {}", DescribeBus(address),
                                        error.getMessage()));
  }
}

void BusLink::Drop() {
  peer_proxy_.reset();
  peer_connection_.reset();
  peer_looked_up_ = false;
  proxy_.reset();
  connection_.reset();
  current_ = nullptr;
  broken_ = false;
}

Result<sdbus::IProxy*> BusLink::Proxy() {
  if (broken_) Drop();
  if (proxy_) return proxy_.get();
  auto connection = ConnectToBus(options_.address);
  if (!connection) {
    return Error(Errc::kIo, fmt::format("quarry-store is not running on {}: {}",
                                        DescribeBus(options_.address),
                                        connection.error().message()));
  }
  connection_ = std::move(*connection);
  try {
    proxy_ = sdbus::createProxy(*connection_, options_.bus_name, kStoreObjectPath);
  } catch (const sdbus::Error& error) {
    connection_.reset();
    return Error(Errc::kInvalidArgument,
                 fmt::format("bad bus name {}: {}", options_.bus_name, error.getMessage()));
  }
  return proxy_.get();
}

Result<sdbus::IProxy*> BusLink::PeerProxy() {
  if (broken_) Drop();
  if (!peer_proxy_) {
    auto bus = Proxy();
    if (!bus) return bus;
    if (!peer_looked_up_) {
      peer_looked_up_ = true;
      ConnectPeer(**bus);
    }
    if (!peer_proxy_) {
      current_ = connection_.get();
      return bus;
    }
  }
  current_ = peer_connection_.get();
  return peer_proxy_.get();
}

// Best effort: any failure leaves the calls on the bus (a failure of the bus itself shows in
// the call that follows).
void BusLink::ConnectPeer(sdbus::IProxy& bus_proxy) {
  std::string address;
  try {
    bus_proxy.callMethod("GetPeerAddress").onInterface(kSteroidsInterface).storeResultsTo(address);
  } catch (const sdbus::Error&) {
    return;  // an older store (UnknownMethod), or none: the next call says which
  }
  if (address.empty()) return;
  try {
    peer_connection_ = sdbus::createSessionBusConnectionWithAddress(address);
    peer_proxy_ = sdbus::createProxy(*peer_connection_, options_.bus_name, kStoreObjectPath);
  } catch (const sdbus::Error&) {
    peer_proxy_.reset();  // the socket is gone or refused us
    peer_connection_.reset();
  }
}

Error BusLink::Translate(const sdbus::Error& error) {
  Error translated = TranslateLater(error);
  if (broken_) Drop();
  return translated;
}

Error BusLink::TranslateLater(const sdbus::Error& error) {
  const std::string& name = error.getName();
  if (const auto code = ipc::ErrcFromDbusName(name)) return Error(*code, error.getMessage());
  if (IsCallError(name)) return Error(Errc::kUnsupported, fmt::format("{}: {}", name, error.getMessage()));
  // Anything else happened below the store (no owner, peer gone, bus gone, timeout): start
  // over with a fresh connection next time.
  broken_ = true;
  const std::string where = fmt::format("{} as {}", DescribeBus(options_.address), options_.bus_name);
  if (IsNotRunning(name)) {
    return Error(Errc::kIo, fmt::format("quarry-store is not running on {}: {}", where,
                                        error.getMessage()));
  }
  return Error(Errc::kIo, fmt::format("lost quarry-store on {}: {} ({})", where,
                                      error.getMessage(), name));
}

Result<void> BusLink::Ping() {
  return Run([](sdbus::IProxy& proxy) -> Result<void> {
    proxy.callMethod("Ping").onInterface("org.freedesktop.DBus.Peer");
    return Ok();
  });
}

}  // namespace quarry
