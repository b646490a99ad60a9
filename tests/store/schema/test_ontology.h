// A small ontology in the shape of the real one, for schema and engine tests: a class
// hierarchy with a domain index, single- and multi-valued properties of every value type,
// full-text and indexed properties.
#pragma once

#include <string>

namespace quarry::testing {

inline const std::string kTestPrefixes = R"(
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix nrl: <http://tracker.api.gnome.org/ontology/v3/nrl#> .
@prefix ex: <http://example.org/ex#> .
)";

inline const std::string kTestBase = kTestPrefixes + R"(
rdfs:Resource a rdfs:Class .
rdfs:Class a rdfs:Class ; rdfs:subClassOf rdfs:Resource .
rdf:Property a rdfs:Class ; rdfs:subClassOf rdfs:Resource .
rdfs:Literal a rdfs:Class ; rdfs:subClassOf rdfs:Resource .
rdf:type a rdf:Property ; rdfs:domain rdfs:Resource ; rdfs:range rdfs:Class .
rdfs:label a rdf:Property ; rdfs:domain rdfs:Resource ; rdfs:range xsd:string ; nrl:maxCardinality 1 .
)";

inline const std::string kTestDomain = kTestPrefixes + R"(
ex:Element a rdfs:Class ; rdfs:subClassOf rdfs:Resource .
ex:Media a rdfs:Class ; rdfs:subClassOf ex:Element .
ex:Song a rdfs:Class ; rdfs:subClassOf ex:Media ; nrl:notify true ; nrl:domainIndex ex:title .
ex:Artist a rdfs:Class ; rdfs:subClassOf rdfs:Resource .
ex:title a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:string ;
  nrl:maxCardinality 1 ; nrl:fulltextIndexed true .
ex:content a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:string ;
  nrl:maxCardinality 1 ; nrl:fulltextIndexed true .
ex:keyword a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:string ; nrl:fulltextIndexed true .
ex:created a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:dateTime ; nrl:maxCardinality 1 .
ex:size a rdf:Property ; rdfs:domain ex:Element ; rdfs:range xsd:integer ; nrl:maxCardinality 1 ; nrl:indexed true .
ex:rating a rdf:Property ; rdfs:domain ex:Media ; rdfs:range xsd:double ; nrl:maxCardinality 1 .
ex:favourite a rdf:Property ; rdfs:domain ex:Media ; rdfs:range xsd:boolean ; nrl:maxCardinality 1 .
ex:released a rdf:Property ; rdfs:domain ex:Media ; rdfs:range xsd:date ; nrl:maxCardinality 1 .
ex:track a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:integer ; nrl:maxCardinality 1 .
ex:performer a rdf:Property ; rdfs:domain ex:Song ; rdfs:range ex:Artist ; nrl:maxCardinality 1 ; nrl:indexed true .
ex:genre a rdf:Property ; rdfs:domain ex:Song ; rdfs:range xsd:string .
ex:name a rdf:Property ; rdfs:domain ex:Artist ; rdfs:range xsd:string ; nrl:maxCardinality 1 ; nrl:fulltextIndexed true .
ex:member a rdf:Property ; rdfs:domain ex:Artist ; rdfs:range ex:Artist .
)";

}  // namespace quarry::testing
