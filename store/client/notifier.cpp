#include "quarry/notifier.h"

#include <fmt/format.h>

#include <atomic>

#include "store/client/bus_link.h"
#include "store/ipc/bus_thread.h"
#include "store/ipc/quad_array.h"
#include "store/ipc/raw_message.h"

namespace quarry {
namespace {

// A D-Bus match-rule value: quoted with ', an embedded ' written as '\'' (the specification's
// only escape: backslashes are literal inside quotes).
std::string QuoteMatchValue(std::string_view value) {
  std::string quoted = "'";
  for (const char c : value) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

std::string GraphUpdatedMatchRule(std::string_view bus_name, std::string_view class_iri) {
  return fmt::format("type='signal',sender={},path={},interface={},member='GraphUpdated',arg0={}",
                     QuoteMatchValue(bus_name), QuoteMatchValue(kStoreObjectPath),
                     QuoteMatchValue(kResourcesInterface), QuoteMatchValue(class_iri));
}

class Notifier::Impl {
 public:
  Impl(std::unique_ptr<sdbus::IConnection> connection, Callback callback)
      : connection_(std::move(connection)), callback_(std::move(callback)) {}
  ~Impl() {
    // Stop the loop before the slots and the callback go away under it.
    loop_.reset();
    slots_.clear();
  }

  void Subscribe(const std::string& rule) {
    slots_.push_back(connection_->addMatch(rule, [this](sdbus::Message& message) {
      Deliver(message);
    }));
  }
  // A lost bus ends the loop; the application goes on (lost()).
  void Start() { loop_ = std::make_unique<ipc::BusThread>(*connection_, nullptr); }
  bool lost() const { return loop_ && loop_->lost(); }
  uint64_t malformed() const { return malformed_.load(); }

 private:
  void Deliver(sdbus::Message& message) {
    GraphUpdatedEvent event;
    try {
      // The quads straight into the event (quad_array.h, issue 7).
      message >> event.class_iri;
      sd_bus_message* const raw = ipc::RawMessage::Of(message);
      ipc::ReadQuadArray(raw, event.deletes);
      ipc::ReadQuadArray(raw, event.inserts);
    } catch (const sdbus::Error&) {
      ++malformed_;  // a foreign or broken sender: nothing to hand on
      return;
    }
    callback_(event);
  }

  std::unique_ptr<sdbus::IConnection> connection_;
  Callback callback_;
  std::vector<sdbus::Slot> slots_;
  std::atomic<uint64_t> malformed_{0};
  std::unique_ptr<ipc::BusThread> loop_;
};

Notifier::Notifier(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Notifier::~Notifier() = default;
uint64_t Notifier::malformed_signals() const { return impl_->malformed(); }
bool Notifier::lost() const { return impl_->lost(); }

Result<std::unique_ptr<Notifier>> Notifier::Open(const std::vector<std::string>& class_iris,
                                                 Callback callback, const BusOptions& options) {
  QUARRY_ASSIGN_OR_RETURN(std::unique_ptr<sdbus::IConnection> connection,
                          ConnectToBus(options.address));
  auto impl = std::make_unique<Impl>(std::move(connection), std::move(callback));
  for (const std::string& class_iri : class_iris) {
    const std::string rule = GraphUpdatedMatchRule(options.bus_name, class_iri);
    try {
      impl->Subscribe(rule);
    } catch (const sdbus::Error& error) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("cannot subscribe to {}: {}", rule, error.getMessage()));
    }
  }
  impl->Start();
  return std::unique_ptr<Notifier>(new Notifier(std::move(impl)));
}

}  // namespace quarry
