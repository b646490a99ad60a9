// The SPARQL update of extracted files loads into a real store with the project's ontology,
// and queries written for Tracker 3 find what was stored: the file/element links, one row per
// artist however many files name it, and re-extraction replaces instead of adding. Onto the
// miner's resource (quarry-extract) the update stores what the whole description would, and
// nothing at all once the miner deleted the file (issue 5).
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/service/extract_state.h"
#include "store/common/sparql_quote.h"
#include "store/engine/rdf_io/exporter.h"
#include "store/engine/store.h"
#include "tests/extract/extract_test_util.h"
#include "tests/store/engine/store_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

std::vector<std::string> Rows(engine::Store& store, const std::string& sparql) {
  return testing::RequireRows(store.Query(sparql), sparql, [](engine::Cursor& cursor, int i) {
    return std::string(cursor.GetString(i));
  });
}

class ExtractStore {
 public:
  ExtractStore() {
    auto opened = engine::Store::Open({dir_.path() / "db", engine::DefaultOntologyDir()});
    INFO((opened ? std::string() : opened.error().ToString()));
    REQUIRE(opened.ok());
    store_ = std::move(*opened);
  }
  engine::Store& store() { return *store_; }

  FileResult Load(const std::string& path) {
    auto result = ExtractFile(registry_, path, Limits{});
    INFO(path);
    REQUIRE(result.ok());
    const std::string update = ToSparqlUpdate(*result);
    const auto done = store_->Update(update);
    INFO((done ? std::string() : done.error().ToString()));
    REQUIRE(done.ok());
    return std::move(*result);
  }

 private:
  testing::TempDir dir_;
  Registry registry_ = BuiltinRegistry();
  std::unique_ptr<engine::Store> store_;
};

TEST_CASE("Extracted SPARQL loads and answers Tracker-style queries") {
  ExtractStore fixture;
  const auto audio = testing::Entries({"mp3", "flac", "ogg", "opus"});
  const auto pdfs = testing::Entries({"pdf"});
  std::set<std::string> artists;
  for (const auto& entry : audio) {
    fixture.Load(testing::CorpusPath(entry));
    artists.insert(entry["artist"].get<std::string>());
    artists.insert(entry["albumartist"].get<std::string>());
  }
  for (const auto& entry : pdfs) fixture.Load(testing::CorpusPath(entry));
  engine::Store& store = fixture.store();

  SUBCASE("all artists: one row each") {
    const auto rows = Rows(store, "SELECT ?name { ?a a nmm:Artist ; nmm:artistName ?name }");
    CHECK(rows.size() == artists.size());
    CHECK(std::set<std::string>(rows.begin(), rows.end()) == artists);
  }
  SUBCASE("songs through nie:isStoredAs, files through nie:interpretedAs") {
    const auto songs = Rows(store,
                            "SELECT ?url ?title { ?song a nmm:MusicPiece ; nie:title ?title ; "
                            "nie:isStoredAs ?file . ?file nie:url ?url }");
    CHECK(songs.size() == audio.size());
    const auto files = Rows(store,
                            "SELECT ?file { ?file a nfo:FileDataObject ; nie:interpretedAs ?ie . "
                            "?ie a nfo:PaginatedTextDocument }");
    CHECK(files.size() == pdfs.size());
  }
  SUBCASE("the text is searchable, every word of it") {
    for (const auto& entry : pdfs) {
      const auto rows = Rows(
          store, "SELECT ?ie { ?ie fts:match \"" + entry["needle"].get<std::string>() + "\" }");
      CHECK(rows.size() == 1);
    }
  }
  SUBCASE("re-extraction replaces the element's values") {
    fixture.Load(testing::CorpusPath(audio.front()));
    fixture.Load(testing::CorpusPath(pdfs.front()));
    CHECK(Rows(store, "SELECT ?s { ?s a nmm:MusicPiece }").size() == audio.size());
    const auto keywords =
        Rows(store, "SELECT ?k { ?ie nie:isStoredAs ?f ; nie:keyword ?k . ?f nie:url \"" +
                        FileUrl(testing::CorpusPath(pdfs.front())) + "\" }");
    CHECK(keywords.size() == pdfs.front()["keywords"].size());
  }
}

