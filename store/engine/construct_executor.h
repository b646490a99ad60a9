// CONSTRUCT and DESCRIBE (SPARQL 1.1 §16.2, §16.4): a parsed graph query in, a set of triples
// out.
//
// Both run their WHERE clause as a SELECT of the variables they need, with the query's dataset,
// ORDER BY, LIMIT/OFFSET and VALUES, through the same compiler as any SELECT. CONSTRUCT then
// instantiates its template once per solution; DESCRIBE describes every resource it names or its
// variables bind, the way the exporter reads a resource (rdfio::DescribeResources).
// Thread-safety: the thread that owns the Database.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/engine/cursor.h"
#include "store/engine/sqlite/database.h"
#include "store/engine/triple_set.h"
#include "store/ontology/ontology.h"
#include "store/sparql/ast.h"
#include "store/sparql/sql_query.h"

namespace quarry::engine {

// Compiles a SELECT the way the Store compiles queries (its ontology, its open mode).
using SelectCompiler = std::function<Result<sparql::SqlQuery>(const sparql::Query& select)>;

// CONSTRUCT (and the CONSTRUCT WHERE short form): each solution instantiates the template, with
// fresh blank nodes per solution (labelled _:c1, _:c2, ...; the store's own blank nodes keep
// _:b<ID>). A template triple is skipped for a solution that leaves one of its variables unbound
// or makes it invalid RDF (a literal subject, a predicate that is not an IRI). Template `~name`s
// take their value from `parameters`. Errors: a path in the template; compile and SQLite errors.
Result<TripleSet> RunConstruct(Database& db, const SelectCompiler& compile, sparql::Query query,
                               const QueryParameters& parameters);

// DESCRIBE <iri> ..., DESCRIBE ?x ... WHERE { ... }, DESCRIBE * WHERE { ... }: the statements
// about every named IRI and every resource (IRI or blank node) bound to a described variable, in
// any graph. Literals bound to described variables and unknown IRIs describe nothing.
Result<TripleSet> RunDescribe(Database& db, const ontology::Ontology& ontology,
                              const SelectCompiler& compile, sparql::Query query,
                              const QueryParameters& parameters);

// For both: runs `query`'s WHERE as `SELECT ?variables` (SELECT * when `star`) and returns the
// cursor over its solutions. Moves the WHERE clause, dataset, modifiers and VALUES out of `query`.
Result<Cursor> RunSolutionQuery(Database& db, const SelectCompiler& compile, sparql::Query& query,
                                const std::vector<std::string>& variables, bool star,
                                const QueryParameters& parameters);

}  // namespace quarry::engine
