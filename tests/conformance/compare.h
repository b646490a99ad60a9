// Result comparison for the conformance runner: solution multisets equal up to a consistent
// renaming of blank nodes (a bijection), with ORDER BY keys checked row by row when the query
// orders; graphs compared the same way (each quad a row).
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <vector>

#include "tests/conformance/solutions.h"

namespace quarry::conformance {

// True when equal; otherwise `why` says what differs. `order_keys` are variables the query
// sorts by (empty: any order).
bool SameSolutions(const Solutions& expected, const Solutions& actual,
                   const std::vector<std::string>& order_keys, std::string* why);
bool SameGraph(const Graph& expected, const Graph& actual, std::string* why);

// A term as N-Triples text, for messages.
std::string TermText(const RdfTerm& term);

}  // namespace quarry::conformance
