// The D-Bus face of quarry-extract (DESIGN.md "D-Bus", extract/README.md): org.quarry.Extract1
// on /org/quarry/Extract1 under the name org.quarry.Extract1 — Queue(as uris),
// GetMetadata(s uri, s mime) -> s sparql, GetStatus() -> a{sv}. sdbus-c++ stays in this unit.
// Thread-safety: construct and destroy on the main thread; handlers run on the bus thread,
// GetMetadata replies go out from the service's worker slot threads (sdbus-c++ serialises its
// connection), so stop the service before destroying the adaptor.
#pragma once

#include <memory>
#include <string>

#include "extract/service/extractor_service.h"

namespace quarry::extract::service {

inline constexpr const char* kExtractBusName = "org.quarry.Extract1";
inline constexpr const char* kExtractObjectPath = "/org/quarry/Extract1";
inline constexpr const char* kExtractInterface = "org.quarry.Extract1";

class ExtractAdaptor {
 public:
  // Connects to `bus_address` (empty: the session bus), exports the object and takes the name.
  static Result<std::unique_ptr<ExtractAdaptor>> Start(const std::string& bus_address,
                                                       ExtractorService& service);
  ~ExtractAdaptor();
  // The bus went away (dbus-daemon gone): the adaptor has sent SIGTERM to the process.
  bool lost() const;
  class Impl;

 private:
  explicit ExtractAdaptor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry::extract::service
