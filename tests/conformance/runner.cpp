// Running one W3C evaluation test against a fresh open-mode store.
#include "tests/conformance/runner.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "store/engine/construct_executor.h"
#include "store/engine/rdf_io/importer.h"
#include "store/engine/store.h"
#include "store/schema/quad_table.h"
#include "store/sparql/parser.h"
#include "store/sparql/translate/translator.h"
#include "tests/conformance/compare.h"

namespace quarry::conformance {
namespace {

using Clock = std::chrono::steady_clock;

// A runaway query (a path closure over a cycle, a cross product) is interrupted rather than
// stalling the whole run.
constexpr auto kQueryTimeout = std::chrono::seconds(20);

int OnProgress(void* deadline) {
  return Clock::now() > *static_cast<Clock::time_point*>(deadline) ? 1 : 0;
}

Outcome Fail(std::string reason) { return {Outcome::Status::kFail, std::move(reason)}; }
Outcome Skip(std::string reason) { return {Outcome::Status::kSkip, std::move(reason)}; }

Result<std::string> ReadText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error(Errc::kIo, fmt::format("cannot read {}", file.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string FileIri(const std::filesystem::path& file) { return "file://" + file.string(); }

// A file the importer cannot read (RDF/XML) makes the test unrunnable.
std::string UnloadableReason(const TestCase& test) {
  std::vector<std::filesystem::path> files = test.data;
  for (const auto& [name, file] : test.graph_data) files.push_back(file);
  for (const auto& file : test.result_data) files.push_back(file);
  for (const auto& [name, file] : test.result_graph_data) files.push_back(file);
  for (const auto& file : files) {
    if (file.extension() == ".rdf") return "RDF/XML data cannot be read (no RDF/XML parser)";
  }
  if (test.kind == TestCase::Kind::kQuery && test.result.extension() == ".rdf") {
    return "RDF/XML expected results cannot be read (no RDF/XML parser)";
  }
  return {};
}

Result<void> LoadData(engine::Store& store, const TestCase& test) {
  for (const auto& file : test.data) {
    QUARRY_TRY(engine::rdf_io::ImportFile(store.database(), store.ontology(), file, std::nullopt));
  }
  for (const auto& [name, file] : test.graph_data) {
    QUARRY_TRY(engine::rdf_io::ImportFile(store.database(), store.ontology(), file, name));
  }
  return Ok();
}

Result<Solutions> ReadCursor(engine::Cursor& cursor) {
  Solutions solutions;
  for (int i = 0; i < cursor.ColumnCount(); ++i)
    solutions.variables.push_back(cursor.VariableName(i));
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    Row row;
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      if (auto term = cursor.GetTerm(i)) row[cursor.VariableName(i)] = Normalized(std::move(*term));
    }
    solutions.rows.push_back(std::move(row));
  }
  return solutions;
}

std::vector<std::string> OrderKeys(const sparql::Query& query) {
  std::vector<std::string> keys;
  for (const sparql::OrderCondition& order : query.modifiers.order_by) {
    const auto* term = std::get_if<sparql::Term>(&order.expr.node);
    const auto* variable = term ? std::get_if<sparql::Variable>(term) : nullptr;
    if (!variable) break;  // later keys only order ties of an expression we do not evaluate here
    keys.push_back(variable->name);
  }
  return keys;
}

Result<Graph> GraphOfTriples(const engine::TripleSet& triples) {
  Graph graph;
  for (const engine::Triple& triple : triples.triples()) {
    graph.push_back({"", Normalized(triple.subject), RdfTerm::Iri(triple.predicate),
                     Normalized(triple.object)});
  }
  return graph;
}

Outcome RunQuery(engine::Store& store, const TestCase& test) {
  auto text = ReadText(test.query);
  if (!text) return Fail(text.error().ToString());
  sparql::ParseOptions options;
  options.base_iri = FileIri(test.query);
  auto query = sparql::ParseQuery(*text, options);
  if (!query) return Fail(query.error().ToString());
  // FROM / FROM NAMED name the test's files: load each as a named graph of that name, the
  // dataset the query then selects from.
  for (const sparql::DatasetClause& clause : query->dataset) {
    if (clause.iri.rfind("file://", 0) != 0) continue;
    const std::filesystem::path file = clause.iri.substr(7);
    auto loaded = engine::rdf_io::ImportFile(store.database(), store.ontology(), file, clause.iri);
    if (!loaded) return Fail("loading " + clause.iri + ": " + loaded.error().ToString());
  }
  const bool graph_form =
      query->form == sparql::QueryForm::kConstruct || query->form == sparql::QueryForm::kDescribe;
  if (graph_form) {
    auto expected = ReadGraph(test.result);
    if (!expected) return Skip(expected.error().ToString());
    // The query parsed with the test's base IRI (a FROM <data.ttl> names the file), so it runs
    // as parsed rather than re-parsed from its text without that base.
    const engine::SelectCompiler compile = [&store](const sparql::Query& select) {
      return sparql::TranslateQuery(select, store.ontology(), store.open_mode());
    };
    auto triples = query->form == sparql::QueryForm::kConstruct
                       ? engine::RunConstruct(store.database(), compile, std::move(*query), {})
                       : engine::RunDescribe(store.database(), store.ontology(), compile,
                                             std::move(*query), {});
    if (!triples) return Fail(triples.error().ToString());
    auto actual = GraphOfTriples(*triples);
    std::string why;
    return SameGraph(*expected, *actual, &why) ? Outcome{Outcome::Status::kPass, {}} : Fail(why);
  }
  auto expected = ReadExpectedSolutions(test.result);
  if (!expected) return Skip(expected.error().ToString());
  auto compiled = sparql::TranslateQuery(*query, store.ontology(), store.open_mode());
  if (!compiled) return Fail(compiled.error().ToString());
  auto cursor = store.Run(engine::Store::Prepare(std::move(*compiled)), {});
  if (!cursor) return Fail(cursor.error().ToString());
  auto actual = ReadCursor(*cursor);
  if (!actual) return Fail(actual.error().ToString());
  if (query->form == sparql::QueryForm::kAsk) {
    const bool answer = !actual->rows.empty() && actual->rows[0].count("ask") &&
                        actual->rows[0].at("ask").value == "true";
    actual->rows.clear();
    actual->boolean = answer;
  }
  std::string why;
  return SameSolutions(*expected, *actual, OrderKeys(*query), &why)
             ? Outcome{Outcome::Status::kPass, {}}
             : Fail(why);
}

}  // namespace

// Defined in runner_update.cpp.
Outcome RunUpdate(engine::Store& store, const TestCase& test);

Outcome RunTest(const TestCase& test, const std::filesystem::path& scratch) {
  if (!test.skip_reason.empty()) return Skip(test.skip_reason);
  if (const std::string reason = UnloadableReason(test); !reason.empty()) return Skip(reason);
  std::error_code error;
  std::filesystem::remove_all(scratch, error);
  engine::StoreOptions options;
  options.directory = scratch;
  options.open_mode = true;
  auto store = engine::Store::Open(options);
  if (!store) return Fail("cannot open an open-mode store: " + store.error().ToString());
  Clock::time_point deadline = Clock::now() + kQueryTimeout;
  sqlite3_progress_handler((*store)->database().handle(), 10000, OnProgress, &deadline);
  if (auto loaded = LoadData(**store, test); !loaded)
    return Fail("loading data: " + loaded.error().ToString());
  deadline = Clock::now() + kQueryTimeout;
  return test.kind == TestCase::Kind::kQuery ? RunQuery(**store, test) : RunUpdate(**store, test);
}

}  // namespace quarry::conformance
