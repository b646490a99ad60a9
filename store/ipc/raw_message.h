// The sd_bus_message* of an sdbus-c++ message, and byte arrays (`ay`) read from one in one call.
//
// sdbus-c++ 1.2 marshals a std::vector<uint8_t> one sd_bus_message_append_basic() per byte and
// reads it back the same way (~0.1 µs a byte on each side, issue 7). sd-bus itself appends or
// reads a whole array at once (sd_bus_message_append_array / sd_bus_message_read_array, the
// latter as a view into the message). sdbus-c++ keeps the sd_bus_message* protected; a derived
// class may name it through a pointer to member.
// Thread-safety: as the message (one thread at a time).
#pragma once

#include <sdbus-c++/Error.h>
#include <sdbus-c++/Message.h>
#include <systemd/sd-bus.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

namespace quarry::ipc {

class RawMessage final : public sdbus::Message {
 public:
  static sd_bus_message* Of(const sdbus::Message& message) {
    return static_cast<sd_bus_message*>(message.*(&RawMessage::msg_));
  }
};

// Reads the next value, an `ay`, as a view into the message (valid while it lives).
inline std::string_view ReadByteArray(sdbus::Message& message) {
  const void* data = nullptr;
  size_t size = 0;
  const int result = sd_bus_message_read_array(RawMessage::Of(message), 'y', &data, &size);
  if (result < 0) {
    throw sdbus::Error("org.freedesktop.DBus.Error.InvalidArgs",
                       std::string("cannot read a byte array: ") + std::strerror(-result));
  }
  return {static_cast<const char*>(data), size};
}

}  // namespace quarry::ipc
