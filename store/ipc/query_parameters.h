// Statement parameters on the wire (issue 7). A Statement prepared on a Bus
// connection sends its SPARQL text unchanged and its `~name` values beside it,
// in the "parameters" option of Steroids.Query and
// Resources.SparqlQueryWithOptions. The store binds them into the query it
// keeps compiled: its QueryCache is keyed by the text, which no longer changes
// per value, so a repeated statement is neither parsed nor translated again,
// and no value is ever pasted into SPARQL text (nothing to escape, nothing to
// inject).
//
// Wire type of the option: a{s(ssss)}: name (without '~') -> (kind, value,
// datatype, language) with kind "iri", "blank" or "literal"; datatype is an IRI
// or "" (xsd:string, or rdf:langString when a language is given); datatype and
// language are "" for IRIs and blanks. Version log: 1 (Dec 2026) first version.
// Clients and the store append and read the option straight in the sd-bus message
// (AppendParameters / ReadParameters): an sdbus::Variant marshals its contents into a message of
// its own, which is then copied into the call (and back out on the store's side), ~30 k
// instructions per fetch_one on the client and ~26 k on the store (issue 7, s23). Same wire type.
// Thread-safety: pure functions.
#pragma once

#include <sdbus-c++/Types.h>
#include <systemd/sd-bus.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>

#include "store/common/result.h"
#include "store/engine/cursor.h"
#include "store/engine/store.h"

namespace quarry::ipc {

inline constexpr const char *kParametersOption = "parameters";

using WireTerm = sdbus::Struct<std::string, std::string, std::string, std::string>;
using WireParameters = std::map<std::string, WireTerm>;

// The option value for `parameters`.
sdbus::Variant EncodeParameters(const engine::QueryParameters &parameters);
// Back into terms; a wrong D-Bus type, an unknown kind, a bad name or a
// datatype/language on a non-literal is kInvalidArgument naming the parameter.
Result<engine::QueryParameters> DecodeParameters(const sdbus::Variant &value);

// Appends `parameters` as the option's a{s(ssss)} at the message's position (inside the option's
// variant, opened by the caller). A value sd-bus refuses (text that is not UTF-8) is
// kInvalidArgument naming the parameter; the message is then unusable.
Result<void> AppendParameters(sd_bus_message *message, const engine::QueryParameters &parameters);
// Reads an a{s(ssss)} at the message's position (the option's variant entered already) into
// terms, checked as DecodeParameters does.
Result<engine::QueryParameters> ReadParameters(sd_bus_message *message);

// How often the reader threads of this process translated a query text (a miss
// of their Store's QueryCache) and how often they ran one they had compiled
// before, summed over every reader since start (Status.GetQueryStatistics:
// tests and diagnostics count translations, not time).
struct QueryStatistics {
  std::atomic<uint64_t> translated{0};
  std::atomic<uint64_t> reused{0};
  // Reads run on the bus thread with an idle reader's connection (backend.h, issue 7).
  std::atomic<uint64_t> inline_reads{0};
};
QueryStatistics &ProcessQueryStatistics();

// store.Query(text, parameters), counted in ProcessQueryStatistics().
Result<engine::Cursor> CountedQuery(engine::Store &store, const std::string &text,
                                    const engine::QueryParameters &parameters);

}  // namespace quarry::ipc