// The store as Turtle (the export: every triple), with the IRIs of `renamed` (<from> -> <to>)
// replaced, and its subject blocks sorted (the export orders them by IRI, before the renaming).
std::vector<std::string> Graph(engine::Store& store,
                               const std::map<std::string, std::string>& renamed = {}) {
  std::ostringstream out;
  const auto exported = engine::rdf_io::ExportRdf(store.database(), store.ontology(), {}, out);
  REQUIRE_MESSAGE(exported.ok(), exported.error().ToString());
  std::string text = out.str();
  for (const auto& [from, to] : renamed) {
    const std::string old_iri = "<" + from + ">";
    const std::string new_iri = "<" + to + ">";
    for (size_t at = text.find(old_iri); at != std::string::npos;
         at = text.find(old_iri, at + new_iri.size())) {
      text.replace(at, old_iri.size(), new_iri);
    }
  }
  std::vector<std::string> blocks;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find("\n<", start);
    end = end == std::string::npos ? text.size() : end + 1;
    blocks.push_back(text.substr(start, end - start));
    start = end;
  }
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

std::unique_ptr<engine::Store> OpenStore(const testing::TempDir& dir, const std::string& name) {
  auto opened = engine::Store::Open({dir.path() / name, engine::DefaultOntologyDir()});
  REQUIRE_MESSAGE(opened.ok(), opened.error().ToString());
  return std::move(*opened);
}

void Apply(engine::Store& store, const std::string& update) {
  const auto done = store.Update(update);
  REQUIRE_MESSAGE(done.ok(), done.error().ToString() << "\n" << update);
}

// What miner-fs writes for a file before it is extracted (sparql_updates.cpp InsertResource).
std::string MinerFacts(const std::string& iri, const FileResult& result) {
  return fmt::format(
      "INSERT DATA {{ <{}> a nfo:FileDataObject, nie:InformationElement ; nie:url {} ; "
      "nfo:fileName \"f\" ; nfo:fileLastModified \"2023-11-14T22:13:20Z\"^^xsd:dateTime ; "
      "nfo:fileSize 1 ; nie:mimeType {} }}",
      iri, SparqlString(result.file_url), SparqlString(result.mime_type));
}

constexpr int64_t kMtime = 1'700'000'000'000'000;

// quarry-extract's one update per file: the worker's, with the success state in the file's
// template, and the service's failure clearing after it (extractor_workers.cpp Finish).
std::string ServiceUpdate(FileResult result, bool clear_failure = false) {
  result.file_state = service::SuccessState(kMtime);
  std::string update = ToSparqlUpdate(result);
  if (clear_failure) service::AppendClearFailure(update, FileIri(result));
  return update;
}

// The same as before s24: the state as an operation of its own after the core's update, and
// the failure cleared before it.
std::string SeparateStateUpdate(const FileResult& result, bool clear_failure) {
  const std::string iri = FileIri(result);
  return fmt::format(
      "{} ;\n{}INSERT OR REPLACE {{ <{}> qxo:extractedMtime \"{}\"^^xsd:dateTime }} "
      "WHERE {{ <{}> a nfo:FileDataObject }}\n",
      ToSparqlUpdate(result), clear_failure ? service::ClearFailure(iri) + " ;\n" : "", iri,
      service::MtimeLiteral(kMtime), iri);
}

size_t Count(std::string_view text, std::string_view word) {
  size_t count = 0;
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    ++count;
  }
  return count;
}

