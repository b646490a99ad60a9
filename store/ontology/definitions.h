// Turns the statements of ontology files into an Ontology::Draft.
//
// A subject typed rdfs:Class becomes a class, one typed rdf:Property a property; everything
// else (individuals such as nrl:Namespace descriptions) is ignored, as are predicates we do
// not interpret. Facts about one definition may be spread over several statements and files;
// repeating a fact is fine, contradicting it is an error. Checks that need the whole ontology
// (domains, ranges, closures) are left to Ontology::Build().
// Thread-safety: pure function.
#pragma once

#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"
#include "store/ontology/turtle_reader.h"

namespace quarry::ontology {

// `documents` in load order. Errors are Errc::kOntology, starting with "file:line:column: ".
Result<Ontology::Draft> CollectDefinitions(const std::vector<TurtleDocument>& documents);

}  // namespace quarry::ontology
