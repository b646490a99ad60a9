// Byte arrays (`ay`) in and out of an sdbus-c++ message in one call each.
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

// Appends `bytes` as one `ay` value; throws sdbus::Error like sdbus-c++'s own appends.
inline void AppendByteArray(sdbus::Message& message, std::string_view bytes) {
  const int result = sd_bus_message_append_array(RawMessage::Of(message), 'y', bytes.data(),
                                                 bytes.size());
  if (result < 0) {
    throw sdbus::Error("org.freedesktop.DBus.Error.Failed",
                       std::string("cannot append a byte array: ") + std::strerror(-result));
  }
}

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
