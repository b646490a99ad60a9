// Writes bound `~name` parameters into SPARQL text, for statements run over D-Bus, where the
// store compiles the text (the direct path binds them into SQL instead). Strings, IRIs and
// comments are skipped, so a "~x" inside a literal stays text.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/engine/cursor.h"

namespace quarry {

// The SPARQL form of a term: <iri>, _:label, "text"@lang, "5"^^<datatype>.
std::string SparqlTermText(const schema::RdfTerm& term);
// `sparql` with each ~name replaced by its value; an unbound name is an error naming it.
Result<std::string> SubstituteParameters(std::string_view sparql,
                                         const engine::QueryParameters& parameters);

}  // namespace quarry
