// How the update executor names terms and triples in its error messages ("triple <a> ex:p 5",
// "subject <a>"), and which triples are rdf:type; shared by the AST path (update_executor.cpp)
// and the streaming path (update_executor_stream.cpp) so both report alike. Pure functions.
#pragma once

#include <string>

#include "store/sparql/ast.h"

namespace quarry::engine {

std::string TermText(const sparql::Term& term);
std::string TripleText(const sparql::TriplePattern& triple);
// An rdf:type triple (`a`): applied before the other triples of an operation.
bool IsType(const sparql::TriplePattern& triple);

}  // namespace quarry::engine