TEST_CASE("The success state in the file's template stores what its own operation did "
          "(issue 5)") {
  // `merged`: ServiceUpdate; `separate`: the state as its own INSERT ... WHERE, as before.
  // Every corpus file, onto the miner's resource or onto one named by its URL, with and
  // without a failure to clear.
  const testing::TempDir dir;
  const auto merged = OpenStore(dir, "merged");
  const auto separate = OpenStore(dir, "separate");
  const Registry registry = BuiltinRegistry();
  size_t files = 0;
  for (const auto& entry : testing::Manifest()["files"]) {
    auto result = ExtractFile(registry, testing::CorpusPath(entry), Limits{});
    if (!result) continue;
    const bool clear_failure = files % 3 == 0;
    if (files % 2 == 0) result->file_iri = fmt::format("urn:quarry:file:{:032x}", files + 1);
    ++files;
    const std::string update = ServiceUpdate(*result, clear_failure);
    INFO(update);
    // The core's operations and ClearFailure's, no other: no WHERE query of the state's own.
    CHECK(Count(update, "WHERE") ==
          Count(ToSparqlUpdate(*result), "WHERE") + (clear_failure ? 2 : 0));
    const std::string iri = FileIri(*result);
    for (engine::Store* store : {merged.get(), separate.get()}) {
      Apply(*store, MinerFacts(iri, *result));
      if (clear_failure) {  // an earlier try's failure (StateOnlyUpdate)
        Apply(*store, fmt::format("INSERT DATA {{ <{}> qxo:extractionFailure \"timed out\" ; "
                                  "qxo:failedExtractor \"pdf\" }}",
                                  iri));
      }
    }
    Apply(*merged, update);
    Apply(*separate, SeparateStateUpdate(*result, clear_failure));
  }
  CHECK(files >= 10);
  const auto stored = Graph(*merged);
  const auto reference = Graph(*separate);
  REQUIRE(stored.size() == reference.size());
  for (size_t i = 0; i < stored.size(); ++i) CHECK(stored[i] == reference[i]);
  CHECK(Rows(*merged, "SELECT ?f { ?f qxo:extractedMtime ?m }").size() == files);
  CHECK(Rows(*merged, "SELECT ?f { ?f qxo:extractionFailure ?m }").empty());
}

TEST_CASE("Onto the miner's resource the update stores the whole description's graph (issue 5)") {
  // `named`: the miner's resource, only the link and the element restated (the new shape).
  // `whole`: the same files named by their URL, written whole as before issue 5 (type and
  // nie:url restated); its graph, with each URL renamed to the resource, is the reference.
  const testing::TempDir dir;
  const auto named = OpenStore(dir, "named");
  const auto whole = OpenStore(dir, "whole");
  const Registry registry = BuiltinRegistry();
  std::map<std::string, std::string> url_to_resource;
  std::set<std::string> kinds;
  for (const auto& entry : testing::Manifest()["files"]) {
    auto result = ExtractFile(registry, testing::CorpusPath(entry), Limits{});
    if (!result) continue;  // nothing to extract (bin, hostile): no update is sent
    kinds.insert(entry["kind"].get<std::string>());
    const std::string resource = fmt::format("urn:quarry:file:{:032x}", url_to_resource.size() + 1);
    url_to_resource.emplace(result->file_url, resource);
    Apply(*whole, MinerFacts(result->file_url, *result));
    Apply(*whole, ServiceUpdate(*result));
    result->file_iri = resource;
    CHECK(ToSparqlUpdate(*result).find("nie:url") == std::string::npos);
    Apply(*named, MinerFacts(resource, *result));
    Apply(*named, ServiceUpdate(*result));
  }
  CHECK(kinds.size() >= 10);  // every kind the corpus has a module for
  std::map<std::string, std::string> resource_to_url;
  for (const auto& [url, resource] : url_to_resource) resource_to_url.emplace(resource, url);
  const auto stored = Graph(*named, resource_to_url);
  const auto reference = Graph(*whole);
  CHECK(stored.size() > 2 * url_to_resource.size());  // the files, their elements, related
  REQUIRE(stored.size() == reference.size());
  for (size_t i = 0; i < stored.size(); ++i) CHECK(stored[i] == reference[i]);
  const auto links = Rows(*named, "SELECT ?f { ?f nie:interpretedAs ?e ; qxo:extractedMtime ?m . "
                                  "?e nie:isStoredAs ?f }");
  CHECK(links.size() == url_to_resource.size());
}

