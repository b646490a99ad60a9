#include "bench/ipc/tracker_client.h"

#include <fmt/format.h>

#ifdef QUARRY_BENCH_HAVE_TRACKER
#include <libtracker-sparql/tracker-sparql.h>
#endif

namespace bench {

#ifdef QUARRY_BENCH_HAVE_TRACKER

namespace {

quarry::Error TrackerError(std::string_view what, GError* error) {
  quarry::Error result(quarry::Errc::kIo, fmt::format("tracker {}: {}", what,
                                                      error ? error->message : "unknown error"));
  if (error) g_error_free(error);
  return result;
}

}  // namespace

struct TrackerClient::State {
  TrackerSparqlConnection* connection = nullptr;
  ~State() {
    if (connection) g_object_unref(connection);
  }
};

TrackerClient::TrackerClient(std::string bus_name)
    : bus_name_(std::move(bus_name)), state_(std::make_unique<State>()) {}
TrackerClient::~TrackerClient() = default;

quarry::Result<void> TrackerClient::Fetch(const std::string& query,
                                          const std::function<void(std::string_view)>& on_value,
                                          const std::function<void()>& on_row_end) {
  GError* error = nullptr;
  if (!state_->connection) {
    state_->connection =
        tracker_sparql_connection_bus_new(bus_name_.c_str(), nullptr, nullptr, &error);
    if (!state_->connection) return TrackerError("connect", error);
  }
  TrackerSparqlCursor* cursor =
      tracker_sparql_connection_query(state_->connection, query.c_str(), nullptr, &error);
  if (!cursor) return TrackerError("query", error);
  const int columns = tracker_sparql_cursor_get_n_columns(cursor);
  while (tracker_sparql_cursor_next(cursor, nullptr, &error)) {
    for (int i = 0; i < columns; ++i) {
      glong length = 0;
      const gchar* text = tracker_sparql_cursor_get_string(cursor, i, &length);
      on_value(text ? std::string_view(text, static_cast<size_t>(length)) : std::string_view());
    }
    on_row_end();
  }
  g_object_unref(cursor);
  if (error) return TrackerError("cursor", error);
  return quarry::Ok();
}

#else

struct TrackerClient::State {};

TrackerClient::TrackerClient(std::string bus_name) : bus_name_(std::move(bus_name)) {}
TrackerClient::~TrackerClient() = default;

quarry::Result<void> TrackerClient::Fetch(const std::string&,
                                          const std::function<void(std::string_view)>&,
                                          const std::function<void()>&) {
  return quarry::Error(quarry::Errc::kUnsupported,
                       "built without tracker-sparql-3.0 (scripts/install-deps bench)");
}

#endif

}  // namespace bench
