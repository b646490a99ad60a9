// The bulk update path: a large generated INSERT DATA parses completely and correctly.
#include <doctest/doctest.h>

#include <string>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql {
namespace {

TEST_CASE("A generated 50k-triple INSERT DATA parses with every triple in place") {
  constexpr int kResources = 10000;  // five triples each
  std::string text = "PREFIX nfo: <http://tracker.api.gnome.org/ontology/v3/nfo#>\nINSERT DATA {\n";
  for (int i = 0; i < kResources; ++i) {
    const std::string n = std::to_string(i);
    text += "<file:///music/track" + n + ".mp3> a nfo:FileDataObject ;\n  nie:title \"Track " + n +
            " \\\"live\\\"\"@en ;\n  nfo:fileSize " + n +
            " ;\n  nie:created \"2024-01-01T00:00:" + std::to_string(i % 60) +
            "Z\"^^xsd:dateTime ;\n  nie:isPartOf _:album" + std::to_string(i % 100) + " .\n";
  }
  text += "}\n";
  const Update update = testing::MustParseUpdate(text);
  REQUIRE(update.operations.size() == 1);
  const auto& insert = std::get<InsertData>(update.operations[0]);
  REQUIRE(insert.quads.size() == 1);
  const auto& triples = insert.quads[0].triples;
  REQUIRE(triples.size() == 5 * kResources);
  const TriplePattern& title = triples[5 * 1234 + 1];
  CHECK(title.subject == MakeIri("file:///music/track1234.mp3"));
  CHECK(std::get<Term>(title.predicate) ==
        MakeIri("http://tracker.api.gnome.org/ontology/v3/nie#title"));
  CHECK(title.object == Term(Literal{"Track 1234 \"live\"", std::string(kRdfLangString), "en"}));
  CHECK(triples[5 * 9999 + 2].object == MakeLiteral("9999", kXsdInteger));
  CHECK(triples[5 * 77 + 4].object == Term(BlankNode{"album77", false}));
  CHECK(std::get<Literal>(triples[3].object).datatype_iri ==
        "http://www.w3.org/2001/XMLSchema#dateTime");
}

}  // namespace
}  // namespace quarry::sparql
