#include "store/ipc/error_names.h"

#include <sdbus-c++/Error.h>

#include <array>

namespace quarry::ipc {
namespace {

constexpr std::array kAllCodes = {
    Errc::kInvalidArgument, Errc::kParse,        Errc::kOntology,
    Errc::kConstraint,      Errc::kIncompatible, Errc::kType,
    Errc::kNotFound,        Errc::kIo,           Errc::kBusy,
    Errc::kNoSpace,         Errc::kCorrupt,      Errc::kUnsupported,
    Errc::kInternal,
};

}  // namespace

std::string DbusErrorName(Errc code) {
  return std::string(kErrorPrefix) + std::string(ErrcName(code));
}

std::optional<Errc> ErrcFromDbusName(std::string_view name) {
  if (name == kReplyTooLargeError) return Errc::kUnsupported;
  if (!name.starts_with(kErrorPrefix)) return std::nullopt;
  const std::string_view kind = name.substr(kErrorPrefix.size());
  for (const Errc code : kAllCodes) {
    if (ErrcName(code) == kind) return code;
  }
  return std::nullopt;
}

sdbus::Error ToDbusError(const Error& error) {
  return sdbus::Error(DbusErrorName(error.code()), error.ToString());
}

}  // namespace quarry::ipc
