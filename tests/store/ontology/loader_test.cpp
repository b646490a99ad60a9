#include "store/ontology/loader.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/store/ontology/ontology_test_util.h"

namespace quarry::ontology {
namespace {

using testing::LoadWithBase;
using testing::TestDataDir;

const std::string kTest = "http://example.org/test#";
const std::string kXsd(iri::kXsd);

std::filesystem::path BasicDir() { return TestDataDir() + "/ontologies/basic"; }

// A scratch directory, removed again when the test ends.
class TempDir {
 public:
  explicit TempDir(std::string_view tag)
      : path_(std::filesystem::temp_directory_path() /
              ("quarry-ontology-" + std::string(tag) + "-" + std::to_string(getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  void Write(std::string_view name, std::string_view text) const {
    std::ofstream(path_ / name) << text;
  }

 private:
  std::filesystem::path path_;
};

std::shared_ptr<const Ontology> LoadBasic() {
  const auto ontology = LoadOntologyDir(BasicDir());
  if (!ontology) FAIL(ontology.error().ToString());
  return *ontology;
}

TEST_CASE("LoadOntologyDir: classes, in definition order, with multiple inheritance") {
  const auto ontology = LoadBasic();
  std::vector<std::string> names;
  for (const Class& cls : ontology->classes()) names.push_back(cls.name);
  CHECK(names == std::vector<std::string>{"rdfs:Resource", "rdfs:Class", "rdf:Property",
                                          "test:Document", "test:Media", "test:Video",
                                          "test:Clip"});
  const Class* video = ontology->FindClassByName("test:Video");
  REQUIRE(video != nullptr);
  CHECK(video->super_classes == std::vector<std::string>{kTest + "Document", kTest + "Media"});
  CHECK(video->domain_indexes == std::vector<std::string>{kTest + "title", kTest + "duration"});
  CHECK_FALSE(video->notify);
  CHECK(ontology->FindClassByName("test:Document")->notify);
  CHECK(ontology->IsSubClassOf(kTest + "Clip", kTest + "Media"));
  CHECK(ontology->IsSubClassOf(kTest + "Clip", kTest + "Document"));
  CHECK(ontology->IsSubClassOf(kTest + "Media", iri::kRdfsResource));
  CHECK(ontology->SuperClassesOf(kTest + "Clip").size() == 5);
  CHECK(ontology->SubClassesOf(kTest + "Media") ==
        std::vector<std::string>{kTest + "Media", kTest + "Video", kTest + "Clip"});
}

TEST_CASE("LoadOntologyDir: property annotations and value types") {
  const auto ontology = LoadBasic();
  CHECK(ontology->properties().size() == 13);
  const Property* title = ontology->FindPropertyByName("test:title");
  REQUIRE(title != nullptr);
  CHECK(title->iri == kTest + "title");
  CHECK(title->domain == kTest + "Document");
  CHECK(title->range == kXsd + "string");
  CHECK(title->type == ValueType::kString);
  CHECK(title->max_cardinality == 1);
  CHECK(title->fulltext);
  CHECK(title->writeback);
  CHECK_FALSE(title->indexed);
  CHECK(title->super_properties == std::vector<std::string>{std::string(iri::kRdfs) + "label"});
  CHECK(title->comment == "The title.");

  const Property* tag = ontology->FindPropertyByName("test:tag");
  REQUIRE(tag != nullptr);
  CHECK(tag->type == ValueType::kResource);
  CHECK(tag->indexed);
  CHECK(tag->multi_valued());
  CHECK_FALSE(tag->max_cardinality.has_value());

  auto type_of = [&](std::string_view name) { return ontology->FindPropertyByName(name)->type; };
  CHECK(type_of("test:duration") == ValueType::kInteger);
  CHECK(type_of("test:rating") == ValueType::kDouble);
  CHECK(type_of("test:created") == ValueType::kDateTime);
  CHECK(type_of("test:day") == ValueType::kDate);
  CHECK(type_of("test:draft") == ValueType::kBoolean);
  CHECK(type_of("test:note") == ValueType::kLangString);
  CHECK(type_of("test:extra") == ValueType::kString);
  CHECK(type_of("test:pages") == ValueType::kInteger);
  CHECK(type_of("rdf:type") == ValueType::kResource);
  const Property* frames = ontology->FindPropertyByName("test:frames");
  CHECK(frames->max_cardinality == 3);
  CHECK(frames->multi_valued());
}

TEST_CASE("LoadOntologyDir: locations, comments and prefixes") {
  const auto ontology = LoadBasic();
  CHECK(ontology->FindClassByName("test:Video")->location.ToString() == "20-test.ontology:20:1");
  CHECK(ontology->FindPropertyByName("test:frames")->location.ToString() ==
        "20-test.ontology:54:1");
  CHECK(ontology->FindPropertyByName("rdf:type")->location.ToString() == "10-base.ontology:16:1");
  // A statement in a later block still reaches the definition.
  CHECK(ontology->FindClassByName("test:Media")->comment == "Something to watch or hear.");
  CHECK(ontology->FindClassByName("rdfs:Resource")->comment == "All things described by RDF.");
  CHECK(ontology->prefixes().at("test") == kTest);
  CHECK(ontology->prefixes().at("nrl") == iri::kNrl);
  CHECK(ontology->prefixes().size() == 5);
  CHECK(ontology->Compact(kTest + "Clip") == "test:Clip");
  CHECK(ontology->Expand("test:Clip") == kTest + "Clip");
  // The individual "test:" (an nrl:Namespace) is not a definition.
  CHECK(ontology->FindClass(kTest) == nullptr);
  CHECK(ontology->FindProperty(kTest) == nullptr);
}

TEST_CASE("LoadOntologyTexts: the same ontology from memory, in any order") {
  const auto files = ReadOntologyDir(BasicDir());
  REQUIRE(files.ok());
  REQUIRE(files->size() == 2);
  CHECK((*files)[0].name == "10-base.ontology");
  CHECK((*files)[1].name == "20-test.ontology");
  const std::vector<OntologyFile> reversed{(*files)[1], (*files)[0]};
  const auto ontology = LoadOntologyTexts(reversed);
  REQUIRE(ontology.ok());
  CHECK((*ontology)->classes().front().name == "rdfs:Resource");
  CHECK((*ontology)->classes().size() == LoadBasic()->classes().size());
  CHECK((*ontology)->FindClassByName("test:Video")->location.ToString() == "20-test.ontology:20:1");
}

TEST_CASE("LoadOntologyTexts: the same texts share one Ontology while it is alive, no longer") {
  const auto files = ReadOntologyDir(BasicDir());
  REQUIRE(files.ok());
  auto first = LoadOntologyTexts(*files);
  REQUIRE(first.ok());
  const std::vector<OntologyFile> reversed{(*files)[1], (*files)[0]};
  auto second = LoadOntologyTexts(reversed);
  REQUIRE(second.ok());
  CHECK(first->get() == second->get());  // one copy, whatever the order of the files
  // Another text (one character more) is another ontology.
  std::vector<OntologyFile> changed = *files;
  changed[1].text += "\n";
  auto third = LoadOntologyTexts(changed);
  REQUIRE(third.ok());
  CHECK(third->get() != first->get());
  // The cache holds no reference: once every holder let go, the ontology is freed.
  const std::weak_ptr<const Ontology> watched = *first;
  *first = nullptr;
  *second = nullptr;
  CHECK(watched.expired());
  auto again = LoadOntologyTexts(*files);
  REQUIRE(again.ok());
  CHECK((*again)->classes().size() == (*third)->classes().size());
}

TEST_CASE("LoadOntologyTexts: definitions may be spread over statements and files") {
  const auto ontology = LoadWithBase(
      "ex:Doc rdfs:subClassOf ex:Thing .\n"
      "ex:Doc a rdfs:Class ; rdfs:subClassOf ex:Thing ; nrl:notify true .\n"
      "ex:Doc nrl:notify true ; rdfs:subClassOf ex:Sub .\n"
      "ex:name nrl:indexed true .\n"
      "ex:Doc a rdfs:Class .\n");
  if (!ontology) FAIL(ontology.error().ToString());
  const Class* doc = (*ontology)->FindClassByName("ex:Doc");
  REQUIRE(doc != nullptr);
  // The definition is where the type is stated, not the first statement.
  CHECK(doc->location.ToString() == "20-test.ontology:3:1");
  CHECK(doc->super_classes ==
        std::vector<std::string>{"http://example.org/ex#Thing", "http://example.org/ex#Sub"});
  CHECK(doc->notify);
  CHECK((*ontology)->FindPropertyByName("ex:name")->indexed);
}

TEST_CASE("LoadOntologyTexts: full IRIs, @base and literals with datatypes") {
  const auto ontology = LoadWithBase(
      "@base <http://example.org/ex> .\n"
      "<#Doc> a rdfs:Class .\n"
      "<http://example.org/other#size> a rdf:Property ; rdfs:domain <#Doc> ;\n"
      "  rdfs:range <http://www.w3.org/2001/XMLSchema#int> ;\n"
      "  nrl:maxCardinality \"1\"^^xsd:integer ; nrl:indexed \"true\"^^xsd:boolean .\n");
  if (!ontology) FAIL(ontology.error().ToString());
  CHECK((*ontology)->FindClassByName("ex:Doc") != nullptr);
  const Property* size = (*ontology)->FindProperty("http://example.org/other#size");
  REQUIRE(size != nullptr);
  CHECK(size->name == "http://example.org/other#size");
  CHECK(size->domain == "http://example.org/ex#Doc");
  CHECK(size->max_cardinality == 1);
  CHECK(size->indexed);
}

TEST_CASE("ReadOntologyDir: only *.ontology files, sorted by name") {
  const TempDir dir("read");
  dir.Write("b.ontology", "# b\n");
  dir.Write("a.ontology", "# a\n");
  dir.Write("notes.txt", "not an ontology");
  const auto files = ReadOntologyDir(dir.path());
  REQUIRE(files.ok());
  REQUIRE(files->size() == 2);
  CHECK((*files)[0].name == "a.ontology");
  CHECK((*files)[0].text == "# a\n");
  CHECK((*files)[1].name == "b.ontology");
}

TEST_CASE("ReadOntologyDir: a missing or empty directory is an error") {
  const TempDir dir("empty");
  const auto empty = ReadOntologyDir(dir.path());
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().code() == Errc::kNotFound);
  const auto missing = ReadOntologyDir(dir.path() / "nope");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code() == Errc::kNotFound);
}

TEST_CASE("LoadOntologyDir: errors name the file and carry the directory as context") {
  const TempDir dir("broken");
  dir.Write("10-base.ontology", testing::BaseText());
  dir.Write("20-bad.ontology", std::string(testing::kPrefixLine) +
                                   "ex:A a rdfs:Class ;\n"
                                   "  rdfs:subClassOf ex:B .\n");
  const auto loaded = LoadOntologyDir(dir.path());
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().code() == Errc::kOntology);
  CHECK(loaded.error().message() == "20-bad.ontology:2:1: class ex:A: unknown super class ex:B");
  CHECK(loaded.error().ToString() ==
        "ontology " + dir.path().string() + ": " + loaded.error().message());
}

TEST_CASE("LoadOntologyTexts: empty and comment-only files define nothing") {
  const auto loaded = LoadOntologyTexts({{"a.ontology", ""}, {"b.ontology", "# nothing\n"}});
  REQUIRE(loaded.ok());
  CHECK((*loaded)->classes().empty());
  CHECK((*loaded)->properties().empty());
}

TEST_CASE("LoadOntologyTexts: the same file name twice is refused") {
  const auto loaded = LoadOntologyTexts({{"a.ontology", ""}, {"a.ontology", ""}});
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().code() == Errc::kInvalidArgument);
}

}  // namespace
}  // namespace quarry::ontology
