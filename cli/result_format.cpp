#include "cli/result_format.h"

#include <fmt/format.h>

namespace quarry::cli {
namespace {

using engine::results::ResultWriter;

// Solution formats only (the caller has ruled out graph formats).
std::unique_ptr<ResultWriter> MakeWriter(ResultFormat format, std::ostream& out) {
  switch (format) {
    case ResultFormat::kJson:
      return engine::results::MakeJsonWriter(out);
    case ResultFormat::kXml:
      return engine::results::MakeXmlWriter(out);
    case ResultFormat::kCsv:
      return engine::results::MakeCsvWriter(out);
    case ResultFormat::kTsv:
      return engine::results::MakeTsvWriter(out);
    case ResultFormat::kTable:
    case ResultFormat::kTurtle:
    case ResultFormat::kNTriples:
      break;
  }
  return MakeTableWriter(out);
}

}  // namespace

std::optional<ResultFormat> ResultFormatFromName(std::string_view name) {
  if (name == "table") return ResultFormat::kTable;
  if (name == "json") return ResultFormat::kJson;
  if (name == "xml") return ResultFormat::kXml;
  if (name == "csv") return ResultFormat::kCsv;
  if (name == "tsv") return ResultFormat::kTsv;
  if (name == "turtle") return ResultFormat::kTurtle;
  if (name == "ntriples") return ResultFormat::kNTriples;
  return std::nullopt;
}

std::optional<engine::results::GraphFormat> GraphFormatOf(ResultFormat format) {
  if (format == ResultFormat::kTurtle) return engine::results::GraphFormat::kTurtle;
  if (format == ResultFormat::kNTriples) return engine::results::GraphFormat::kNTriples;
  return std::nullopt;
}

Result<engine::results::GraphFormat> GraphFormatFor(const std::string& format_name) {
  const ResultFormat format = ResultFormatFromName(format_name).value_or(ResultFormat::kTurtle);
  if (const auto graph_format = GraphFormatOf(format)) return *graph_format;
  return Error(Errc::kInvalidArgument, fmt::format("--format {} is for SELECT and ASK results; a "
                                                   "graph query prints turtle or ntriples",
                                                   format_name));
}

Result<ResultFormat> SolutionFormatFor(const std::string& format_name, sparql::QueryForm form) {
  const ResultFormat format = ResultFormatFromName(format_name).value_or(ResultFormat::kTable);
  if (!GraphFormatOf(format)) return format;
  return Error(Errc::kInvalidArgument,
               fmt::format("--format {} is for CONSTRUCT and DESCRIBE results; a {} query prints "
                           "table, json, xml, csv or tsv",
                           format_name, form == sparql::QueryForm::kAsk ? "ASK" : "SELECT"));
}

Result<uint64_t> WriteSelectResults(engine::results::Solutions& rows, ResultFormat format,
                                    std::ostream& out) {
  const std::unique_ptr<ResultWriter> writer = MakeWriter(format, out);
  return engine::results::WriteSolutions(rows, *writer);
}

Result<uint64_t> WriteSelectResults(engine::Cursor& cursor, ResultFormat format,
                                    std::ostream& out) {
  const std::unique_ptr<ResultWriter> writer = MakeWriter(format, out);
  return engine::results::WriteSolutions(cursor, *writer);
}

void WriteAskResult(bool answer, ResultFormat format, std::ostream& out) {
  MakeWriter(format, out)->Boolean(answer);
}

}  // namespace quarry::cli
