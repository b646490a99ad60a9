#include "cli/result_format.h"

#include "cli/result_writers.h"

namespace quarry::cli {
namespace {

std::unique_ptr<ResultWriter> MakeWriter(ResultFormat format, std::ostream& out) {
  switch (format) {
    case ResultFormat::kTable: return MakeTableWriter(out);
    case ResultFormat::kJson: return MakeJsonWriter(out);
    case ResultFormat::kXml: return MakeXmlWriter(out);
    case ResultFormat::kCsv: return MakeCsvWriter(out);
    case ResultFormat::kTsv: return MakeTsvWriter(out);
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
  return std::nullopt;
}

Result<uint64_t> WriteSelectResults(engine::Cursor& cursor, ResultFormat format,
                                    std::ostream& out) {
  const std::unique_ptr<ResultWriter> writer = MakeWriter(format, out);
  std::vector<std::string> variables;
  for (int i = 0; i < cursor.ColumnCount(); ++i) variables.push_back(cursor.VariableName(i));
  writer->Begin(variables);
  uint64_t rows = 0;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    writer->Row(cursor);
    ++rows;
  }
  writer->End(rows);
  return rows;
}

void WriteAskResult(bool answer, ResultFormat format, std::ostream& out) {
  MakeWriter(format, out)->Boolean(answer);
}

}  // namespace quarry::cli
