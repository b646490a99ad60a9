#include "store/ipc/served_method.h"

#include <fmt/format.h>
#include <sdbus-c++/Error.h>
#include <sdbus-c++/Message.h>
#include <sdbus-c++/Types.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include "store/ipc/error_names.h"
#include "store/ipc/event_loop.h"
#include "store/ipc/log.h"
#include "store/ipc/query_parameters.h"
#include "store/ipc/raw_message.h"

namespace quarry::ipc {
namespace {

constexpr const char* kInvalidArgs = "org.freedesktop.DBus.Error.InvalidArgs";

// A call that came on the bus: sdbus-c++ builds and sends the reply on its connection.
class BusResponder final : public Responder {
 public:
  explicit BusResponder(sdbus::MethodCall call) : call_(std::move(call)) {}

  Result<void> Reply(const Fill& fill) override {
    try {
      sdbus::MethodReply reply = call_.createReply();
      QUARRY_TRY(fill(RawMessage::Of(reply)));
      reply.send();
    } catch (const sdbus::Error& error) {
      LogWarning(fmt::format("cannot send a reply: {}", error.what()));
    }
    WakeEventLoop();
    return Ok();
  }
  void ReplyError(const std::string& name, const std::string& message) override {
    try {
      call_.createErrorReply(sdbus::Error(name, message)).send();
    } catch (const sdbus::Error& error) {
      LogWarning(fmt::format("cannot send an error reply: {}", error.what()));
    }
    WakeEventLoop();
  }

