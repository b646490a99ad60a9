// The SPARQL → SQL compiler (SCHEMA.md layout). Pure: ontology + AST in, SQL text out.
//
// Supported so far (issue 2): basic graph patterns over class and property tables with type
// inference from rdf:type (a class table, not the type table, when the class is known),
// domain-index mirror columns, one join per subject and table, OPTIONAL, nested groups,
// GRAPH <g> / GRAPH ?g, FILTER with comparisons, logic, arithmetic and common functions,
// tracker:id / tracker:uri, IN / NOT IN, BIND, SELECT expressions, DISTINCT, ORDER BY,
// LIMIT/OFFSET, COUNT/SUM/AVG/MIN/MAX/SAMPLE/GROUP_CONCAT with GROUP BY, and ASK.
// The algebra of issue 3, still one SQL statement: UNION (a UNION ALL derived table), MINUS (a
// correlated NOT EXISTS on the shared variables), VALUES inline and trailing (UNDEF = NULL,
// constants in their stored encoding), sub-SELECT (a derived table joined on its projection),
// property paths / | ^ * + ? !(...) (translate_path.cpp; * and + as WITH RECURSIVE), FROM /
// FROM NAMED, and compatible-solution joins of variables an OPTIONAL may leave unbound. Refused
// with Errc::kUnsupported naming the construct: SERVICE, trailing VALUES with GROUP BY or
// aggregates, and a zero-length path (* or ?) between a resource and a literal.
// The SPARQL 1.1 function library with its error semantics (a type error is NULL) and Tracker's
// functions (translate_builtin*.cpp, translate_function.cpp, builtin_helpers.h), and full-text
// search: `?r fts:match "…"` with fts:rank/snippet/offsets (translate_fts.cpp, search_syntax.h).
// Open mode compares quad-table values by their stored datatype (translate_term_compare.cpp).
// A FILTER is its bare SQL condition in a WHERE/ON, so range filters can use indexes.
// Thread-safety: free functions over const data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"
#include "store/sparql/ast.h"
#include "store/sparql/sql_query.h"

namespace quarry::sparql {

// A SELECT or ASK query. ASK yields one column "ask" holding 1 or 0.
// `open_mode` (SCHEMA.md "Open mode"): predicates the ontology lacks, and variable predicates,
// read the quad table instead of being refused.
Result<SqlQuery> TranslateQuery(const Query& query, const ontology::Ontology& ontology,
                                bool open_mode = false);

// The solutions of an update's WHERE clause: one column per variable in `variables`, holding
// raw stored values (kResourceId for resources) so templates can be applied without lookups.
// `default_graph` is the WITH graph the pattern is restricted to, if any; `using_clauses`
// (USING / USING NAMED) replace it with a dataset, as FROM / FROM NAMED do for a query.
Result<SqlQuery> TranslateSolutions(const GroupGraphPattern& where,
                                    const std::vector<std::string>& variables,
                                    const ontology::Ontology& ontology,
                                    const std::optional<std::string>& default_graph,
                                    bool open_mode = false,
                                    const std::vector<DatasetClause>& using_clauses = {});

}  // namespace quarry::sparql
