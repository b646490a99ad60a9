// BusLink: the client's D-Bus connection to quarry-store: connects on first use, turns
// sdbus-c++ exceptions into quarry::Error (org.quarry.Store1.Error.<Kind> back into its Errc),
// and drops a connection that failed below the store's own errors so that the next call
// connects again (a restarted store, or a bus that went away, is found again).
// Queries and updates may go through the store's peer socket instead (RunPeer, issue 7;
// docs/peer-socket.md): the address comes from Steroids.GetPeerAddress on the bus, once per connection; a store without
// one (an older store, --no-peer-socket, no $XDG_RUNTIME_DIR) or a socket that cannot be
// reached leaves them on the bus. Signals are never taken from the peer connection.
// Thread-safety: one thread at a time (the Connection's).
#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <memory>
#include <string>

#include "quarry/connection.h"
#include "store/common/result.h"
#include "store/ipc/dbus_names.h"

namespace quarry {

using ipc::kBackupInterface;
using ipc::kResourcesInterface;
using ipc::kStatusInterface;
using ipc::kSteroidsInterface;
inline constexpr const char* kStoreObjectPath = ipc::kObjectPath;

// A fresh connection to the session bus (empty address) or to `address`.
Result<std::unique_ptr<sdbus::IConnection>> ConnectToBus(const std::string& address);
// "the session bus" or the address, for messages.
std::string DescribeBus(const std::string& address);

class BusLink {
 public:
  explicit BusLink(BusOptions options) : options_(std::move(options)) {}

  // Runs `call(proxy)`, connecting first when needed; `call` returns a Result and may throw
  // sdbus::Error, which becomes an Error here.
  template <typename Call>
  auto Run(Call&& call) -> decltype(call(std::declval<sdbus::IProxy&>())) {
    auto proxy = Proxy();
    if (proxy) current_ = connection_.get();
    if (!proxy) return std::move(proxy).error();
    try {
      return call(**proxy);
    } catch (const sdbus::Error& error) {
      return Translate(error);
    }
  }

  // Run() through the store's peer connection when it has one (see above), else the bus.
  template <typename Call>
  auto RunPeer(Call&& call) -> decltype(call(std::declval<sdbus::IProxy&>())) {
    auto proxy = PeerProxy();
    if (!proxy) return std::move(proxy).error();
    try {
      return call(**proxy);
    } catch (const sdbus::Error& error) {
      return Translate(error);
    }
  }
  // Whether RunPeer() goes through the peer connection (after the first RunPeer()).
  bool on_peer() const { return peer_proxy_ != nullptr; }

  // Fails with "quarry-store is not running on ..." when nobody answers on the bus name.
  Result<void> Ping();
  // The connection behind the last Run()/RunPeer() (for an asynchronous call pumped by its
  // caller).
  sdbus::IConnection* connection() const { return current_; }
  // Translate() for an error met while the connection is dispatching (an asynchronous reply):
  // the connection cannot be dropped there, so a failed one is dropped by the next call.
  Error TranslateLater(const sdbus::Error& error);
  const BusOptions& options() const { return options_; }

 private:
  Result<sdbus::IProxy*> Proxy();
  Result<sdbus::IProxy*> PeerProxy();
  void ConnectPeer(sdbus::IProxy& bus_proxy);
  void Drop();
  Error Translate(const sdbus::Error& error);

  BusOptions options_;
  bool broken_ = false;  // TranslateLater() met a failed connection
  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IProxy> proxy_;
  bool peer_looked_up_ = false;  // GetPeerAddress was asked on this bus connection
  std::unique_ptr<sdbus::IConnection> peer_connection_;
  std::unique_ptr<sdbus::IProxy> peer_proxy_;
  sdbus::IConnection* current_ = nullptr;
};

}  // namespace quarry
