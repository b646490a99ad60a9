#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::ontology {
namespace {

constexpr std::string_view kEx = "http://example.org/ex#";

std::string Ex(std::string_view local) { return std::string(kEx) + std::string(local); }

SourceLocation At(int line) { return SourceLocation{"draft.ontology", line, 1}; }

Class MakeClass(std::string_view local, std::vector<std::string> supers, int line) {
  Class cls;
  cls.iri = Ex(local);
  cls.super_classes = std::move(supers);
  cls.location = At(line);
  return cls;
}

Property MakeProperty(std::string_view local, std::string domain, std::string range, int line,
                      std::optional<int> max_cardinality = 1) {
  Property property;
  property.iri = Ex(local);
  property.domain = std::move(domain);
  property.range = std::move(range);
  property.max_cardinality = max_cardinality;
  property.location = At(line);
  return property;
}

// A diamond under rdfs:Resource: D is a B and a C, both of which are an A.
Ontology::Draft DiamondDraft() {
  Ontology::Draft draft;
  draft.prefixes = {
      {"ex", std::string(kEx)}, {"rdfs", std::string(iri::kRdfs)}, {"xsd", std::string(iri::kXsd)}};
  Class resource;
  resource.iri = iri::kRdfsResource;
  resource.location = At(1);
  draft.classes = {resource, MakeClass("A", {}, 2), MakeClass("B", {Ex("A")}, 3),
                   MakeClass("C", {Ex("A")}, 4), MakeClass("D", {Ex("B"), Ex("C")}, 5)};
  draft.properties = {MakeProperty("name", Ex("A"), std::string(iri::kXsd) + "string", 6),
                      MakeProperty("link", Ex("B"), Ex("C"), 7, std::nullopt)};
  return draft;
}

size_t IndexOf(const std::vector<std::string>& list, const std::string& value) {
  return static_cast<size_t>(std::find(list.begin(), list.end(), value) - list.begin());
}

TEST_CASE("Build: super class closure is reflexive, transitive and ordered sub-first") {
  const auto ontology = Ontology::Build(DiamondDraft());
  REQUIRE(ontology.ok());
  const std::vector<std::string>& supers = (*ontology)->SuperClassesOf(Ex("D"));
  REQUIRE(supers.size() == 5);
  CHECK(supers.front() == Ex("D"));
  CHECK(supers.back() == iri::kRdfsResource);
  CHECK(IndexOf(supers, Ex("B")) < IndexOf(supers, Ex("A")));
  CHECK(IndexOf(supers, Ex("C")) < IndexOf(supers, Ex("A")));
  CHECK((*ontology)->SuperClassesOf(Ex("A")) ==
        std::vector<std::string>{Ex("A"), std::string(iri::kRdfsResource)});
  CHECK((*ontology)->SuperClassesOf(std::string(iri::kRdfsResource)) ==
        std::vector<std::string>{std::string(iri::kRdfsResource)});
  CHECK((*ontology)->SuperClassesOf(Ex("Nope")).empty());
}

TEST_CASE("Build: sub class closure and IsSubClassOf") {
  const auto ontology = Ontology::Build(DiamondDraft());
  REQUIRE(ontology.ok());
  const Ontology& model = **ontology;
  CHECK(model.SubClassesOf(Ex("A")) ==
        std::vector<std::string>{Ex("A"), Ex("B"), Ex("C"), Ex("D")});
  CHECK(model.SubClassesOf(Ex("D")) == std::vector<std::string>{Ex("D")});
  CHECK(model.SubClassesOf(std::string(iri::kRdfsResource)).size() == 5);
  CHECK(model.IsSubClassOf(Ex("D"), Ex("A")));
  CHECK(model.IsSubClassOf(Ex("D"), Ex("D")));
  CHECK(model.IsSubClassOf(Ex("B"), iri::kRdfsResource));
  CHECK_FALSE(model.IsSubClassOf(Ex("B"), Ex("C")));
  CHECK_FALSE(model.IsSubClassOf(Ex("A"), Ex("D")));
  // The implied rdfs:Resource is not written into the direct super classes.
  CHECK(model.FindClass(Ex("A"))->super_classes.empty());
}

TEST_CASE("Build: without rdfs:Resource nothing is implied") {
  Ontology::Draft draft;
  draft.prefixes = {{"ex", std::string(kEx)}};
  draft.classes = {MakeClass("A", {}, 1), MakeClass("B", {Ex("A")}, 2)};
  const auto ontology = Ontology::Build(std::move(draft));
  REQUIRE(ontology.ok());
  CHECK((*ontology)->SuperClassesOf(Ex("B")) == std::vector<std::string>{Ex("B"), Ex("A")});
}

TEST_CASE("Build: names, types and lookups") {
  const auto ontology = Ontology::Build(DiamondDraft());
  REQUIRE(ontology.ok());
  const Ontology& model = **ontology;
  CHECK(model.FindClass(Ex("D"))->name == "ex:D");
  CHECK(model.FindClass(iri::kRdfsResource)->name == "rdfs:Resource");
  const Property* name = model.FindPropertyByName("ex:name");
  REQUIRE(name != nullptr);
  CHECK(name->type == ValueType::kString);
  CHECK_FALSE(name->multi_valued());
  const Property* link = model.FindPropertyByName(Ex("link"));
  REQUIRE(link != nullptr);
  CHECK(link->type == ValueType::kResource);
  CHECK(link->multi_valued());
  CHECK(model.FindClassByName("ex:B") == model.FindClass(Ex("B")));
  CHECK(model.FindClassByName("ex:name") == nullptr);
  CHECK(model.FindPropertyByName("nope:name") == nullptr);
  const std::vector<const Property*> of_b = model.PropertiesOfDomain(Ex("B"));
  REQUIRE(of_b.size() == 1);
  CHECK(of_b[0]->name == "ex:link");
  CHECK(model.PropertiesOfDomain(Ex("D")).empty());
}

TEST_CASE("Compact and Expand use the longest namespace") {
  Ontology::Draft draft;
  draft.prefixes = {{"ex", "http://example.org/"}, {"deep", "http://example.org/deep#"}};
  const auto ontology = Ontology::Build(std::move(draft));
  REQUIRE(ontology.ok());
  const Ontology& model = **ontology;
  CHECK(model.Compact("http://example.org/deep#x") == "deep:x");
  CHECK(model.Compact("http://example.org/y") == "ex:y");
  // No plain local name, no prefix: the full IRI is the name.
  CHECK(model.Compact("http://example.org/a/b") == "http://example.org/a/b");
  CHECK(model.Compact("http://example.org/") == "http://example.org/");
  CHECK(model.Compact("urn:other") == "urn:other");
  CHECK(model.Expand("deep:x") == "http://example.org/deep#x");
  CHECK(model.Expand("ex:") == "http://example.org/");
  CHECK(model.Expand("nope:x") == std::nullopt);
  CHECK(model.Expand("plain") == std::nullopt);
}

TEST_CASE("DatatypeValueType maps XSD and RDF datatypes") {
  const std::string xsd(iri::kXsd);
  CHECK(DatatypeValueType(xsd + "string") == ValueType::kString);
  CHECK(DatatypeValueType(std::string(iri::kRdfs) + "Literal") == ValueType::kString);
  CHECK(DatatypeValueType(std::string(iri::kRdf) + "langString") == ValueType::kLangString);
  CHECK(DatatypeValueType(xsd + "int") == ValueType::kInteger);
  CHECK(DatatypeValueType(xsd + "unsignedByte") == ValueType::kInteger);
  CHECK(DatatypeValueType(xsd + "float") == ValueType::kDouble);
  CHECK(DatatypeValueType(xsd + "decimal") == ValueType::kDouble);
  CHECK(DatatypeValueType(xsd + "boolean") == ValueType::kBoolean);
  CHECK(DatatypeValueType(xsd + "dateTime") == ValueType::kDateTime);
  CHECK(DatatypeValueType(xsd + "date") == ValueType::kDate);
  CHECK(DatatypeValueType(xsd + "duration") == std::nullopt);
  CHECK(ValueTypeName(ValueType::kLangString) == "langString");
}

std::string BuildError(Ontology::Draft draft) {
  const auto ontology = Ontology::Build(std::move(draft));
  REQUIRE_FALSE(ontology.ok());
  CHECK(ontology.error().code() == Errc::kOntology);
  return ontology.error().message();
}

TEST_CASE("Build: errors a hand-made draft can contain") {
  Ontology::Draft draft = DiamondDraft();
  SUBCASE("a class twice") {
    draft.classes.push_back(MakeClass("B", {}, 9));
    CHECK(BuildError(draft) ==
          "draft.ontology:9:1: class ex:B: defined twice (first at "
          "draft.ontology:3:1)");
  }
  SUBCASE("a property twice") {
    draft.properties.push_back(MakeProperty("name", Ex("A"), Ex("A"), 9));
    CHECK(BuildError(draft) ==
          "draft.ontology:9:1: property ex:name: defined twice (first at "
          "draft.ontology:6:1)");
  }
  SUBCASE("a class that is also a property") {
    draft.properties.push_back(MakeProperty("C", Ex("A"), Ex("A"), 9));
    CHECK(BuildError(draft) ==
          "draft.ontology:9:1: property ex:C: is also defined as a class "
          "(at draft.ontology:4:1)");
  }
  SUBCASE("a cardinality below one") {
    draft.properties[0].max_cardinality = 0;
    CHECK(BuildError(draft) ==
          "draft.ontology:6:1: property ex:name: nrl:maxCardinality must "
          "be a positive integer, not 0");
  }
  SUBCASE("a property that is its own super property") {
    draft.properties[0].super_properties = {Ex("name")};
    CHECK(BuildError(draft) == "draft.ontology:6:1: property ex:name: rdfs:subPropertyOf itself");
  }
  SUBCASE("a class that is its own super class") {
    draft.classes[1].super_classes = {Ex("A")};
    CHECK(BuildError(draft) ==
          "draft.ontology:2:1: class ex:A: rdfs:subClassOf cycle ex:A -> "
          "ex:A");
  }
  SUBCASE("rdfs:Resource under another class closes a cycle through the implied edge") {
    draft.classes[0].super_classes = {Ex("A")};
    CHECK(BuildError(draft) ==
          "draft.ontology:1:1: class rdfs:Resource: rdfs:subClassOf cycle "
          "rdfs:Resource -> ex:A -> rdfs:Resource");
  }
}

}  // namespace
}  // namespace quarry::ontology
