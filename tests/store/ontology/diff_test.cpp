#include "store/ontology/diff.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/store/ontology/ontology_test_util.h"

namespace quarry::ontology {
namespace {

const std::string kEx = "http://example.org/ex#";
const std::string kXsd(iri::kXsd);

std::shared_ptr<const Ontology> Load(std::string_view body) {
  const auto ontology = testing::LoadWithBase(body);
  if (!ontology) FAIL(ontology.error().ToString());
  return *ontology;
}

constexpr std::string_view kBefore =
    "ex:Doc a rdfs:Class ; rdfs:subClassOf ex:Thing ; nrl:domainIndex ex:name .\n"
    "ex:Old a rdfs:Class .\n"
    "ex:size a rdf:Property ; rdfs:domain ex:Doc ; rdfs:range xsd:string ;\n"
    "  nrl:maxCardinality 1 ; nrl:indexed true .\n"
    "ex:gone a rdf:Property ; rdfs:domain ex:Doc ; rdfs:range xsd:string .\n"
    "ex:text a rdf:Property ; rdfs:domain ex:Doc ; rdfs:range xsd:string ;\n"
    "  nrl:fulltextIndexed true ; rdfs:comment \"changes nothing\" .\n";

constexpr std::string_view kAfter =
    "ex:Doc a rdfs:Class ; rdfs:subClassOf ex:Sub ; nrl:notify true .\n"
    "ex:Sub nrl:domainIndex ex:name .\n"
    "ex:New a rdfs:Class .\n"
    "ex:size a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:integer ;\n"
    "  nrl:writeback true .\n"
    "ex:text a rdf:Property ; rdfs:domain ex:Doc ; rdfs:range xsd:string ;\n"
    "  nrl:indexed true ; rdfs:subPropertyOf ex:name .\n"
    "ex:fresh a rdf:Property ; rdfs:domain ex:Doc ; rdfs:range xsd:string .\n";

TEST_CASE("Diff: identical ontologies give an empty diff") {
  const auto ontology = Load(kBefore);
  const OntologyDiff diff = DiffOntologies(*ontology, *Load(kBefore));
  CHECK(diff.empty());
  CHECK(diff.ToString().empty());
}

TEST_CASE("Diff: added and removed definitions") {
  const OntologyDiff diff = DiffOntologies(*Load(kBefore), *Load(kAfter));
  CHECK(diff.added_classes == std::vector<DefinitionRef>{{kEx + "New", "ex:New"}});
  CHECK(diff.removed_classes == std::vector<DefinitionRef>{{kEx + "Old", "ex:Old"}});
  CHECK(diff.added_properties == std::vector<DefinitionRef>{{kEx + "fresh", "ex:fresh"}});
  CHECK(diff.removed_properties == std::vector<DefinitionRef>{{kEx + "gone", "ex:gone"}});
}

TEST_CASE("Diff: class changes") {
  const OntologyDiff diff = DiffOntologies(*Load(kBefore), *Load(kAfter));
  REQUIRE(diff.changed_classes.size() == 2);
  const ClassDiff& doc = diff.changed_classes[0];
  CHECK(doc.name == "ex:Doc");
  CHECK(doc.domain_indexes_added.empty());
  CHECK(doc.domain_indexes_removed == std::vector<std::string>{kEx + "name"});
  REQUIRE(doc.super_classes.has_value());
  CHECK(doc.super_classes->before == std::vector<std::string>{kEx + "Thing"});
  CHECK(doc.super_classes->after == std::vector<std::string>{kEx + "Sub"});
  CHECK(doc.notify == Change<bool>{false, true});
  const ClassDiff& sub = diff.changed_classes[1];
  CHECK(sub.name == "ex:Sub");
  CHECK(sub.domain_indexes_added == std::vector<std::string>{kEx + "name"});
  CHECK_FALSE(sub.super_classes.has_value());
  CHECK_FALSE(sub.notify.has_value());
}

TEST_CASE("Diff: property changes") {
  const OntologyDiff diff = DiffOntologies(*Load(kBefore), *Load(kAfter));
  REQUIRE(diff.changed_properties.size() == 2);
  const PropertyDiff& size = diff.changed_properties[0];
  CHECK(size.name == "ex:size");
  CHECK(size.domain == Change<std::string>{kEx + "Doc", kEx + "Thing"});
  CHECK(size.range == Change<std::string>{kXsd + "string", kXsd + "integer"});
  CHECK(size.type == Change<ValueType>{ValueType::kString, ValueType::kInteger});
  CHECK(size.max_cardinality == Change<std::optional<int>>{1, std::nullopt});
  CHECK(size.storage_changed());
  CHECK(size.indexed == Change<bool>{true, false});
  CHECK(size.writeback == Change<bool>{false, true});
  CHECK_FALSE(size.fulltext.has_value());
  CHECK_FALSE(size.super_properties.has_value());
  const PropertyDiff& text = diff.changed_properties[1];
  CHECK(text.name == "ex:text");
  CHECK(text.indexed == Change<bool>{false, true});
  CHECK(text.fulltext == Change<bool>{true, false});
  REQUIRE(text.super_properties.has_value());
  CHECK(text.super_properties->after == std::vector<std::string>{kEx + "name"});
  CHECK_FALSE(text.domain.has_value());
  CHECK_FALSE(text.max_cardinality.has_value());
  CHECK_FALSE(text.storage_changed());
}

TEST_CASE("Diff: a cardinality change within multi-valued keeps the storage") {
  const OntologyDiff diff =
      DiffOntologies(*Load("ex:n a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:int ; "
                           "nrl:maxCardinality 2 .\n"),
                     *Load("ex:n a rdf:Property ; rdfs:domain ex:Thing ; rdfs:range xsd:int .\n"));
  REQUIRE(diff.changed_properties.size() == 1);
  CHECK(diff.changed_properties[0].max_cardinality.has_value());
  CHECK_FALSE(diff.changed_properties[0].storage_changed());
}

TEST_CASE("Diff: ToString lists one change per line") {
  const OntologyDiff diff = DiffOntologies(*Load(kBefore), *Load(kAfter));
  CHECK(diff.ToString() ==
        "class added: ex:New\n"
        "class removed: ex:Old\n"
        "property added: ex:fresh\n"
        "property removed: ex:gone\n"
        "class ex:Doc: domain index ex:name removed\n"
        "class ex:Doc: super classes ex:Thing -> ex:Sub\n"
        "class ex:Doc: notify added\n"
        "class ex:Sub: domain index ex:name added\n"
        "property ex:size: domain ex:Doc -> ex:Thing\n"
        "property ex:size: range xsd:string -> xsd:integer\n"
        "property ex:size: type string -> integer\n"
        "property ex:size: maxCardinality 1 -> unbounded\n"
        "property ex:size: indexed removed\n"
        "property ex:size: writeback added\n"
        "property ex:text: indexed added\n"
        "property ex:text: fulltextIndexed removed\n"
        "property ex:text: super properties (none) -> ex:name\n");
}

}  // namespace
}  // namespace quarry::ontology
