// The client's pure wire pieces: the FD-stream row decoder, ~parameter substitution for bus
// statements, GraphUpdated match rules.
#include <doctest/doctest.h>

#include <cstring>

#include "quarry/notifier.h"
#include "store/client/parameter_text.h"
#include "store/client/row_stream_cursor.h"

namespace quarry {
namespace {

struct Value {
  ValueKind kind;
  std::string text;  // for kLangString: "text\0lang" is built from text and lang
  std::string lang;
};

void AppendInt32(std::string& out, int32_t value) {
  char bytes[sizeof(int32_t)];
  std::memcpy(bytes, &value, sizeof(value));
  out.append(bytes, sizeof(bytes));
}

// One row in DESIGN.md's layout, written independently of the store's encoder.
std::string EncodeRow(const std::vector<Value>& values) {
  std::string data;
  std::vector<int32_t> ends;
  for (const Value& value : values) {
    data += value.text;
    if (value.kind == ValueKind::kLangString) data += std::string(1, '\0') + value.lang;
    ends.push_back(static_cast<int32_t>(data.size()));
    data += '\0';
  }
  std::string row;
  AppendInt32(row, static_cast<int32_t>(values.size()));
  for (const Value& value : values) AppendInt32(row, static_cast<int32_t>(value.kind));
  for (const int32_t end : ends) AppendInt32(row, end);
  return row + data;
}

TEST_CASE("RowStreamCursor: decodes every value type in place") {
  const std::string stream =
      EncodeRow({{ValueKind::kIri, "urn:a", ""}, {ValueKind::kLangString, "Hallo", "de"},
                 {ValueKind::kInteger, "-42", ""}, {ValueKind::kDouble, "0.25", ""},
                 {ValueKind::kBoolean, "true", ""}, {ValueKind::kDateTime, "2024-01-01T08:00:00Z", ""},
                 {ValueKind::kBlankNode, "_:b1", ""}, {ValueKind::kUnbound, "", ""},
                 {ValueKind::kString, "", ""}}) +
      EncodeRow({{ValueKind::kIri, "urn:b", ""}, {ValueKind::kString, "x", ""},
                 {ValueKind::kInteger, "7", ""}, {ValueKind::kDouble, "1e3", ""},
                 {ValueKind::kBoolean, "false", ""}, {ValueKind::kUnbound, "", ""},
                 {ValueKind::kUnbound, "", ""}, {ValueKind::kUnbound, "", ""},
                 {ValueKind::kString, "z", ""}});
  const std::vector<std::string> names{"s", "t", "n", "d", "b", "c", "x", "u", "e"};
  RowStreamCursor cursor(stream, names);
  CHECK(cursor.ColumnCount() == 9);
  CHECK(cursor.VariableName(1) == "t");
  REQUIRE(*cursor.Next());
  CHECK(cursor.Kind(0) == ValueKind::kIri);
  CHECK(cursor.GetString(0) == "urn:a");
  CHECK(cursor.Kind(1) == ValueKind::kLangString);
  CHECK(cursor.GetString(1) == "Hallo");
  CHECK(cursor.GetLanguage(1) == "de");
  CHECK(cursor.GetInteger(2) == -42);
  CHECK(cursor.GetDouble(3) == 0.25);
  CHECK(cursor.GetBoolean(4));
  CHECK(cursor.GetString(5) == "2024-01-01T08:00:00Z");
  CHECK(cursor.Kind(6) == ValueKind::kBlankNode);
  CHECK(cursor.Kind(7) == ValueKind::kUnbound);
  CHECK(cursor.Kind(8) == ValueKind::kString);  // an empty string is bound
  CHECK(cursor.GetString(8).empty());
  REQUIRE(*cursor.Next());
  CHECK(cursor.GetString(0) == "urn:b");
  CHECK(cursor.GetLanguage(1).empty());
  CHECK(cursor.GetDouble(3) == 1000);
  CHECK_FALSE(cursor.GetBoolean(4));
  CHECK(cursor.GetString(8) == "z");
  CHECK_FALSE(*cursor.Next());
}

TEST_CASE("RowStreamCursor: an empty stream has no rows") {
  RowStreamCursor cursor("", {"a"});
  CHECK(cursor.ColumnCount() == 1);
  CHECK_FALSE(*cursor.Next());
}

TEST_CASE("RowStreamCursor: a value larger than a 64 KiB block decodes whole") {
  const std::string big(200 * 1024, 'q');
  RowStreamCursor cursor(EncodeRow({{ValueKind::kString, big, ""}}), {"v"});
  REQUIRE(*cursor.Next());
  CHECK(cursor.GetString(0) == big);
}

TEST_CASE("RowStreamCursor: malformed rows are errors naming the row") {
  const std::string good = EncodeRow({{ValueKind::kString, "a", ""}});
  SUBCASE("truncated data") {
    RowStreamCursor cursor(good + good.substr(0, good.size() - 1), {"v"});
    REQUIRE(*cursor.Next());
    const auto second = cursor.Next();
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().code() == Errc::kCorrupt);
    CHECK(second.error().ToString() == "FD result stream row 2: truncated string data");
    CHECK_FALSE(*cursor.Next());  // nothing after a broken row
  }
  SUBCASE("column count differs from the variables") {
    RowStreamCursor cursor(good, {"a", "b"});
    const auto row = cursor.Next();
    REQUIRE_FALSE(row.ok());
    CHECK(row.error().ToString() == "FD result stream row 1: 1 columns, but the query has 2 variables");
  }
  SUBCASE("unknown value type") {
    std::string bad = good;
    const int32_t type = 99;
    std::memcpy(bad.data() + 4, &type, sizeof(type));
    const auto row = RowStreamCursor(bad, {"v"}).Next();
    REQUIRE_FALSE(row.ok());
    CHECK(row.error().ToString() == "FD result stream row 1: unknown value type 99");
  }
  SUBCASE("end offset not at a NUL") {
    std::string bad = good;
    const int32_t end = 0;
    std::memcpy(bad.data() + 8, &end, sizeof(end));
    const auto row = RowStreamCursor(bad + std::string(1, '\0'), {"v"}).Next();
    REQUIRE_FALSE(row.ok());
    CHECK(row.error().ToString().find("bad end offset 0 for column 0") != std::string::npos);
  }
  SUBCASE("language-tagged value without its tag") {
    std::string bad = good;
    const int32_t type = static_cast<int32_t>(ValueKind::kLangString);
    std::memcpy(bad.data() + 4, &type, sizeof(type));
    const auto row = RowStreamCursor(bad, {"v"}).Next();
    REQUIRE_FALSE(row.ok());
    CHECK(row.error().ToString() == "FD result stream row 1: language-tagged column 0 has no tag");
  }
}

TEST_CASE("SubstituteParameters: terms go in, strings, IRIs and comments are left alone") {
  engine::QueryParameters parameters;
  parameters["url"] = schema::RdfTerm::Iri("file:///a b.mp3");
  parameters["title"] = schema::RdfTerm::Literal("say \"hi\"\n", {}, "en");
  parameters["n"] = schema::RdfTerm::Literal("5", "http://www.w3.org/2001/XMLSchema#integer");
  const auto text = SubstituteParameters(
      "SELECT ?t { ?s nie:url ~url ; nie:title ?t ; ex:n ~n FILTER(?t != '~title' && ?n<~n) "
      "BIND(<urn:~title> AS ?i) } # ~missing\n LIMIT 1",
      parameters);
  REQUIRE(text.ok());
  CHECK(*text ==
        "SELECT ?t { ?s nie:url <file:///a b.mp3> ; nie:title ?t ; ex:n "
        "\"5\"^^<http://www.w3.org/2001/XMLSchema#integer> FILTER(?t != '~title' && "
        "?n<\"5\"^^<http://www.w3.org/2001/XMLSchema#integer>) BIND(<urn:~title> AS ?i) } "
        "# ~missing\n LIMIT 1");
  CHECK(SparqlTermText(parameters["title"]) == "\"say \\\"hi\\\"\\n\"@en");
  const auto missing = SubstituteParameters("SELECT ?t { ?s nie:title ~nope }", parameters);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().ToString() == "parameter ~nope has no value");
}

TEST_CASE("GraphUpdatedMatchRule: arg0 is the class IRI, quotes escaped") {
  CHECK(GraphUpdatedMatchRule("org.quarry.Store1",
                              "http://tracker.api.gnome.org/ontology/v3/nmm#MusicPiece") ==
        "type='signal',sender='org.quarry.Store1',path='/org/quarry/Store1',"
        "interface='org.quarry.Store1.Resources',member='GraphUpdated',"
        "arg0='http://tracker.api.gnome.org/ontology/v3/nmm#MusicPiece'");
  CHECK(GraphUpdatedMatchRule("x.y", "urn:it's").ends_with("arg0='urn:it'\\''s'"));
}

}  // namespace
}  // namespace quarry
