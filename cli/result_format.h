// Query results on stdout in the formats `quarry sparql --format` offers: an aligned table for
// people, and the W3C formats for programs — SPARQL 1.1 Query Results JSON, SPARQL Query
// Results XML, and SPARQL 1.1 CSV / TSV (TSV with terms in N-Triples/Turtle syntax).
// Rows are written as the cursor produces them (the table, which needs column widths, buffers).
// Thread-safety: the thread that owns the cursor.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "store/common/result.h"
#include "store/engine/cursor.h"

namespace quarry::cli {

enum class ResultFormat { kTable, kJson, kXml, kCsv, kTsv };

inline const std::vector<std::string> kResultFormatNames = {"table", "json", "xml", "csv", "tsv"};
std::optional<ResultFormat> ResultFormatFromName(std::string_view name);

// Steps `cursor` to the end, writing every row; returns the number of rows.
Result<uint64_t> WriteSelectResults(engine::Cursor& cursor, ResultFormat format, std::ostream& out);
// The answer of an ASK query.
void WriteAskResult(bool answer, ResultFormat format, std::ostream& out);

}  // namespace quarry::cli
