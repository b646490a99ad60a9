// The four interfaces of /org/quarry/Store1, each registered on the one sdbus object by its
// own function (README.md has the wire behaviour). Handlers run on the bus thread and only
// validate arguments and queue jobs; the Backend's threads do the work and reply.
// Thread-safety: call during object setup, before finishRegistration(); the referenced parts
// must outlive the object.
#pragma once

#include <sdbus-c++/IObject.h>

#include <string>

#include "store/ipc/backend.h"
#include "store/ipc/peer_server.h"
#include "store/ipc/status_board.h"
#include "store/ipc/stream_drainer.h"

namespace quarry::ipc {

// org.quarry.Store1.Resources: SparqlQuery, SparqlUpdate, BatchSparqlUpdate, UpdateStream
// (the requests through a descriptor, update_stream.h), Load, and the
// GraphUpdated and Writeback signals. A SparqlQuery whose rows would take more than
// `max_reply_bytes` on the wire fails with kReplyTooLargeError instead of being sent.
// `peer`, when given, gets the same handlers for the peer socket (peer_server.h): SparqlQuery,
// SparqlQueryWithOptions, SparqlUpdate, BatchSparqlUpdate, UpdateStream.
void RegisterResources(sdbus::IObject& object, Backend& backend, size_t max_reply_bytes,
                       PeerMethods* peer = nullptr);
// org.quarry.Store1.Steroids: Query, rows through a file descriptor; QueryRows, rows in the
// reply up to the caller's "max_bytes" and `max_reply_bytes` (kReplyTooLargeError beyond).
// GetPeerAddress() -> s: the peer socket's D-Bus address, read from `peer_address` at each call
// ("" when the store has none). `peer` gets QueryRows and Query for the peer socket.
void RegisterSteroids(sdbus::IObject& object, Backend& backend, StreamDrainer& drainer,
                      size_t max_reply_bytes, const std::string* peer_address = nullptr,
                      PeerMethods* peer = nullptr);
// org.quarry.Store1.Status: GetStatus, GetProgress, GetStatusMessage, signal Progress.
void RegisterStatus(sdbus::IObject& object, StatusBoard& status);
// org.quarry.Store1.Backup: Save, Restore.
void RegisterBackup(sdbus::IObject& object, Backend& backend, StatusBoard& status);

}  // namespace quarry::ipc
