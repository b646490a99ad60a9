// CONSTRUCT and DESCRIBE through the Steroids FD stream (issue 4). As in Tracker, a graph result
// travels as rows of three columns (subject, predicate, object); the row value type carries what
// a client needs to rebuild each term: IRI, blank node, language tag, and the datatypes the
// stream has a type for (xsd:integer, xsd:double, xsd:dateTime, xsd:boolean). A literal of any
// other datatype arrives as a plain string (stream format version 1 has no datatype field).
// Shared by the store (encoding) and store/client + `quarry sparql` (decoding).
// Thread-safety: pure functions; StepGraphIntoBlocks on the reader thread that owns `store`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/engine/cursor.h"
#include "store/engine/store.h"
#include "store/engine/triple_set.h"
#include "store/ipc/outgoing_blocks.h"
#include "store/schema/rdf_term.h"
#include "store/sparql/ast.h"

namespace quarry::ipc {

// The variable names a graph result is sent under.
inline const std::vector<std::string> kTripleColumns = {"subject", "predicate", "object"};

// The form of `query` from its first keyword after the prologue (BASE, PREFIX), found with the
// SPARQL lexer, without parsing; nullopt when there is none (the parser reports the error).
std::optional<sparql::QueryForm> QueryFormOf(std::string_view query);
bool IsGraphQuery(std::string_view query);
// The prologue's PREFIX declarations: prefix (no colon) → namespace IRI.
std::map<std::string, std::string> DeclaredPrefixes(std::string_view query);

// The stream type and lexical form a term is sent with, and the term a stream value stands for
// (nullopt when unbound).
engine::ValueKind StreamKindOf(const schema::RdfTerm& term);
std::optional<schema::RdfTerm> TermOfStreamValue(engine::ValueKind kind, std::string_view text,
                                                 std::string_view lang);

// Runs a CONSTRUCT / DESCRIBE query and appends its triples as rows to `blocks`, writing full
// blocks to `fd` as far as the pipe takes them. Returns kTripleColumns.
Result<std::vector<std::string>> StepGraphIntoBlocks(engine::Store& store, const std::string& query,
                                                     int fd, OutgoingBlocks& blocks,
                                                     const engine::QueryParameters& parameters = {});

}  // namespace quarry::ipc
