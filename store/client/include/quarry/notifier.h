// quarry::Notifier: GraphUpdated signals of chosen classes (DESIGN.md "GraphUpdated"), decoded.
//
// Each subscribed class gets its own D-Bus match rule with arg0 = the class IRI, so the bus
// delivers only those classes' signals. Events carry resource IDs; resolve them with one query
// (`SELECT tracker:uri(800) ...`). The Notifier owns its own bus connection and event-loop
// thread: the callback runs on that thread, one event at a time, and must not block long.
// Thread-safety: Open/destroy from any one thread; destroying stops the callbacks first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/connection.h"
#include "quarry/result.h"

namespace quarry {

// (graph, subject, predicate, object) IDs; object 0 for a literal, graph 0 the default graph.
struct ChangedTriple {
  int32_t graph = 0;
  int32_t subject = 0;
  int32_t predicate = 0;
  int32_t object = 0;
  friend bool operator==(const ChangedTriple&, const ChangedTriple&) = default;
};

struct GraphUpdatedEvent {
  std::string class_iri;
  std::vector<ChangedTriple> deletes;  // applied before the inserts
  std::vector<ChangedTriple> inserts;
};

// The match rule for one class's GraphUpdated signals from `bus_name`, quoting per the D-Bus
// specification ("'" inside a value becomes '\'').
std::string GraphUpdatedMatchRule(std::string_view bus_name, std::string_view class_iri);

class Notifier {
 public:
  using Callback = std::function<void(const GraphUpdatedEvent& event)>;

  static Result<std::unique_ptr<Notifier>> Open(const std::vector<std::string>& class_iris,
                                                Callback callback,
                                                const BusOptions& options = {});
  ~Notifier();
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  // Signals that matched but did not have the GraphUpdated signature `sa(iiii)a(iiii)`.
  uint64_t malformed_signals() const;
  // The bus went away (the session ended, dbus-daemon died): no more events come; open a new
  // Notifier once a bus is back. Before, the loop's error ended the application (SIGABRT).
  bool lost() const;

  class Impl;

 private:
  explicit Notifier(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry
