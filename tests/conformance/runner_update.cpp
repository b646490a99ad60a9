// Update evaluation tests: apply the request, then compare the store's default and named
// graphs with the expected ones.
#include <fmt/format.h>
#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include "store/engine/store.h"
#include "store/schema/quad_table.h"
#include "tests/conformance/compare.h"
#include "tests/conformance/runner.h"

namespace quarry::conformance {
namespace {

// A kTerm column (schema::TermOutputSql) back into a term.
RdfTerm DecodeTerm(const engine::Statement& statement, int column) {
  if (statement.ColumnType(column) == SQLITE_BLOB) {
    const auto bytes = statement.ColumnBlob(column);
    const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const size_t nul = text.find('\0');
    return Normalized(RdfTerm::Literal(text.substr(0, nul), {},
                                       nul == std::string::npos ? "" : text.substr(nul + 1)));
  }
  const std::string text(statement.ColumnText(column));
  const std::string rest = text.empty() ? text : text.substr(1);
  switch (text.empty() ? 'S' : text[0]) {
    case 'I':
      return RdfTerm::Iri(rest);
    case 'B':
      return RdfTerm::Blank(rest.substr(2));  // "_:b12"
    case 'L': {
      const size_t separator = rest.find('\x1f');
      return Normalized(RdfTerm::Literal(rest.substr(separator + 1), rest.substr(0, separator)));
    }
    default:
      return RdfTerm::Literal(rest);
  }
}

// Every quad of the quad table. (Open mode keeps rdf:type triples with a base-ontology class
// in class tables; the W3C update data uses none.)
Result<Graph> DumpQuads(engine::Store& store) {
  const std::string sql = fmt::format(
      "SELECT coalesce((SELECT Uri FROM Resource WHERE ID = Graph AND Graph > 0), ''), {}, {}, {} "
      "FROM {}",
      schema::TermOutputSql("Subject"), schema::TermOutputSql("Predicate"),
      schema::TermOutputSql("Object"), schema::kQuadTable);
  QUARRY_ASSIGN_OR_RETURN(engine::Statement statement, store.database().Prepare(sql));
  Graph graph;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, statement.Step());
    if (!has_row) break;
    graph.push_back({std::string(statement.ColumnText(0)), DecodeTerm(statement, 1),
                     DecodeTerm(statement, 2), DecodeTerm(statement, 3)});
  }
  return graph;
}

Result<Graph> ExpectedGraph(const TestCase& test) {
  Graph expected;
  for (const auto& file : test.result_data) {
    QUARRY_ASSIGN_OR_RETURN(Graph part, ReadGraph(file));
    expected.insert(expected.end(), part.begin(), part.end());
  }
  for (const auto& [name, file] : test.result_graph_data) {
    QUARRY_ASSIGN_OR_RETURN(Graph part, ReadGraph(file, name));
    expected.insert(expected.end(), part.begin(), part.end());
  }
  return expected;
}

}  // namespace

Outcome RunUpdate(engine::Store& store, const TestCase& test) {
  std::ifstream in(test.query, std::ios::binary);
  if (!in) return {Outcome::Status::kFail, "cannot read " + test.query.string()};
  std::stringstream request;
  request << in.rdbuf();
  if (auto done = store.Update(request.str()); !done) {
    return {Outcome::Status::kFail, done.error().ToString()};
  }
  auto expected = ExpectedGraph(test);
  if (!expected) return {Outcome::Status::kSkip, expected.error().ToString()};
  auto actual = DumpQuads(store);
  if (!actual) return {Outcome::Status::kFail, actual.error().ToString()};
  std::string why;
  if (SameGraph(*expected, *actual, &why)) return {Outcome::Status::kPass, {}};
  return {Outcome::Status::kFail, why};
}

}  // namespace quarry::conformance
