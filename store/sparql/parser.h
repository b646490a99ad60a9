// SPARQL 1.1 query and update parsing (https://www.w3.org/TR/sparql11-query/#grammar,
// https://www.w3.org/TR/sparql11-update/#grammar) into the AST of ast.h.
//
// Hand-written recursive descent, one function per grammar rule. Accepts Tracker's
// extensions unless `strict` is set: ~parameters, INSERT OR REPLACE / INSERT SILENT, Modify
// without WHERE, unnamed select expressions (SELECT COUNT(?x) {...}, SELECT ?a AS ?b),
// LIMIT/OFFSET ~parameter, update operations without ';' between them. Errors are Errc::kParse with "line:column: ..." and an excerpt
// (diagnostics.h). Nesting deeper than kMaxNestingDepth is refused, so no input can exhaust
// the stack. Thread-safety: reentrant; no shared state.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/sparql/ast.h"

namespace quarry::sparql {

// Groups, expressions, paths, collections and [ ] lists nested deeper than this are an error.
// At the limit the parser needs < 256 KB of stack in Release builds (about 3 MB in Debug and
// 4 MB with ASan), and the AST it returns is as shallow, so recursive walks over it are safe.
inline constexpr int kMaxNestingDepth = 256;

struct ParseOptions {
  // prefix (without ':') -> namespace IRI, e.g. from the ontology; PREFIX lines override.
  std::map<std::string, std::string> prefixes;
  // Base for relative IRIs until a BASE declaration; empty leaves them relative.
  std::string base_iri;
  // Plain SPARQL 1.1: no Tracker extensions, and the checks Tracker leaves to SQLite (every
  // projected variable grouped, SELECT * without GROUP BY, blank node labels confined to one
  // basic graph pattern / one INSERT DATA) are errors. Used by the W3C conformance tests.
  bool strict = false;
};

Result<Query> ParseQuery(std::string_view text, const ParseOptions& options);
// A request of one or more operations separated by ';'.
Result<Update> ParseUpdate(std::string_view text, const ParseOptions& options);

// ---- Streaming update parsing: the bulk path (parse_update_stream.cpp)
// A 30 MB INSERT DATA would make an AST ~14x its size; a sink gets its triples while they are
// parsed instead, one subject statement at a time, so memory stays flat.

// The header of an INSERT DATA / DELETE DATA whose triples follow.
struct DataOperation {
  bool insert = true;       // INSERT DATA, else DELETE DATA
  bool or_replace = false;  // Tracker: INSERT OR REPLACE DATA
  bool silent = false;      // Tracker: INSERT SILENT DATA
  size_t offset = 0;        // byte offset of its first keyword
};

// Receives a request's operations in source order. Each call may fail; its error ends the
// parse and is returned unchanged (the sink adds line:column from the offsets it is given).
class UpdateSink {
 public:
  virtual ~UpdateSink() = default;
  // Every operation except INSERT DATA and DELETE DATA, whole, exactly as ParseUpdate() gives it.
  virtual Result<void> OnOperation(UpdateOperation operation, size_t offset) = 0;
  // INSERT DATA / DELETE DATA: OnDataBegin, then OnDataTriples per TriplesSameSubject (with the
  // triples its [ ] lists and collections generate; an empty GRAPH block comes as no triples),
  // then OnDataEnd once its '}' has been parsed. `graph` is null for the default graph;
  // `offset` is where the statement starts. The sink may move the triples out.
  virtual Result<void> OnDataBegin(const DataOperation& operation) = 0;
  virtual Result<void> OnDataTriples(const Term* graph, std::vector<TriplePattern>& triples,
                                     size_t offset) = 0;
  virtual Result<void> OnDataEnd() = 0;
};

// Parses a request as ParseUpdate() does (same grammar, same errors) while handing it to `sink`.
// A parse error can come after the sink has seen earlier operations and triples: run it inside a
// transaction that the error rolls back.
Result<void> ParseUpdateStream(std::string_view text, const ParseOptions& options,
                               UpdateSink& sink);

// S-expression rendering of the AST (print.cpp), used by golden tests and debugging.
std::string ToSExpression(const Query& query);
std::string ToSExpression(const Update& update);
// One-line forms of an expression and a property path.
std::string ToSExpression(const Expr& expr);
std::string ToSExpression(const Path& path);

}  // namespace quarry::sparql
