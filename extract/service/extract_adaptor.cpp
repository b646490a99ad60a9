#include "extract/service/extract_adaptor.h"

#include <fmt/format.h>
#include <sdbus-c++/sdbus-c++.h>

#include <map>
#include <memory>

#include "extract/service/log.h"
#include "store/ipc/bus_thread.h"

namespace quarry::extract::service {
namespace {

sdbus::Error ToDbusError(const Error& error) {
  return sdbus::Error(fmt::format("org.quarry.Error.{}", ErrcName(error.code())), error.ToString());
}

std::map<std::string, sdbus::Variant> StatusMap(const StatusSnapshot& status) {
  return {{"state", sdbus::Variant(status.state)},
          {"queued", sdbus::Variant(status.queued)},
          {"current", sdbus::Variant(status.current)},
          {"extracted", sdbus::Variant(status.extracted)},
          {"failed", sdbus::Variant(status.failed)},
          {"skipped", sdbus::Variant(status.skipped)},
          {"unwritten", sdbus::Variant(status.unwritten)},
          {"write_batches", sdbus::Variant(status.write_batches)},
          {"starved_ms", sdbus::Variant(status.starved_ms)},
          {"blocked_ms", sdbus::Variant(status.blocked_ms)},
          {"cpu_percent", sdbus::Variant(status.cpu_percent)},
          {"workers", sdbus::Variant(static_cast<uint32_t>(status.worker_pids.size()))},
          {"worker_pids", sdbus::Variant(status.worker_pids)}};
}

void Register(sdbus::IObject& object, ExtractorService& service) {
  object.registerMethod("Queue").onInterface(kExtractInterface).withInputParamNames("uris")
      .implementedAs([&service](const std::vector<std::string>& uris) {
        if (auto queued = service.Queue(uris); !queued) throw ToDbusError(queued.error());
      });
  object.registerMethod("GetMetadata").onInterface(kExtractInterface)
      .withInputParamNames("uri", "mime").withOutputParamNames("sparql")
      .implementedAs([&service](sdbus::Result<std::string>&& result, const std::string& uri,
                                const std::string& /*mime: advisory*/) {
        // Answered later from a worker slot's thread: the bus thread goes on serving
        // GetStatus and Queue meanwhile. (std::function needs a copyable callable.)
        auto reply = std::make_shared<sdbus::Result<std::string>>(std::move(result));
        service.GetMetadata(uri, [reply](Result<std::string> sparql) {
          try {
            if (sparql) {
              reply->returnResults(*sparql);
            } else {
              reply->returnError(ToDbusError(sparql.error()));
            }
          } catch (const sdbus::Error& error) {
            LogWarning(fmt::format("answering GetMetadata: {}", error.what()));
          }
        });
      });
  object.registerMethod("GetStatus").onInterface(kExtractInterface).withOutputParamNames("status")
      .implementedAs([&service]() { return StatusMap(service.Status()); });
}

}  // namespace

class ExtractAdaptor::Impl {
 public:
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<sdbus::IObject> object;
  std::unique_ptr<ipc::BusThread> loop;
};

Result<std::unique_ptr<ExtractAdaptor>> ExtractAdaptor::Start(const std::string& bus_address,
                                                              ExtractorService& service) {
  auto impl = std::make_unique<Impl>();
  try {
    impl->connection = bus_address.empty()
                           ? sdbus::createSessionBusConnection()
                           : sdbus::createSessionBusConnectionWithAddress(bus_address);
    impl->object = sdbus::createObject(*impl->connection, kExtractObjectPath);
    Register(*impl->object, service);
    impl->object->finishRegistration();
    impl->connection->requestName(kExtractBusName);
    impl->loop = std::make_unique<ipc::BusThread>(
        *impl->connection, ipc::StopProcessOnLostBus([](std::string_view line) { LogWarning(line); }));
  } catch (const sdbus::Error& error) {
    return Error(Errc::kIo,
                 fmt::format("cannot serve {} on the bus: {}", kExtractBusName, error.what()));
  }
  return std::unique_ptr<ExtractAdaptor>(new ExtractAdaptor(std::move(impl)));
}

ExtractAdaptor::ExtractAdaptor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ExtractAdaptor::~ExtractAdaptor() {
  try {
    if (!impl_->loop->lost()) impl_->connection->releaseName(kExtractBusName);
  } catch (const sdbus::Error& error) {
    LogWarning(fmt::format("leaving the bus: {}", error.what()));
  }
  impl_->loop.reset();
}

bool ExtractAdaptor::lost() const { return impl_->loop->lost(); }

}  // namespace quarry::extract::service