// The store's cost per file of text (issue 5): the update declares only the prefixes it uses,
// and a text of many lines goes as one """ literal with only \ and paired quotes escaped. The
// store keeps the text as it was and finds its words and phrases.
TEST_CASE("A text of many lines goes as one long literal and comes back unchanged (issue 5)") {
  const testing::TempDir dir;
  const auto store = OpenStore(dir, "db");
  const std::string text =
      "First line of notes\r\n\tsaid \"hello\" and \"\"\"triple\"\"\" quotes\n"
      "a C path C:\\temp\\new and 'single' ones; nmm: is not a prefix here\n"
      "caf\xC3\xA9 ends with a quote\"";
  FileResult result;
  result.file_url = "file:///home/u/notes.txt";
  result.file_iri = "urn:quarry:file:0001";
  result.element_iri = ElementIri(result.file_url);
  result.mime_type = "text/plain";
  result.extraction.extractor = "text";
  result.extraction.element.AddType(vocab::Nfo("PlainTextDocument"));
  result.extraction.element.Add(vocab::Nie("plainTextContent"), text);
  const std::string update = ServiceUpdate(result);
  INFO(update);
  CHECK(update.find("PREFIX nie:") != std::string::npos);
  CHECK(update.find("PREFIX nmm:") != std::string::npos);  // named in the text: declared anyway
  for (const std::string_view unused :
       {"PREFIX dc:", "PREFIX nco:", "PREFIX mfo:", "PREFIX tracker:"}) {
    CHECK(update.find(unused) == std::string::npos);
  }
  CHECK(update.find("\"\"\"First line of notes\r\n\tsaid \"hello\" and") != std::string::npos);
  Apply(*store, MinerFacts(result.file_iri, result));
  Apply(*store, update);
  CHECK(Rows(*store, "SELECT ?t { ?e a nfo:PlainTextDocument ; nie:plainTextContent ?t }") ==
        std::vector<std::string>{text});
  CHECK(Rows(*store, "SELECT ?e { ?e fts:match 'triple' }").size() == 1);
  CHECK(Rows(*store, "SELECT ?e { ?e fts:match '\"said hello\"' }").size() == 1);
  CHECK(Rows(*store, "SELECT ?e { ?e fts:match 'cafe' }").size() == 1);
}

TEST_CASE("A file the miner deleted before its extraction is written leaves no resource behind "
          "(issue 5)") {
  const testing::TempDir dir;
  const auto store = OpenStore(dir, "db");
  const Registry registry = BuiltinRegistry();
  const auto mp3 = testing::Entries({"mp3"}).front();  // an element and related resources
  const auto pdf = testing::Entries({"pdf"}).front();
  auto song = ExtractFile(registry, testing::CorpusPath(mp3), Limits{});
  REQUIRE(song.ok());
  REQUIRE_FALSE(song->extraction.related.empty());
  song->file_iri = "urn:quarry:file:gone1";
  const std::string failed_url = FileUrl(testing::CorpusPath(pdf));
  const auto before = Graph(*store);
  // Indexed by the miner, then deleted (miner-fs DeleteResource) while being extracted.
  Apply(*store, MinerFacts(song->file_iri, *song) + " ;\n" +
                    MinerFacts("urn:quarry:file:gone2", FileResult{failed_url, "", "", "x/y", {}, {}}));
  Apply(*store, "DELETE DATA { <urn:quarry:file:gone1> a rdfs:Resource } ;\n"
                "DELETE DATA { <urn:quarry:file:gone2> a rdfs:Resource }");
  REQUIRE(Graph(*store) == before);
  Apply(*store, ServiceUpdate(*song));
  Apply(*store, service::StateOnlyUpdate("urn:quarry:file:gone2", failed_url, 0,
                                         "timed out after 30000 ms", "pdf"));
  CHECK(Graph(*store) == before);
  CHECK(Rows(*store, "SELECT ?a { ?a a nmm:Artist }").empty());

  // The same update onto a file that is there writes it all.
  Apply(*store, MinerFacts(song->file_iri, *song));
  Apply(*store, ServiceUpdate(*song));
  CHECK(Rows(*store, "SELECT ?e { <urn:quarry:file:gone1> nie:interpretedAs ?e ; "
                     "qxo:extractedMtime ?m . ?e nmm:performer ?a }").size() == 1);
}

}  // namespace
}  // namespace quarry::extract
