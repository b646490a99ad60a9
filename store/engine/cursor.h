// Cursor: steps a compiled SPARQL query and reads its columns as RDF values.
//
// Getters return views into SQLite's own memory (valid until the next Next()), the seed's cursor
// lesson: no copy per value. Only values whose stored form differs from their lexical form
// (dateTime, booleans and numbers asked for as text) go through a per-column scratch buffer.
// Thread-safety: the thread that owns the Store it came from.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/engine/sqlite/statement.h"
#include "store/schema/rdf_term.h"
#include "store/sparql/sql_query.h"

namespace quarry::engine {

// The value types of the DESIGN.md FD stream, shared by every read path.
enum class ValueKind {
  kUnbound = 0,
  kIri = 1,
  kString = 2,
  kInteger = 3,
  kDouble = 4,
  kDateTime = 5,
  kBlankNode = 6,
  kBoolean = 7,
  kLangString = 8,
};
std::string_view ValueKindName(ValueKind kind);

// `~name` → value, bound when a query runs.
using QueryParameters = std::map<std::string, schema::RdfTerm, std::less<>>;

// One value as the row encoders need it (Cursor::GetValue): views valid until the next Next().
struct ValueView {
  ValueKind kind = ValueKind::kUnbound;
  std::string_view text;  // the lexical form, as GetString()
  std::string_view lang;  // kLangString only, as GetLanguage()
};

class Cursor {
 public:
  Cursor(Statement statement, std::vector<sparql::OutputColumn> columns);
  // Columns shared with the compiled query (no copy of their names per execution: a contact
  // read has 21 columns, issue 7).
  Cursor(Statement statement, std::shared_ptr<const std::vector<sparql::OutputColumn>> columns);

  // Advances to the next row; false at the end.
  Result<bool> Next();

  int ColumnCount() const { return static_cast<int>(columns_->size()); }
  const std::string& VariableName(int column) const { return (*columns_)[column].name; }

  ValueKind Kind(int column) const;
  // The lexical form (IRI, literal text, "_:b12"); empty when unbound.
  std::string_view GetString(int column);
  std::string_view GetLanguage(int column);
  // Kind(), GetString() and GetLanguage() at once, asking SQLite for the value once and
  // reading it by its type (the FD stream reads every value this way: issue 4, perf of the
  // 300,000-row stream; issue 5, a miner restart's children rows).
  ValueView GetValue(int column);
  // The datatype IRI of a literal (xsd:string for plain text, rdf:langString when tagged);
  // empty for IRIs, blank nodes and unbound values. Open-mode columns keep any datatype.
  std::string GetDatatype(int column);
  int64_t GetInteger(int column) const;
  double GetDouble(int column) const;
  bool GetBoolean(int column) const { return GetInteger(column) != 0; }
  bool IsBound(int column) const;
  // The value as a full RDF term (copies; for tests and exporters).
  std::optional<schema::RdfTerm> GetTerm(int column);

 private:
  // The scratch buffer of `column`, the buffers made on first use (most reads need none).
  std::string& Scratch(int column);

  Statement statement_;
  std::shared_ptr<const std::vector<sparql::OutputColumn>> columns_;
  std::vector<std::string> scratch_;
};

}  // namespace quarry::engine