 private:
  sdbus::MethodCall call_;
};

template <typename T>
Result<sdbus::Variant> ReadBasic(sd_bus_message* call, char type) {
  T value{};
  const int r = sd_bus_message_read_basic(call, type, &value);
  if (r < 0) return ArgumentError(r, "an option value");
  return sdbus::Variant(value);
}

Result<sdbus::Variant> ReadText(sd_bus_message* call, char type) {
  const char* text = nullptr;
  const int r = sd_bus_message_read_basic(call, type, &text);
  if (r < 0) return ArgumentError(r, "an option value");
  if (type == 'o') return sdbus::Variant(sdbus::ObjectPath(text));
  if (type == 'g') return sdbus::Variant(sdbus::Signature(text));
  return sdbus::Variant(std::string(text));
}

// a{s(ssss)}: the "parameters" option (query_parameters.h).
Result<sdbus::Variant> ReadWireParameters(sd_bus_message* call) {
  WireParameters wire;
  int r = sd_bus_message_enter_container(call, 'a', "{s(ssss)}");
  while (r >= 0 && (r = sd_bus_message_enter_container(call, 'e', "s(ssss)")) > 0) {
    const char* fields[5] = {};
    r = sd_bus_message_read(call, "s(ssss)", &fields[0], &fields[1], &fields[2], &fields[3],
                            &fields[4]);
    if (r >= 0) r = sd_bus_message_exit_container(call);
    if (r >= 0) wire.emplace(fields[0], WireTerm(fields[1], fields[2], fields[3], fields[4]));
  }
  if (r >= 0) r = sd_bus_message_exit_container(call);
  if (r < 0) return ArgumentError(r, "option 'parameters'");
  return sdbus::Variant(wire);
}

// The value of a variant whose contents are `signature`, entered already.
Result<sdbus::Variant> ReadOptionValue(sd_bus_message* call, const std::string& key,
                                       std::string_view signature) {
  if (signature == "a{s(ssss)}") return ReadWireParameters(call);
  if (signature.size() == 1) {
    switch (signature[0]) {
      case 'y': return ReadBasic<uint8_t>(call, 'y');
      case 'b': {
        int value = 0;
        const int r = sd_bus_message_read_basic(call, 'b', &value);
        if (r < 0) return ArgumentError(r, "an option value");
        return sdbus::Variant(value != 0);
      }
      case 'n': return ReadBasic<int16_t>(call, 'n');
      case 'q': return ReadBasic<uint16_t>(call, 'q');
      case 'i': return ReadBasic<int32_t>(call, 'i');
      case 'u': return ReadBasic<uint32_t>(call, 'u');
      case 'x': return ReadBasic<int64_t>(call, 'x');
      case 't': return ReadBasic<uint64_t>(call, 't');
      case 'd': return ReadBasic<double>(call, 'd');
      case 's':
      case 'o':
      case 'g': return ReadText(call, signature[0]);
      default: break;
    }
  }
  return Error(Errc::kInvalidArgument,
               fmt::format("option '{}' has a value of type '{}', which no option takes", key,
                           signature));
}

}  // namespace

void RegisterServed(sdbus::IObject& object, PeerMethods* peer, const std::string& interface,
                    const std::string& member, const std::string& in_signature,
                    const std::vector<std::string>& in_names, const std::string& out_signature,
                    const std::vector<std::string>& out_names, ServedMethod method) {
  object.registerMethod(interface, member, in_signature, in_names, out_signature, out_names,
                        [method](sdbus::MethodCall call) {
                          sd_bus_message* raw = RawMessage::Of(call);
                          method(raw, std::make_shared<BusResponder>(std::move(call)));
                        });
  if (peer != nullptr) {
    peer->emplace(PeerMethodKey(interface, member), PeerMethod{in_signature, std::move(method)});
  }
}

void ReplyFailure(Responder& responder, const Error& error) {
  responder.ReplyError(DbusErrorName(error.code()), error.ToString());
}

void ReplyOutcome(Responder& responder, const Result<void>& outcome) {
  if (!outcome) return ReplyFailure(responder, outcome.error());
  (void)responder.Reply([](sd_bus_message*) -> Result<void> { return Ok(); });
}

void ReplyBuilt(Responder& responder,
                const std::function<Result<void>(sd_bus_message*, bool* too_large)>& fill) {
  bool too_large = false;
  const Result<void> sent =
      responder.Reply([&](sd_bus_message* reply) { return fill(reply, &too_large); });
  if (sent) return;
  if (too_large) {
    responder.ReplyError(std::string(kReplyTooLargeError), sent.error().ToString());
  } else {
    ReplyFailure(responder, sent.error());
  }
}

Error ArgumentError(int r, std::string_view what) {
  return Error(Errc::kInvalidArgument,
               fmt::format("cannot read {} of the call: {}", what, std::strerror(-r)));
}

Error BuildError(int r, std::string_view what) {
  return Error(Errc::kInternal,
               fmt::format("cannot put {} into a D-Bus reply: {}", what, std::strerror(-r)));
}

Result<std::string> ReadString(sd_bus_message* call) {
  const char* text = nullptr;
  const int r = sd_bus_message_read_basic(call, 's', &text);
  if (r <= 0) return ArgumentError(r < 0 ? r : -EBADMSG, "a string argument");
  return std::string(text);
}

Result<std::vector<std::string>> ReadStrings(sd_bus_message* call) {
  std::vector<std::string> values;
  int r = sd_bus_message_enter_container(call, 'a', "s");
  const char* text = nullptr;
  while (r >= 0 && (r = sd_bus_message_read_basic(call, 's', &text)) > 0) values.emplace_back(text);
  if (r >= 0) r = sd_bus_message_exit_container(call);
  if (r < 0) return ArgumentError(r, "a string array argument");
  return values;
}

Result<CallOptions> ReadCallOptions(sd_bus_message* call,
                                    std::optional<engine::QueryParameters>* parameters) {
  CallOptions options;
  int r = sd_bus_message_enter_container(call, 'a', "{sv}");
  while (r >= 0 && (r = sd_bus_message_enter_container(call, 'e', "sv")) > 0) {
    const char* key = nullptr;
    const char* contents = nullptr;
    r = sd_bus_message_read_basic(call, 's', &key);
    if (r >= 0) r = sd_bus_message_peek_type(call, nullptr, &contents);
    if (r >= 0) r = sd_bus_message_enter_container(call, 'v', contents);
    if (r < 0) break;
    std::string name = key;
    if (parameters != nullptr && name == kParametersOption &&
        std::string_view(contents) == "a{s(ssss)}") {
      // Straight into terms, no sdbus::Variant on the way (query_parameters.h).
      QUARRY_ASSIGN_OR_RETURN(*parameters, ReadParameters(call));
      options.erase(name);  // the last "parameters" wins, as in the map
    } else {
      QUARRY_ASSIGN_OR_RETURN(sdbus::Variant value, ReadOptionValue(call, name, contents));
      if (parameters != nullptr && name == kParametersOption) parameters->reset();
      options.insert_or_assign(std::move(name), std::move(value));
    }
    r = sd_bus_message_exit_container(call);  // the variant
    if (r >= 0) r = sd_bus_message_exit_container(call);  // the entry
  }
  if (r >= 0) r = sd_bus_message_exit_container(call);
  if (r < 0) return ArgumentError(r, "the options");
  return options;
}

Result<CallOptions> ReadCallOptions(sd_bus_message* call) { return ReadCallOptions(call, nullptr); }

Result<void> AppendStrings(sd_bus_message* reply, const std::vector<std::string>& values) {
  int r = sd_bus_message_open_container(reply, 'a', "s");
  for (size_t i = 0; r >= 0 && i < values.size(); ++i) {
    r = sd_bus_message_append_basic(reply, 's', values[i].c_str());
  }
  if (r >= 0) r = sd_bus_message_close_container(reply);
  if (r < 0) return BuildError(r, "the variable names");
  return Ok();
}

Result<QueryCall> ReadQueryCall(sd_bus_message* call, QueryOptionSet set) {
  QueryCall read;
  QUARRY_ASSIGN_OR_RETURN(read.query, ReadString(call));
  std::optional<engine::QueryParameters> parameters;
  QUARRY_ASSIGN_OR_RETURN(const CallOptions options, ReadCallOptions(call, &parameters));
  if (set == QueryOptionSet::kStream) {
    QUARRY_ASSIGN_OR_RETURN(read.options, ParseStreamOptions(options));
  } else {
    QUARRY_ASSIGN_OR_RETURN(read.options.parameters, ParsePlainQueryOptions(options));
  }
  if (parameters) read.options.parameters = std::move(*parameters);
  return read;
}

}  // namespace quarry::ipc
