// Query results on stdout in the formats `quarry sparql --format` offers: an aligned table for
// people; for programs the W3C solution formats (store/engine/results/result_writer.h: JSON,
// XML, CSV, TSV) and, for CONSTRUCT/DESCRIBE, Turtle and N-Triples (results/graph_writer.h).
// Thread-safety: the thread that owns the cursor.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/engine/cursor.h"
#include "store/engine/results/graph_writer.h"
#include "store/engine/results/result_writer.h"
#include "store/sparql/ast.h"

namespace quarry::cli {

enum class ResultFormat { kTable, kJson, kXml, kCsv, kTsv, kTurtle, kNTriples };

inline const std::vector<std::string> kResultFormatNames = {"table", "json",   "xml",     "csv",
                                                            "tsv",   "turtle", "ntriples"};
std::optional<ResultFormat> ResultFormatFromName(std::string_view name);
// The graph format of kTurtle / kNTriples; nullopt for the solution formats.
std::optional<engine::results::GraphFormat> GraphFormatOf(ResultFormat format);

// The format a graph query prints in ("" = turtle), or kInvalidArgument naming the mismatch.
// Shared by the --database and the quarry-store paths.
Result<engine::results::GraphFormat> GraphFormatFor(const std::string& format_name);
// The format SELECT / ASK solutions print in ("" = table), or kInvalidArgument for a graph format.
Result<ResultFormat> SolutionFormatFor(const std::string& format_name, sparql::QueryForm form);

// Steps `cursor` to the end, writing every row in a solution format; returns the number of rows.
Result<uint64_t> WriteSelectResults(engine::Cursor& cursor, ResultFormat format, std::ostream& out);
Result<uint64_t> WriteSelectResults(engine::results::Solutions& rows, ResultFormat format,
                                    std::ostream& out);
// The answer of an ASK query.
void WriteAskResult(bool answer, ResultFormat format, std::ostream& out);

// The table format (format_table.cpp).
std::unique_ptr<engine::results::ResultWriter> MakeTableWriter(std::ostream& out);

}  // namespace quarry::cli
