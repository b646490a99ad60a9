// Solution writers for SELECT and ASK results in the W3C formats programs read: SPARQL 1.1 Query
// Results JSON, SPARQL Query Results XML, and SPARQL 1.1 CSV / TSV. Rows are written as the
// cursor produces them. Shared by `quarry sparql --format` and the tests (the CLI adds a table
// for people through the same interface). Writers read rows through Solutions, so the rows of
// an engine::Cursor in this process and of a client cursor fed by quarry-store (issue 4) print
// through the same code.
// Thread-safety: the thread that owns the cursor; a writer borrows its stream.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/engine/cursor.h"

namespace quarry::engine::results {

// The rows a writer reads. Thread-safety: the thread that owns the underlying cursor.
class Solutions {
 public:
  virtual ~Solutions() = default;
  // Advances to the next row; false at the end.
  virtual Result<bool> Next() = 0;
  virtual int ColumnCount() const = 0;
  virtual const std::string& VariableName(int column) const = 0;
  virtual bool IsBound(int column) const = 0;
  // The lexical form ("_:b1" for blank nodes); "" when unbound.
  virtual std::string_view GetString(int column) = 0;
  virtual std::string_view GetLanguage(int column) = 0;
  // The full term (copies); nullopt when unbound.
  virtual std::optional<schema::RdfTerm> GetTerm(int column) = 0;
};

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  virtual void Begin(const std::vector<std::string>& variables) = 0;
  // The cursor is on a row.
  virtual void Row(Solutions& cursor) = 0;
  virtual void End(uint64_t rows) = 0;
  // An ASK answer, instead of Begin/Row/End.
  virtual void Boolean(bool answer) = 0;
};

// https://www.w3.org/TR/sparql11-results-json/: one solution per line; unbound variables are
// left out of their solution; typed literals carry "datatype", tagged ones "xml:lang".
std::unique_ptr<ResultWriter> MakeJsonWriter(std::ostream& out);
// https://www.w3.org/TR/rdf-sparql-XMLres/
std::unique_ptr<ResultWriter> MakeXmlWriter(std::ostream& out);
// https://www.w3.org/TR/sparql11-results-csv-tsv/. CSV: lexical forms only (lossy: no datatype
// or language), RFC 4180 quoting, CRLF line ends. TSV: '?'-prefixed header, every term in
// N-Triples syntax (TsvTerm), LF. Unbound values are empty fields; an ASK answer is one line.
std::unique_ptr<ResultWriter> MakeCsvWriter(std::ostream& out);
std::unique_ptr<ResultWriter> MakeTsvWriter(std::ostream& out);

// Steps `cursor` to the end, writing every row through `writer`; returns the number of rows.
Result<uint64_t> WriteSolutions(Solutions& cursor, ResultWriter& writer);
Result<uint64_t> WriteSolutions(Cursor& cursor, ResultWriter& writer);

}  // namespace quarry::engine::results
