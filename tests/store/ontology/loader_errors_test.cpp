// Every way an ontology file can be wrong, each with the exact file:line:column it must name.
// Test bodies go into "20-test.ontology" after a one-line prefix header, so body line N is
// file line N + 1.
#include <doctest/doctest.h>

#include <string>

#include "tests/store/ontology/ontology_test_util.h"

namespace quarry::ontology {
namespace {

using testing::LoadError;

constexpr std::string_view kPropertyHead =
    "ex:p a rdf:Property ;\n"
    "  rdfs:domain ex:Thing ;\n"
    "  rdfs:range xsd:string ;\n";  // the next body line is file line 5

TEST_CASE("Syntax errors keep serd's message at the exact position") {
  SUBCASE("a missing dot") {
    CHECK(LoadError("ex:A a rdfs:Class\n"
                    "ex:B a rdfs:Class .\n") == "20-test.ontology:3:1: missing ';' or '.'");
  }
  SUBCASE("a string that runs into the line end") {
    CHECK(LoadError("ex:A a rdfs:Class ;\n"
                    "  rdfs:comment \"abc\n") == "20-test.ontology:3:20: line end in short string");
  }
  SUBCASE("a statement cut off by the end of the file") {
    CHECK(LoadError("ex:A a rdfs:Class") == "20-test.ontology:2:18: unexpected end of file");
  }
  SUBCASE("an error in the first file") {
    const auto loaded = LoadOntologyTexts({{"10-bad.ontology", "@prefix ex <x> .\n"}});
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.error().code() == Errc::kOntology);
    CHECK(loaded.error().message().starts_with("10-bad.ontology:1:11: "));
  }
}

TEST_CASE("Undefined prefixes point at the name that uses them") {
  CHECK(LoadError("foo:A a rdfs:Class .\n") ==
        "20-test.ontology:2:1: undefined prefix \"foo\" in foo:A");
  CHECK(LoadError("ex:A a rdfs:Class ;\n"
                  "\tfoo:p ex:B .\n") == "20-test.ontology:3:2: undefined prefix \"foo\" in foo:p");
  CHECK(LoadError("ex:A a rdfs:Class ;\n"
                  "  rdfs:subClassOf foo:B .\n") ==
        "20-test.ontology:3:19: undefined prefix \"foo\" in foo:B");
  CHECK(LoadError("ex:A a rdfs:Class ;\n"
                  "  rdfs:subClassOf ex:Thing, foo:B .\n") ==
        "20-test.ontology:3:29: undefined prefix \"foo\" in foo:B");
  CHECK(LoadError("ex:A rdfs:comment \"x\"^^foo:T .\n") ==
        "20-test.ontology:2:19: undefined prefix \"foo\" in foo:T");
  // Inside and after a nested blank node, in an individual the loader would otherwise ignore.
  CHECK(LoadError("ex:x ex:p [ ex:q foo:r ] .\n") ==
        "20-test.ontology:2:18: undefined prefix \"foo\" in foo:r");
  CHECK(LoadError("ex:x ex:p [ ex:q ex:r ] ; ex:s foo:t .\n") ==
        "20-test.ontology:2:32: undefined prefix \"foo\" in foo:t");
  // Comments and blank lines between the statements do not shift positions.
  CHECK(LoadError("# ex:A foo:B\n"
                  "ex:A a rdfs:Class ; # trailing\n"
                  "\n"
                  "  # own line \"quoted\n"
                  "  rdfs:subClassOf foo:B .\n") ==
        "20-test.ontology:6:19: undefined prefix \"foo\" in foo:B");
}

TEST_CASE("Relative IRIs and blank nodes cannot name definitions") {
  CHECK(LoadError("<A> a rdfs:Class .\n") ==
        "20-test.ontology:2:1: relative IRI <A> without a @base");
  CHECK(LoadError("ex:x ex:p 1 .\n"
                  "[] a rdfs:Class .\n") ==
        "20-test.ontology:3:1: a class must be named by an IRI, not a blank node");
  CHECK(LoadError("ex:x ex:p [ a rdf:Property ] .\n") ==
        "20-test.ontology:2:11: a property must be named by an IRI, not a blank node");
}

TEST_CASE("A definition is a class or a property, never both") {
  CHECK(LoadError("ex:A a rdfs:Class .\n"
                  "ex:A a rdf:Property .\n") ==
        "20-test.ontology:3:1: ex:A is typed both rdfs:Class and rdf:Property (first at "
        "20-test.ontology:2:1)");
}

TEST_CASE("Property domain and range must be given and known") {
  CHECK(LoadError("ex:p a rdf:Property ;\n"
                  "  rdfs:domain ex:Nope ;\n"
                  "  rdfs:range xsd:string .\n") ==
        "20-test.ontology:2:1: property ex:p: unknown domain class ex:Nope");
  CHECK(LoadError("ex:p a rdf:Property ;\n"
                  "  rdfs:domain ex:Thing ;\n"
                  "  rdfs:range ex:Nope .\n") ==
        "20-test.ontology:2:1: property ex:p: unknown range ex:Nope (neither a class nor a "
        "datatype)");
  CHECK(LoadError("ex:p a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:duration .\n") ==
        "20-test.ontology:2:1: property ex:p: unknown range xsd:duration (neither a class nor "
        "a datatype)");
  CHECK(LoadError("ex:p a rdf:Property ; rdfs:range xsd:string .\n") ==
        "20-test.ontology:2:1: property ex:p: missing rdfs:domain");
  CHECK(LoadError("\n  ex:p a rdf:Property ; rdfs:domain ex:Thing .\n") ==
        "20-test.ontology:3:3: property ex:p: missing rdfs:range");
}

TEST_CASE("Annotation values must have the right form") {
  const std::string head(kPropertyHead);
  CHECK(LoadError(head + "  nrl:maxCardinality 0 .\n") ==
        "20-test.ontology:5:22: property ex:p: nrl:maxCardinality needs a positive integer, "
        "not \"0\"");
  CHECK(LoadError(head + "  nrl:maxCardinality -1 .\n") ==
        "20-test.ontology:5:22: property ex:p: nrl:maxCardinality needs a positive integer, "
        "not \"-1\"");
  CHECK(LoadError(head + "  nrl:maxCardinality \"many\" .\n") ==
        "20-test.ontology:5:22: property ex:p: nrl:maxCardinality needs a positive integer, "
        "not \"many\"");
  CHECK(LoadError(head + "  nrl:maxCardinality ex:Thing .\n") ==
        "20-test.ontology:5:22: property ex:p: nrl:maxCardinality needs a positive integer, "
        "not ex:Thing");
  CHECK(LoadError(head + "  nrl:indexed \"yes\" .\n") ==
        "20-test.ontology:5:15: property ex:p: nrl:indexed needs true or false, not \"yes\"");
  CHECK(LoadError(head + "  nrl:fulltextIndexed 1 .\n") ==
        "20-test.ontology:5:23: property ex:p: nrl:fulltextIndexed needs true or false, not "
        "\"1\"");
  CHECK(LoadError("ex:Thing rdfs:label \"héllo wörld\" ; nrl:notify \"x\" .\n") ==
        "20-test.ontology:2:48: class ex:Thing: nrl:notify needs true or false, not \"x\"");
  CHECK(LoadError("ex:Thing rdfs:comment \"\"\"line one\n"
                  "line two\"\"\" ;\n"
                  "  nrl:notify 5 .\n") ==
        "20-test.ontology:4:14: class ex:Thing: nrl:notify needs true or false, not \"5\"");
  CHECK(LoadError("ex:Thing rdfs:comment ex:Sub .\n") ==
        "20-test.ontology:2:23: class ex:Thing: rdfs:comment needs a literal");
  CHECK(LoadError("ex:A a rdfs:Class ; rdfs:comment ex:B.\n") ==
        "20-test.ontology:2:34: class ex:A: rdfs:comment needs a literal");
}

TEST_CASE("IRI-valued annotations refuse literals and blank nodes") {
  CHECK(LoadError("ex:p a rdf:Property ;\n"
                  "  rdfs:domain \"ex:Thing\" ;\n"
                  "  rdfs:range xsd:string .\n") ==
        "20-test.ontology:3:15: property ex:p: rdfs:domain needs an IRI, not the literal "
        "\"ex:Thing\"");
  CHECK(LoadError("ex:p a rdf:Property ;\n"
                  "  rdfs:domain [ a ex:Thing ] ;\n"
                  "  rdfs:range xsd:string .\n") ==
        "20-test.ontology:3:15: property ex:p: rdfs:domain needs an IRI, not a blank node");
  CHECK(LoadError("ex:A a rdfs:Class ;\n"
                  "  rdfs:subClassOf ( ex:Thing ) .\n") ==
        "20-test.ontology:3:19: class ex:A: rdfs:subClassOf needs an IRI, not a blank node");
}

TEST_CASE("Conflicting facts name both places") {
  CHECK(LoadError(std::string(kPropertyHead) + "  rdfs:range xsd:integer .\n") ==
        "20-test.ontology:5:14: property ex:p: conflicting rdfs:range: xsd:integer here, but "
        "xsd:string at 20-test.ontology:4:14");
  CHECK(LoadError("ex:name rdfs:range xsd:integer .\n") ==
        "20-test.ontology:2:20: property ex:name: conflicting rdfs:range: xsd:integer here, but "
        "xsd:string at 10-base.ontology:5:60");
  CHECK(LoadError("ex:name nrl:maxCardinality 2 .\n") ==
        "20-test.ontology:2:28: property ex:name: conflicting nrl:maxCardinality: 2 here, but 1 "
        "at 10-base.ontology:5:92");
  CHECK(LoadError("ex:Thing nrl:notify true .\n"
                  "ex:Thing nrl:notify false .\n") ==
        "20-test.ontology:3:21: class ex:Thing: conflicting nrl:notify: false here, but true at "
        "20-test.ontology:2:21");
  const size_t ex_column = testing::kPrefixLine.find("@prefix ex:") + 1;
  CHECK(LoadError("@prefix ex: <http://example.org/other#> .\n") ==
        "20-test.ontology:2:1: prefix ex: bound to <http://example.org/other#>, but to "
        "<http://example.org/ex#> at 10-base.ontology:1:" +
            std::to_string(ex_column));
}

TEST_CASE("Class hierarchy errors") {
  CHECK(LoadError("ex:A a rdfs:Class ;\n"
                  "  rdfs:subClassOf ex:B .\n") ==
        "20-test.ontology:2:1: class ex:A: unknown super class ex:B");
  CHECK(LoadError("ex:A a rdfs:Class ; rdfs:subClassOf ex:B .\n"
                  "ex:B a rdfs:Class ; rdfs:subClassOf ex:C .\n"
                  "ex:C a rdfs:Class ; rdfs:subClassOf ex:B .\n") ==
        "20-test.ontology:3:1: class ex:B: rdfs:subClassOf cycle ex:B -> ex:C -> ex:B");
  CHECK(LoadError("ex:p a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:string ;\n"
                  "  rdfs:subPropertyOf ex:q .\n") ==
        "20-test.ontology:2:1: property ex:p: unknown super property ex:q");
}

TEST_CASE("Domain index errors") {
  CHECK(LoadError("ex:A a rdfs:Class ; rdfs:subClassOf ex:Thing ;\n"
                  "  nrl:domainIndex ex:nope .\n") ==
        "20-test.ontology:2:1: class ex:A: nrl:domainIndex ex:nope: unknown property");
  CHECK(LoadError("ex:A a rdfs:Class ; rdfs:subClassOf ex:Thing ;\n"
                  "  nrl:domainIndex ex:tags .\n") ==
        "20-test.ontology:2:1: class ex:A: nrl:domainIndex ex:tags: property is not "
        "single-valued");
  CHECK(LoadError("ex:A a rdfs:Class ; nrl:domainIndex ex:name .\n") ==
        "20-test.ontology:2:1: class ex:A: nrl:domainIndex ex:name: its domain ex:Thing is not a "
        "strict super class of ex:A");
  // Errors found once the whole ontology is known name the definition, wherever the fact is.
  CHECK(LoadError("ex:Thing nrl:domainIndex ex:name .\n") ==
        "10-base.ontology:3:1: class ex:Thing: nrl:domainIndex ex:name: its domain ex:Thing is "
        "not a strict super class of ex:Thing");
  // ex:Sub is under ex:Thing, so it may mirror ex:name.
  CHECK(testing::LoadWithBase("ex:Sub nrl:domainIndex ex:name .\n").ok());
}

TEST_CASE("Annotations on the wrong kind of definition") {
  CHECK(LoadError("ex:name nrl:notify true .\n") ==
        "20-test.ontology:2:9: property ex:name: nrl:notify applies to classes, not properties");
  CHECK(LoadError("ex:Thing\n"
                  "  nrl:indexed true .\n") ==
        "20-test.ontology:3:3: class ex:Thing: nrl:indexed applies to properties, not classes");
}

}  // namespace
}  // namespace quarry::ontology
