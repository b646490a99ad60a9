// ParseUpdateStream: the same request as ParseUpdate, with INSERT DATA / DELETE DATA triples
// handed over statement by statement and everything else whole.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql::testing {
namespace {

std::string TermString(const Term& term) {
  TriplePattern probe{term, Verb(term), term};
  Update update;
  update.operations.push_back(DeleteWhere{{QuadsBlock{std::nullopt, {probe}}}});
  return ToSExpression(update);  // the term, three times: enough to compare
}

std::string TripleString(const Term* graph, const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  REQUIRE(predicate != nullptr);
  return (graph ? TermString(*graph) : "default") + " | " + TermString(triple.subject) + " | " +
         TermString(*predicate) + " | " + TermString(triple.object);
}

// Records what a sink sees as lines; the AST gives the same lines through Flatten().
class RecordingSink final : public UpdateSink {
 public:
  Result<void> OnOperation(UpdateOperation operation, size_t) override {
    Update one;
    one.operations.push_back(std::move(operation));
    lines.push_back(ToSExpression(one));
    return Ok();
  }
  Result<void> OnDataBegin(const DataOperation& operation) override {
    lines.push_back(operation.insert ? (operation.or_replace ? "insert-or-replace" : "insert")
                                     : "delete");
    return Ok();
  }
  Result<void> OnDataTriples(const Term* graph, std::vector<TriplePattern>& triples,
                             size_t offset) override {
    ++statements;
    offsets.push_back(offset);
    for (const TriplePattern& triple : triples) lines.push_back(TripleString(graph, triple));
    if (fail_at_statement == statements) return Error(Errc::kConstraint, "sink refused");
    return Ok();
  }
  Result<void> OnDataEnd() override {
    lines.push_back("end");
    return Ok();
  }

  std::vector<std::string> lines;
  std::vector<size_t> offsets;
  int statements = 0;
  int fail_at_statement = -1;
};

std::vector<std::string> Flatten(Update update) {
  std::vector<std::string> lines;
  for (UpdateOperation& operation : update.operations) {
    const Quads* quads = nullptr;
    if (const auto* insert = std::get_if<InsertData>(&operation)) {
      lines.push_back(insert->or_replace ? "insert-or-replace" : "insert");
      quads = &insert->quads;
    } else if (const auto* remove = std::get_if<DeleteData>(&operation)) {
      lines.push_back("delete");
      quads = &remove->quads;
    } else {
      Update one;
      one.operations.push_back(std::move(operation));
      lines.push_back(ToSExpression(one));
      continue;
    }
    for (const QuadsBlock& block : *quads) {
      for (const TriplePattern& triple : block.triples) {
        lines.push_back(TripleString(block.graph ? &*block.graph : nullptr, triple));
      }
    }
    lines.push_back("end");
  }
  return lines;
}

TEST_CASE("ParseUpdateStream hands over what ParseUpdate parses") {
  const std::string text = R"(PREFIX p: <http://example.org/p#>
    INSERT DATA { ex:a a ex:C ; ex:p 1, "two"@en ; ex:q [ ex:r ( 1 2 ) ] .
                  GRAPH ex:g { ex:b ex:p ex:a } GRAPH ex:h { } _:x ex:p p:y } ;
    DELETE DATA { ex:a ex:p 1 . GRAPH ex:g { ex:b ex:p ex:a } }
    INSERT OR REPLACE DATA { ex:a ex:p 3 } ;
    DELETE { ?s ex:p ?o } INSERT { ?s ex:p 4 } WHERE { ?s ex:p ?o } ;
    CLEAR GRAPH ex:g)";
  RecordingSink sink;
  auto streamed = ParseUpdateStream(text, TestOptions(), sink);
  REQUIRE(streamed.ok());
  CHECK(sink.lines == Flatten(MustParseUpdate(text)));
  CHECK(sink.statements == 7);  // 3 + an empty GRAPH block in the first, 2 in the second, 1
  CHECK(text.substr(sink.offsets[0], 4) == "ex:a");
}

TEST_CASE("ParseUpdateStream: syntax errors as ParseUpdate gives them, sink errors unchanged") {
  SUBCASE("a syntax error after streamed statements") {
    const std::string text = "INSERT DATA { ex:a ex:p 1 .\n ex:b ex:p }";
    RecordingSink sink;
    auto streamed = ParseUpdateStream(text, TestOptions(), sink);
    REQUIRE_FALSE(streamed.ok());
    CHECK(streamed.error().message() == UpdateError(text));
    CHECK(streamed.error().message().rfind("2:12: ", 0) == 0);
    CHECK(sink.statements == 1);
  }
  SUBCASE("the sink's error stops the parse") {
    RecordingSink sink;
    sink.fail_at_statement = 2;
    auto streamed = ParseUpdateStream("INSERT DATA { ex:a ex:p 1 . ex:b ex:p 2 . ex:c ex:p 3 }",
                                      TestOptions(), sink);
    REQUIRE_FALSE(streamed.ok());
    CHECK(streamed.error().code() == Errc::kConstraint);
    CHECK(streamed.error().message() == "sink refused");
    CHECK(sink.statements == 2);
  }
  SUBCASE("INSERT DATA after a DELETE template is refused before anything streams") {
    RecordingSink sink;
    auto streamed = ParseUpdateStream("DELETE { ex:a ex:p 1 } INSERT DATA { ex:a ex:p 2 }",
                                      TestOptions(), sink);
    REQUIRE_FALSE(streamed.ok());
    CHECK(streamed.error().message().find("INSERT DATA cannot follow DELETE") != std::string::npos);
    CHECK(sink.lines.empty());
  }
  SUBCASE("variables stay forbidden in streamed DATA") {
    RecordingSink sink;
    const std::string text = "INSERT DATA { ?s ex:p 1 }";
    auto streamed = ParseUpdateStream(text, TestOptions(), sink);
    REQUIRE_FALSE(streamed.ok());
    CHECK(streamed.error().message() == UpdateError(text));
  }
}

}  // namespace
}  // namespace quarry::sparql::testing
