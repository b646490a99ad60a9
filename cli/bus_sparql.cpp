#include "cli/bus_sparql.h"

#include <fmt/format.h>

#include <iostream>

#include "cli/client_solutions.h"
#include "cli/commands.h"
#include "cli/result_format.h"
#include "quarry/connection.h"
#include "store/client/parameter_text.h"
#include "store/ipc/graph_stream.h"

namespace quarry::cli {
namespace {

// "name=value" or "~name=value"; value "<iri>" binds an IRI, anything else a plain literal
// (the same rule as with --database). The store compiles text: values are written into it.
Result<std::string> WithParameters(const std::string& text,
                                   const std::vector<std::string>& params) {
  if (params.empty()) return text;
  engine::QueryParameters parameters;
  for (const std::string& param : params) {
    const size_t equals = param.find('=');
    std::string name = param.substr(0, equals);
    if (!name.empty() && name.front() == '~') name.erase(0, 1);
    std::string value = param.substr(equals + 1);
    parameters[name] = value.size() >= 2 && value.front() == '<' && value.back() == '>'
                           ? schema::RdfTerm::Iri(value.substr(1, value.size() - 2))
                           : schema::RdfTerm::Literal(std::move(value));
  }
  return SubstituteParameters(text, parameters);
}

// CONSTRUCT / DESCRIBE: Turtle (default) or N-Triples, written by the store's graph writer.
Result<void> PrintGraph(Connection& connection, const std::string& text,
                        const std::string& format_name) {
  QUARRY_ASSIGN_OR_RETURN(const engine::results::GraphFormat format, GraphFormatFor(format_name));
  QUARRY_ASSIGN_OR_RETURN(const std::string rdf,
                          connection.QueryRdf(text, format == engine::results::GraphFormat::kTurtle
                                                        ? RdfSyntax::kTurtle
                                                        : RdfSyntax::kNTriples));
  std::cout << rdf;
  return Ok();
}

// SELECT and ASK through the same writers as --database (ClientSolutions).
Result<void> PrintSolutions(Connection& connection, const std::string& text,
                            sparql::QueryForm form, const std::string& format_name) {
  QUARRY_ASSIGN_OR_RETURN(const ResultFormat format, SolutionFormatFor(format_name, form));
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, connection.Query(text));
  if (form == sparql::QueryForm::kAsk) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    const std::string_view answer = has_row ? cursor.GetString(0) : "";
    WriteAskResult(answer == "1" || answer == "true", format, std::cout);
    return Ok();
  }
  ClientSolutions solutions(cursor);
  QUARRY_TRY(WriteSelectResults(solutions, format, std::cout));
  return Ok();
}

int RunBusQuery(Connection& connection, const SparqlArgs& args, const std::string& query) {
  if (args.explain) {
    const auto plan = connection.Explain(query);
    if (!plan) return ReportError("query", plan.error());
    std::cout << *plan;
    return 0;
  }
  const auto text = WithParameters(query, args.params);
  if (!text) return ReportError("query", text.error());
  const sparql::QueryForm form = ipc::QueryFormOf(*text).value_or(sparql::QueryForm::kSelect);
  const bool is_graph = form == sparql::QueryForm::kConstruct ||
                        form == sparql::QueryForm::kDescribe;
  const auto printed = is_graph ? PrintGraph(connection, *text, args.format)
                                : PrintSolutions(connection, *text, form, args.format);
  if (!printed) return ReportError("query", printed.error());
  std::cout.flush();
  if (!std::cout) return ReportError("query", Error(Errc::kIo, "cannot write the results"));
  return 0;
}

}  // namespace

void AddBusQueryOptions(CLI::App& command, BusQueryArgs& args) {
  command.get_option("--database")
      ->required(false)
      ->description("Database directory, opened in this process (default: ask the running "
                    "quarry-store over D-Bus)");
  CLI::Option* fd = command.add_flag(
      "--fd", args.force_fd,
      "Without --database: rows through a pipe (the default where the bus can pass descriptors)");
  command.add_flag("--no-fd", args.force_plain,
                   "Without --database: rows in one plain D-Bus reply (text only)")
      ->excludes(fd);
}

int RunBusSparql(const SparqlArgs& args, const std::string& text, bool is_update) {
  auto connection = Connection::Bus();
  if (!connection) return ReportError({}, connection.error());
  if (is_update) {
    const auto done = (*connection)->Update(text);
    if (!done) return ReportError("update", done.error());
    return 0;
  }
  (*connection)->SetQueryTransport(args.bus.force_fd      ? QueryTransport::kFdStream
                                   : args.bus.force_plain ? QueryTransport::kPlainDBus
                                                          : QueryTransport::kAuto);
  return RunBusQuery(**connection, args, text);
}

}  // namespace quarry::cli
