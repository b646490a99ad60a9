// The shipped ontology (ontology/*.ontology) loads and says what the rest of Quarry relies on.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "store/ontology/diff.h"
#include "store/ontology/loader.h"

namespace quarry::ontology {
namespace {

std::shared_ptr<const Ontology> LoadShipped() {
  // No skipping when the directory is empty or missing: that is a failure too.
  const auto ontology = LoadOntologyDir(QUARRY_SOURCE_ONTOLOGY_DIR);
  if (!ontology) FAIL(ontology.error().ToString());
  return *ontology;
}

const Class& ClassNamed(const Ontology& ontology, std::string_view name) {
  const Class* cls = ontology.FindClassByName(name);
  if (!cls) FAIL("no class " << name);
  return *cls;
}

const Property& PropertyNamed(const Ontology& ontology, std::string_view name) {
  const Property* property = ontology.FindPropertyByName(name);
  if (!property) FAIL("no property " << name);
  return *property;
}

bool HasDomainIndex(const Ontology& ontology, std::string_view cls, std::string_view property) {
  const std::vector<std::string>& indexes = ClassNamed(ontology, cls).domain_indexes;
  const std::string& iri = PropertyNamed(ontology, property).iri;
  return std::find(indexes.begin(), indexes.end(), iri) != indexes.end();
}

TEST_CASE("Shipped ontology: every namespace of DESIGN.md, with Tracker 3's IRIs") {
  const auto ontology = LoadShipped();
  for (const char* prefix : {"nie", "nfo", "nmm", "nco", "nmo", "nao", "mfo", "slo", "tracker",
                             "nrl", "rdf", "rdfs", "xsd", "dc"}) {
    CAPTURE(prefix);
    CHECK(ontology->prefixes().contains(prefix));
  }
  CHECK(ontology->prefixes().at("nie") == "http://tracker.api.gnome.org/ontology/v3/nie#");
  CHECK(ontology->prefixes().at("nrl") == iri::kNrl);
  CHECK(ontology->prefixes().at("tracker") == iri::kTracker);
  CHECK(ontology->classes().size() > 100);
  CHECK(ontology->properties().size() > 300);
}

TEST_CASE("Shipped ontology: the RDF core") {
  const auto ontology = LoadShipped();
  const Property& type = PropertyNamed(*ontology, "rdf:type");
  CHECK(type.domain == iri::kRdfsResource);
  CHECK(type.range == iri::kRdfsClass);
  CHECK(type.multi_valued());
  // Datatypes are not classes, so they get no table.
  CHECK(ontology->FindClassByName("xsd:string") == nullptr);
  for (const Class& cls : ontology->classes()) {
    CAPTURE(cls.name);
    CHECK(ontology->IsSubClassOf(cls.iri, iri::kRdfsResource));
    CHECK(cls.name.find("://") == std::string::npos);
    CHECK(cls.location.file.ends_with(".ontology"));
    CHECK(cls.location.line > 0);
  }
  for (const Property& property : ontology->properties()) {
    CAPTURE(property.name);
    CHECK(property.name.find("://") == std::string::npos);
    CHECK(ontology->FindClass(property.domain) != nullptr);
  }
}

TEST_CASE("Shipped ontology: the facts the schema, the compiler and the miners rely on") {
  const auto ontology = LoadShipped();
  const Ontology& model = *ontology;
  CHECK(model.IsSubClassOf(ClassNamed(model, "nmm:MusicPiece").iri,
                           ClassNamed(model, "nie:InformationElement").iri));
  CHECK(model.IsSubClassOf(ClassNamed(model, "nfo:FileDataObject").iri,
                           ClassNamed(model, "nie:DataObject").iri));
  CHECK(ClassNamed(model, "nfo:FileDataObject").notify);
  CHECK(ClassNamed(model, "nmm:MusicPiece").notify);

  CHECK(HasDomainIndex(model, "nmm:MusicPiece", "nie:title"));
  CHECK(HasDomainIndex(model, "nmm:MusicAlbum", "nie:title"));
  CHECK(HasDomainIndex(model, "nfo:Visual", "nie:contentCreated"));
  CHECK(HasDomainIndex(model, "nmo:Message", "nie:contentCreated"));

  const Property& title = PropertyNamed(model, "nie:title");
  CHECK_FALSE(title.multi_valued());
  CHECK(title.type == ValueType::kString);
  CHECK(title.fulltext);
  CHECK(title.writeback);
  CHECK(title.super_properties == std::vector<std::string>{PropertyNamed(model, "dc:title").iri});

  const Property& container = PropertyNamed(model, "nfo:belongsToContainer");
  CHECK(container.indexed);
  CHECK_FALSE(container.multi_valued());
  CHECK(container.type == ValueType::kResource);
  CHECK(PropertyNamed(model, "nie:url").indexed);
  CHECK(PropertyNamed(model, "nfo:fileName").indexed);
  CHECK(PropertyNamed(model, "nie:plainTextContent").fulltext);
  CHECK(PropertyNamed(model, "nao:hasTag").multi_valued());
  CHECK(PropertyNamed(model, "nfo:fileLastModified").type == ValueType::kDateTime);
  CHECK(model.Compact(title.iri) == "nie:title");
}

TEST_CASE("Shipped ontology: reloading from the stored texts gives no diff") {
  const auto files = ReadOntologyDir(QUARRY_SOURCE_ONTOLOGY_DIR);
  REQUIRE(files.ok());
  const auto from_texts = LoadOntologyTexts(*files);
  REQUIRE(from_texts.ok());
  const OntologyDiff diff = DiffOntologies(*LoadShipped(), **from_texts);
  CHECK(diff.empty());
  CHECK(diff.ToString() == "");
}

}  // namespace
}  // namespace quarry::ontology
