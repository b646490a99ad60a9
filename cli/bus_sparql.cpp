#include "cli/bus_sparql.h"

#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/text_table.h"
#include "quarry/connection.h"

namespace quarry::cli {
namespace {

// "name=value" or "~name=value"; value "<iri>" binds an IRI, anything else a plain literal
// (the same rule as with --database).
void Bind(Statement& statement, const std::string& param) {
  const size_t equals = param.find('=');
  std::string name = param.substr(0, equals);
  if (!name.empty() && name.front() == '~') name.erase(0, 1);
  std::string value = param.substr(equals + 1);
  if (value.size() >= 2 && value.front() == '<' && value.back() == '>') {
    statement.BindIri(name, value.substr(1, value.size() - 2));
  } else {
    statement.BindString(name, std::move(value));
  }
}

// The table format: lexical forms, "@lang" appended, unbound values empty.
Result<uint64_t> PrintTable(Cursor& cursor) {
  std::vector<std::string> header;
  for (int i = 0; i < cursor.ColumnCount(); ++i) header.push_back(cursor.VariableName(i));
  TextTable table(std::move(header));
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    std::vector<std::string> cells;
    for (int i = 0; i < cursor.ColumnCount(); ++i) {
      std::string cell(cursor.GetString(i));
      const std::string_view lang = cursor.GetLanguage(i);
      if (!lang.empty()) cell += fmt::format("@{}", lang);
      cells.push_back(std::move(cell));
    }
    table.AddRow(std::move(cells));
  }
  table.Print(std::cout);
  const uint64_t rows = table.size();
  std::cout << rows << (rows == 1 ? " row\n" : " rows\n");
  return rows;
}

int RunBusQuery(Connection& connection, const SparqlArgs& args, const std::string& text) {
  if (!args.format.empty() && args.format != "table") {
    return ReportError("query", Error(Errc::kUnsupported,
                                      fmt::format("--format {} needs --database DIR: results "
                                                  "from quarry-store print as a table",
                                                  args.format)));
  }
  if (args.explain) {
    const auto plan = connection.Explain(text);
    if (!plan) return ReportError("query", plan.error());
    std::cout << *plan;
    return 0;
  }
  auto statement = connection.Prepare(text);
  if (!statement) return ReportError("query", statement.error());
  for (const std::string& param : args.params) Bind(*statement, param);
  auto cursor = statement->Execute();
  if (!cursor) return ReportError("query", cursor.error());
  const auto rows = PrintTable(*cursor);
  if (!rows) return ReportError("query", rows.error());
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
  command.add_flag("--fd,!--no-fd", args.use_fd,
                   "Without --database: rows through a pipe (--fd, the default) or in one plain "
                   "D-Bus reply (--no-fd: text only)");
}

int RunBusSparql(const SparqlArgs& args, const std::string& text, bool is_update) {
  auto connection = Connection::Bus();
  if (!connection) return ReportError({}, connection.error());
  if (is_update) {
    const auto done = (*connection)->Update(text);
    if (!done) return ReportError("update", done.error());
    return 0;
  }
  (*connection)->SetQueryTransport(args.bus.use_fd ? QueryTransport::kFdStream
                                                   : QueryTransport::kPlainDBus);
  return RunBusQuery(**connection, args, text);
}

}  // namespace quarry::cli
