// The a(iiii) arrays of GraphUpdated (DESIGN.md "GraphUpdated"), written and read through the
// sd-bus C API on an sdbus-c++ message (RawMessage::Of). Used by the store's SignalEmitter and
// by quarry::Notifier; the wire format is sdbus-c++'s std::vector<sdbus::Struct<int32_t x4>>,
// byte for byte (tests/client/notifier_test.cpp reads each way with the other).
//
// Why not sdbus-c++ (issue 7): it copies the quads into a vector of Structs on each side and
// wraps each struct and value in its own call. Measured (s23, callgrind, 12,288 quads): append
// 2,611 -> 2,398 instructions a quad, read 2,898 -> 2,655. The rest, ~2,400 a quad each way, is
// sd-bus itself (per value: signature checks, body extension, per struct: a strdup of its
// signature) and has no public bulk path: sd_bus_message_append_array / read_array take
// trivial element types only, not structs.
// Thread-safety: as the message (one thread at a time).
#pragma once

#include <sdbus-c++/Error.h>
#include <systemd/sd-bus.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace quarry::ipc {

// Throws sdbus::Error (as sdbus-c++ would) when sd-bus refuses: a full message, a wrong type.
inline void CheckQuadArrayCall(int result, const char* what) {
  if (result < 0) {
    throw sdbus::Error("org.freedesktop.DBus.Error.InvalidArgs",
                       std::string(what) + ": " + std::strerror(-result));
  }
}

// Appends `quads` as the next value, an a(iiii). Quad: four int32_t members graph, subject,
// predicate, object (engine::ChangedQuad, quarry::ChangedTriple).
template <typename Quad>
void AppendQuadArray(sd_bus_message* message, std::span<const Quad> quads) {
  CheckQuadArrayCall(sd_bus_message_open_container(message, 'a', "(iiii)"),
                     "cannot open an a(iiii)");
  for (const Quad& quad : quads) {
    // One call per value is the cheapest: sd_bus_message_append(m, "(iiii)", ...) parses its
    // format per struct (3,475 instructions a quad).
    int result = sd_bus_message_open_container(message, 'r', "iiii");
    if (result >= 0) result = sd_bus_message_append_basic(message, 'i', &quad.graph);
    if (result >= 0) result = sd_bus_message_append_basic(message, 'i', &quad.subject);
    if (result >= 0) result = sd_bus_message_append_basic(message, 'i', &quad.predicate);
    if (result >= 0) result = sd_bus_message_append_basic(message, 'i', &quad.object);
    if (result >= 0) result = sd_bus_message_close_container(message);
    CheckQuadArrayCall(result, "cannot append a quad");
  }
  CheckQuadArrayCall(sd_bus_message_close_container(message), "cannot close an a(iiii)");
}

// Reads the next value, which must be an a(iiii), into `quads` (appended).
template <typename Quad>
void ReadQuadArray(sd_bus_message* message, std::vector<Quad>& quads) {
  CheckQuadArrayCall(sd_bus_message_enter_container(message, 'a', "(iiii)"), "expected an a(iiii)");
  for (;;) {
    int result = sd_bus_message_enter_container(message, 'r', "iiii");
    if (result == 0) break;  // the array's end
    Quad quad{};
    if (result > 0) result = sd_bus_message_read_basic(message, 'i', &quad.graph);
    if (result > 0) result = sd_bus_message_read_basic(message, 'i', &quad.subject);
    if (result > 0) result = sd_bus_message_read_basic(message, 'i', &quad.predicate);
    if (result > 0) result = sd_bus_message_read_basic(message, 'i', &quad.object);
    if (result == 0) result = -EBADMSG;  // a struct that ends early (the signature rules it out)
    if (result > 0) result = sd_bus_message_exit_container(message);
    CheckQuadArrayCall(result, "cannot read a quad");
    quads.push_back(quad);
  }
  CheckQuadArrayCall(sd_bus_message_exit_container(message), "cannot leave an a(iiii)");
}

}  // namespace quarry::ipc
