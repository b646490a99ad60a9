// PeerServer: quarry-store's peer-to-peer D-Bus socket (issue 7, "a round trip without the bus
// hop"). A query through dbus-daemon costs two socket hops and the daemon's parsing on top of the
// store's own work; a client of the same user can instead connect straight to the store.
//
// - The socket is $XDG_RUNTIME_DIR/quarry/store-<hash>.sock, the hash of the bus name, the bus
//   address and the database directory (two stores never share one). The folder is created 0700
//   (an existing one must be ours and 0700, or there is no peer socket); a file left at that path
//   by a store that died is replaced at start; the socket is removed at exit. Clients learn the
//   address from Steroids.GetPeerAddress on the bus ("" when there is none).
// - Each accepted connection is checked with SO_PEERCRED (another uid is closed at once), then
//   served by plain sd-bus in server mode on a thread of its own: sdbus-c++ 1.2 has no server or
//   direct connections. The client side is an ordinary sdbus-c++ connection to that address, so
//   the store answers its org.freedesktop.DBus.Hello; sd-bus answers org.freedesktop.DBus.Peer.
// - Method calls on /org/quarry/Store1 go to the same methods as on the bus (the PeerMethods
//   table of served_method.h, filled by RegisterResources/RegisterSteroids), after a check of
//   their signature. Each replies through a Responder of the connection: every sd-bus call on
//   the connection or its messages takes the connection's lock, so a reply sent from a reader
//   thread never races the connection's own thread, and a reply that did not fit in the socket
//   wakes that thread to write the rest. Signals (GraphUpdated) stay on the bus.
// - A closed connection is freed once no call of it waits for its reply any more (a reply still
//   being computed keeps it); Stop() ends every connection after the backend finished its jobs.
// Thread-safety: Start/StopListening/Stop from the thread that owns the service; the handlers
// run on the connections' threads.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "store/common/result.h"
#include "store/common/unique_fd.h"
#include "store/ipc/served_method.h"

namespace quarry::ipc {

// The socket path for a store (see above); an error when $XDG_RUNTIME_DIR is unset or the path
// would not fit in sockaddr_un.
Result<std::string> PeerSocketPath(const std::string& bus_name, const std::string& bus_address,
                                   const std::string& database_dir);

class PeerServer {
 public:
  explicit PeerServer(const PeerMethods& methods);
  ~PeerServer();
  PeerServer(const PeerServer&) = delete;
  PeerServer& operator=(const PeerServer&) = delete;

  // Creates the folder and the socket at `path` and starts accepting.
  Result<void> Start(const std::string& path);
  // The D-Bus address of the socket ("unix:path=..."), empty before Start() succeeded.
  const std::string& address() const { return address_; }
  // Stops accepting and removes the socket file; connected clients are still served.
  void StopListening();
  // StopListening(), then ends every connection (replies already queued are written first).
  void Stop();

  class Peer;

 private:
  void AcceptLoop();
  void Accept();
  void ReapClosed(bool all);

  const PeerMethods& methods_;
  std::string path_;
  std::string address_;
  UniqueFd listener_;
  UniqueFd wake_;
  std::atomic<bool> listening_stopped_{false};
  std::thread acceptor_;
  std::mutex mutex_;
  std::list<std::unique_ptr<Peer>> peers_;
  unsigned next_id_ = 1;
};

}  // namespace quarry::ipc
