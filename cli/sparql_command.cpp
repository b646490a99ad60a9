// quarry sparql: one query (results in a chosen format) or one update request. An update file
// is one SPARQL Update request — several operations separated by ';' — run as one transaction.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/result_format.h"
#include "store/sparql/ast.h"

namespace quarry::cli {
namespace {

// "name=value" or "~name=value"; value "<iri>" is an IRI, anything else a plain literal.
std::pair<std::string, schema::RdfTerm> ParseParam(const std::string& text) {
  const size_t equals = text.find('=');
  std::string name = text.substr(0, equals);
  if (!name.empty() && name.front() == '~') name.erase(0, 1);
  std::string value = text.substr(equals + 1);
  if (value.size() >= 2 && value.front() == '<' && value.back() == '>') {
    return {name, schema::RdfTerm::Iri(value.substr(1, value.size() - 2))};
  }
  return {name, schema::RdfTerm::Literal(std::move(value))};
}

// Text of --query/--update or of the named file.
Result<std::string> RequestText(const std::string& inline_text, const std::string& file) {
  if (!file.empty()) return ReadTextFile(file);
  return inline_text;
}

// CONSTRUCT and DESCRIBE print triples (Turtle by default), SELECT and ASK solutions (a table).
int RunGraphQuery(engine::Store& store, const std::string& text, const sparql::Query& parsed,
                  const engine::QueryParameters& parameters, const std::string& format_name) {
  const auto graph_format = GraphFormatFor(format_name);
  if (!graph_format) return ReportError("query", graph_format.error());
  const auto triples = store.QueryGraph(text, parameters);
  if (!triples) return ReportError("query", triples.error());
  const auto written =
      engine::results::WriteGraph(*triples, *graph_format, parsed.prefixes, std::cout);
  if (!written) return ReportError("query", written.error());
  return 0;
}

int RunSolutionQuery(engine::Store& store, const std::string& text, const sparql::Query& parsed,
                     const engine::QueryParameters& parameters, const std::string& format_name) {
  const auto solution_format = SolutionFormatFor(format_name, parsed.form);
  if (!solution_format) return ReportError("query", solution_format.error());
  const ResultFormat format = *solution_format;
  auto cursor = store.Query(text, parameters);
  if (!cursor) return ReportError("query", cursor.error());
  if (parsed.form == sparql::QueryForm::kAsk) {
    const auto has_row = cursor->Next();
    if (!has_row) return ReportError("query", has_row.error());
    WriteAskResult(*has_row && cursor->GetInteger(0) != 0, format, std::cout);
    return 0;
  }
  const auto rows = WriteSelectResults(*cursor, format, std::cout);
  if (!rows) return ReportError("query", rows.error());
  return 0;
}

int RunQuery(engine::Store& store, const std::string& text, const SparqlArgs& args) {
  if (args.explain) {
    const auto plan = store.Explain(text);
    if (!plan) return ReportError("query", plan.error());
    std::cout << *plan;
    return 0;
  }
  const auto parsed = store.Parse(text);
  if (!parsed) return ReportError("query", parsed.error());
  engine::QueryParameters parameters;
  for (const std::string& param : args.params) parameters.insert(ParseParam(param));
  const bool is_graph = parsed->form == sparql::QueryForm::kConstruct ||
                        parsed->form == sparql::QueryForm::kDescribe;
  const int status = is_graph ? RunGraphQuery(store, text, *parsed, parameters, args.format)
                              : RunSolutionQuery(store, text, *parsed, parameters, args.format);
  if (status != 0) return status;
  std::cout.flush();
  if (!std::cout) return ReportError("query", Error(Errc::kIo, "cannot write the results"));
  return 0;
}

}  // namespace

CLI::App* AddSparqlCommand(CLI::App& app, SparqlArgs& args) {
  CLI::App* command = app.add_subcommand("sparql", "Run a SPARQL query or update");
  AddStoreOptions(*command, args.store);
  AddBusQueryOptions(*command, args.bus);
  CLI::Option_group* request = command->add_option_group("request", "What to run (exactly one)");
  request->add_option("-q,--query", args.query, "SPARQL query text");
  request->add_option("--query-file", args.query_file, "File holding a SPARQL query (- = stdin)")
      ->type_name("FILE");
  request->add_option("-u,--update", args.update, "SPARQL Update request text");
  request
      ->add_option("--update-file", args.update_file,
                   "File holding one SPARQL Update request; its operations (separated by ';') "
                   "run in one transaction (- = stdin)")
      ->type_name("FILE");
  request->require_option(1);
  command
      ->add_option("-f,--format", args.format,
                   "Result format: table (default), json, xml, csv or tsv for SELECT and ASK; "
                   "turtle (default) or ntriples for CONSTRUCT and DESCRIBE")
      ->check(CLI::IsMember(kResultFormatNames));
  command->add_flag("--explain", args.explain,
                    "Print the SQL a query compiles to and SQLite's plan instead of its results");
  command
      ->add_option("--param", args.params,
                   "Bind the query parameter ~NAME: NAME=value (a literal) or NAME=<iri>")
      ->type_name("NAME=VALUE")
      ->check(CLI::Validator(
          [](std::string& value) {
            return value.find('=') == std::string::npos ? std::string("expected NAME=VALUE")
                                                        : std::string();
          },
          "NAME=VALUE"));
  return command;
}

int RunSparql(const SparqlArgs& args) {
  const bool is_update = !args.update.empty() || !args.update_file.empty();
  const auto text = is_update ? RequestText(args.update, args.update_file)
                              : RequestText(args.query, args.query_file);
  if (!text) return ReportError({}, text.error());
  if (args.store.database.empty()) return RunBusSparql(args, *text, is_update);
  auto store = OpenStore(args.store);
  if (!store) return ReportError({}, store.error());
  if (!is_update) return RunQuery(**store, *text, args);
  const auto done = (*store)->Update(*text);
  if (!done) return ReportError("update", done.error());
  return 0;
}

}  // namespace quarry::cli
