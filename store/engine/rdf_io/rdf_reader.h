// Streams the statements of a local RDF file (Turtle, N-Triples, N-Quads, TriG) to a callback,
// with serd 0.30, never holding more than one statement in memory.
//
// Prefixed names are expanded and relative IRIs resolved against @base (the file's own
// file:// URI until a @base says otherwise). serd's statement sink knows nothing about
// positions, so the reader feeds serd one byte at a time from its own buffer and counts lines
// and columns itself: syntax errors are reported at the file:line:column serd had reached, and
// each statement carries the position where it ended (just past its object).
// Thread-safety: reentrant; one serd reader per call.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/schema/rdf_term.h"

namespace quarry::engine::rdf_io {

enum class RdfSyntax { kTurtle, kNTriples, kNQuads, kTrig };

std::string_view SyntaxName(RdfSyntax syntax);
// "turtle"/"ttl", "ntriples"/"nt", "nquads"/"nq", "trig"; nullopt otherwise.
std::optional<RdfSyntax> SyntaxFromName(std::string_view name);
// By extension: .ttl/.turtle, .nt, .nq, .trig. kUnsupported names the extension otherwise.
Result<RdfSyntax> SyntaxOfFile(const std::filesystem::path& file);

// Where the reader is in the file (1-based; the column counts characters).
struct TextPosition {
  int line = 1;
  int column = 0;
};

struct RdfStatement {
  std::optional<std::string> graph;  // a named graph's IRI (TriG, N-Quads); nullopt = default
  schema::RdfTerm subject;           // IRI or blank node
  std::string predicate;             // full IRI
  schema::RdfTerm object;
  TextPosition end;                  // where serd was when it emitted the statement
};

// Called once per statement; an error stops the read and is returned unchanged (the caller
// knows the position from RdfStatement::end; see LocationOf).
using StatementSink = std::function<Result<void>(const RdfStatement&)>;

// "data.ttl:3:17", for error context.
std::string LocationOf(const std::filesystem::path& file, const TextPosition& position);

// Errors: kNotFound / kIo when the file cannot be read, kParse "file:line:column: message"
// for a syntax error, kUnsupported (with the position) for a blank node as graph name, or the
// sink's error as it returned it.
Result<void> ReadRdfFile(const std::filesystem::path& file, RdfSyntax syntax,
                         const StatementSink& sink);

}  // namespace quarry::engine::rdf_io
