#include <doctest/doctest.h>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql {
namespace {

using testing::MustParseUpdate;
using testing::UpdateError;

template <typename T>
const T& Operation(const Update& update, size_t index) {
  REQUIRE(index < update.operations.size());
  const T* operation = std::get_if<T>(&update.operations[index]);
  REQUIRE(operation != nullptr);
  return *operation;
}

TEST_CASE("INSERT DATA and DELETE DATA with GRAPH blocks") {
  const Update update = MustParseUpdate(
      "INSERT DATA { ex:a ex:p 1 . GRAPH ex:g { ex:b ex:q _:x } ex:c ex:r 2 } ;"
      "DELETE DATA { GRAPH <http://g2/> { ex:a ex:p 1 } }");
  const auto& insert = Operation<InsertData>(update, 0);
  REQUIRE(insert.quads.size() == 3);
  CHECK_FALSE(insert.quads[0].graph.has_value());
  CHECK(insert.quads[1].graph == MakeIri("http://example.org/g"));
  CHECK(insert.quads[1].triples[0].object == Term(BlankNode{"x", false}));
  CHECK(insert.quads[2].triples.size() == 1);
  const auto& del = Operation<DeleteData>(update, 1);
  REQUIRE(del.quads.size() == 1);
  CHECK(del.quads[0].graph == MakeIri("http://g2/"));
}

TEST_CASE("QuadData refuses variables and DELETE forms refuse blank nodes") {
  CHECK(UpdateError("INSERT DATA { ?s ex:p 1 }").find("variables are not allowed in INSERT DATA") !=
        std::string::npos);
  CHECK(!UpdateError("INSERT DATA { GRAPH ?g { ex:s ex:p 1 } }").empty());
  CHECK(UpdateError("DELETE DATA { _:b ex:p 1 }").find("blank nodes are not allowed") !=
        std::string::npos);
  CHECK(!UpdateError("DELETE WHERE { [] ex:p ?o }").empty());
  CHECK(!UpdateError("DELETE { ?s ex:p (1) } WHERE { ?s ex:p ?o }").empty());
  CHECK(!UpdateError("INSERT DATA { ex:s ex:p/ex:q 1 }").empty());
}

TEST_CASE("DELETE WHERE and Modify with WITH and USING and both templates") {
  const Update update = MustParseUpdate(
      "DELETE WHERE { ?s ex:p ?o } ;"
      "WITH ex:g DELETE { ?s ex:p ?o } INSERT { ?s ex:q ?o . GRAPH ex:h { ?s ex:r [] } } "
      "USING ex:u USING NAMED ex:v WHERE { ?s ex:p ?o } ;"
      "INSERT { ?s ex:flag true } WHERE { ?s a ex:C }");
  CHECK(Operation<DeleteWhere>(update, 0).quads.at(0).triples.size() == 1);
  const auto& modify = Operation<Modify>(update, 1);
  CHECK(modify.with_iri == "http://example.org/g");
  REQUIRE(modify.delete_quads.has_value());
  REQUIRE(modify.insert_quads.has_value());
  CHECK(modify.insert_quads->size() == 2);
  REQUIRE(modify.using_clauses.size() == 2);
  CHECK(modify.using_clauses[1].named);
  CHECK(modify.has_where);
  CHECK(modify.where.elements.size() == 1);
  const auto& insert_only = Operation<Modify>(update, 2);
  CHECK_FALSE(insert_only.delete_quads.has_value());
  CHECK(insert_only.insert_quads.has_value());
}

TEST_CASE("Graph management operations") {
  const Update update = MustParseUpdate(
      "LOAD SILENT <http://src/> INTO GRAPH <http://g/> ; LOAD <http://src2/> ;"
      "CLEAR GRAPH <http://g/> ; CLEAR DEFAULT ; DROP SILENT NAMED ; DROP ALL ;"
      "CREATE SILENT GRAPH <http://new/> ;"
      "ADD DEFAULT TO GRAPH <http://g/> ; MOVE SILENT <http://a/> TO DEFAULT ;"
      "COPY GRAPH <http://a/> TO <http://b/>");
  REQUIRE(update.operations.size() == 10);
  const auto& load = Operation<Load>(update, 0);
  CHECK(load.silent);
  CHECK(load.into_graph == "http://g/");
  CHECK_FALSE(Operation<Load>(update, 1).into_graph.has_value());
  CHECK(Operation<Clear>(update, 2).target.iri == "http://g/");
  CHECK(Operation<Clear>(update, 3).target.kind == GraphRef::Kind::kDefault);
  CHECK(Operation<Drop>(update, 4).target.kind == GraphRef::Kind::kNamed);
  CHECK(Operation<Drop>(update, 5).target.kind == GraphRef::Kind::kAll);
  CHECK(Operation<Create>(update, 6).graph_iri == "http://new/");
  CHECK(Operation<Add>(update, 7).from.is_default);
  CHECK(Operation<Move>(update, 8).to.is_default);
  CHECK(Operation<Copy>(update, 9).to.iri == "http://b/");
}

TEST_CASE("Operations are separated by semicolons with prologues in between") {
  const Update update = MustParseUpdate(
      "PREFIX a: <http://a/> INSERT DATA { a:x a:y 1 } ; PREFIX a: <http://b/> "
      "INSERT DATA { a:x a:y 2 } ;");
  REQUIRE(update.operations.size() == 2);
  CHECK(Operation<InsertData>(update, 1).quads[0].triples[0].subject == MakeIri("http://b/x"));
  CHECK(MustParseUpdate("").operations.empty());
  CHECK(!UpdateError("CLEAR ALL ;; CLEAR ALL").empty());
  SUBCASE("Tracker makes the ';' optional") {
    CHECK(
        MustParseUpdate("CLEAR ALL CLEAR DEFAULT INSERT DATA { ex:a ex:b 1 }").operations.size() ==
        3);
    CHECK(!UpdateError("CLEAR ALL CLEAR ALL", /*strict=*/true).empty());
    CHECK(!UpdateError("CLEAR ALL ex:a").empty());
  }
}

TEST_CASE("Blank node labels: one INSERT DATA each in strict mode") {
  const char* reused = "INSERT DATA { _:b ex:p 1 } ; INSERT DATA { _:b ex:p 2 }";
  CHECK(!UpdateError(reused, /*strict=*/true).empty());
  CHECK(UpdateError(reused, /*strict=*/false).empty());
  CHECK(UpdateError("INSERT DATA { _:b ex:p 1 . _:b ex:q 2 }", true).empty());
}

TEST_CASE("Tracker extensions: INSERT OR REPLACE and INSERT SILENT and WHERE-less Modify") {
  const Update update = MustParseUpdate(
      "INSERT OR REPLACE { ?r nie:title 'x' } WHERE { ?r a ex:C } ;"
      "INSERT OR REPLACE DATA { ex:a nie:title 'y' } ;"
      "INSERT SILENT { ex:a nie:title 'z' } ;"
      "DELETE { ex:a nie:title ?t } INSERT OR REPLACE { ex:a nie:title 'w' } WHERE { ex:a "
      "nie:title ?t }");
  const auto& modify = Operation<Modify>(update, 0);
  CHECK(modify.or_replace);
  CHECK(modify.has_where);
  CHECK(Operation<InsertData>(update, 1).or_replace);
  const auto& silent = Operation<Modify>(update, 2);
  CHECK(silent.silent);
  CHECK_FALSE(silent.has_where);
  const auto& both = Operation<Modify>(update, 3);
  CHECK(both.delete_quads.has_value());
  CHECK(both.or_replace);
  SUBCASE("refused in strict mode") {
    CHECK(UpdateError("INSERT OR REPLACE { ex:a ex:b 1 } WHERE {}", true)
              .find("INSERT OR REPLACE is a Tracker extension") != std::string::npos);
    CHECK(!UpdateError("INSERT SILENT DATA { ex:a ex:b 1 }", true).empty());
    CHECK(!UpdateError("INSERT { ex:a ex:b 1 }", true).empty());
  }
}

TEST_CASE("Tracker parameters in updates and queries") {
  const Update update = MustParseUpdate("INSERT DATA { ~subject nie:title ~title }");
  const auto& triple = Operation<InsertData>(update, 0).quads[0].triples[0];
  CHECK(triple.subject == Term(Parameter{"subject"}));
  CHECK(triple.object == Term(Parameter{"title"}));
  CHECK(!UpdateError("INSERT DATA { ~s nie:title 'x' }", /*strict=*/true).empty());
}

}  // namespace
}  // namespace quarry::sparql
