#include "store/ipc/call_options.h"

#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include "store/ipc/query_parameters.h"
#include "store/ipc/row_encoder.h"

namespace quarry::ipc {
namespace {

template <typename T>
std::optional<int64_t> TryInteger(const sdbus::Variant& value) {
  if (!value.containsValueOfType<T>()) return std::nullopt;
  return static_cast<int64_t>(value.get<T>());
}

std::optional<int64_t> AsInteger(const sdbus::Variant& value) {
  for (auto extract : {TryInteger<int32_t>, TryInteger<uint32_t>, TryInteger<int64_t>,
                       TryInteger<int16_t>, TryInteger<uint16_t>, TryInteger<uint8_t>}) {
    if (auto number = extract(value)) return number;
  }
  if (value.containsValueOfType<uint64_t>() && value.get<uint64_t>() <= INT64_MAX) {
    return static_cast<int64_t>(value.get<uint64_t>());
  }
  return std::nullopt;
}

Error UnknownOption(const std::string& key, const char* known) {
  return Error(Errc::kInvalidArgument, fmt::format("unknown option '{}' (known: {})", key, known));
}

}  // namespace

Result<UpdateSource> ParseBatchOptions(const CallOptions& options) {
  UpdateSource source = UpdateSource::kInteractive;
  for (const auto& [key, value] : options) {
    if (key != "source") return UnknownOption(key, "source");
    if (!value.containsValueOfType<std::string>()) {
      return Error(Errc::kInvalidArgument, fmt::format("option 'source' must be a string, not '{}'",
                                                       value.peekValueType()));
    }
    const std::string name = value.get<std::string>();
    if (name == "miner")
      source = UpdateSource::kMiner;
    else if (name != "interactive") {
      return Error(Errc::kInvalidArgument,
                   fmt::format("option 'source' is '{}'; use \"miner\" or \"interactive\"", name));
    }
  }
  return source;
}

Result<QueryOptions> ParseStreamOptions(const CallOptions& options) {
  QueryOptions parsed;
  parsed.version = kStreamFormatVersion;
  for (const auto& [key, value] : options) {
    if (key == kParametersOption) {
      QUARRY_ASSIGN_OR_RETURN(parsed.parameters, DecodeParameters(value));
      continue;
    }
    if (key == "max_bytes") {
      const std::optional<int64_t> bytes = AsInteger(value);
      if (!bytes || *bytes < 0) {
        return Error(Errc::kInvalidArgument,
                     fmt::format("option 'max_bytes' must be a non-negative integer, not '{}'",
                                 bytes ? std::to_string(*bytes) : value.peekValueType()));
      }
      parsed.max_bytes = static_cast<uint64_t>(*bytes);
      continue;
    }
    if (key != "version") return UnknownOption(key, "version, parameters, max_bytes");
    const std::optional<int64_t> number = AsInteger(value);
    if (!number) {
      return Error(
          Errc::kInvalidArgument,
          fmt::format("option 'version' must be an integer, not '{}'", value.peekValueType()));
    }
    if (*number != kStreamFormatVersion) {
      return Error(Errc::kUnsupported,
                   fmt::format("stream format version {} is unknown (this store writes version {})",
                               *number, kStreamFormatVersion));
    }
    parsed.version = static_cast<int>(*number);
  }
  return parsed;
}

Result<engine::QueryParameters> ParsePlainQueryOptions(const CallOptions& options) {
  engine::QueryParameters parameters;
  for (const auto& [key, value] : options) {
    if (key != kParametersOption) return UnknownOption(key, kParametersOption);
    QUARRY_ASSIGN_OR_RETURN(parameters, DecodeParameters(value));
  }
  return parameters;
}

}  // namespace quarry::ipc
