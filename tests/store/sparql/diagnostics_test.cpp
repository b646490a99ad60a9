// Exact parse error messages, and inputs that must fail cleanly (depth limits, garbage).
#include "store/sparql/diagnostics.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql {
namespace {

using testing::QueryError;
using testing::UpdateError;

TEST_CASE("Error messages: line:column then the source line and a caret") {
  CHECK(QueryError("SELECT ?s\nWHERE { ?s ?p }") ==
        "2:15: expected an object but found '}'\n"
        "WHERE { ?s ?p }\n"
        "              ^");
  CHECK(QueryError("SELECT * { ?s mfo:name ?n }") ==
        "1:15: undeclared prefix 'mfo:'\n"
        "SELECT * { ?s mfo:name ?n }\n"
        "              ^");
  CHECK(QueryError("SELECT * {\n\t?s ex:p \"abc\n}") ==
        "2:10: line break inside a short string (use \"\"\" or \\n)\n"
        "\t?s ex:p \"abc\n"
        "\t        ^");
  CHECK(QueryError("SELECT * { ?s ?p ?o ") ==
        "1:20: expected a triple pattern, a graph pattern or '}' but found end of input\n"
        "SELECT * { ?s ?p ?o \n"
        "                   ^");
  CHECK(UpdateError("INSERT DATA { <a> <b> ?c }") ==
        "1:23: variables are not allowed in INSERT DATA\n"
        "INSERT DATA { <a> <b> ?c }\n"
        "                      ^");
}

TEST_CASE("Error columns count codepoints and not bytes") {
  CHECK(QueryError("SELECT * { \"é\" ?p }").rfind("1:19: ", 0) == 0);
}

TEST_CASE("Very long lines are cut around the error") {
  std::string text = "INSERT DATA { ";
  for (int i = 0; i < 2000; ++i) text += "<a> <b> " + std::to_string(i) + " . ";
  text += "<a> <b> ?bad }";
  const std::string message = UpdateError(text);
  REQUIRE(!message.empty());
  const size_t first_newline = message.find('\n');
  const std::string excerpt = message.substr(first_newline + 1);
  const size_t second_newline = excerpt.find('\n');
  CHECK(second_newline < 130);
  CHECK(excerpt.rfind("...", 0) == 0);
  // The caret sits under the '?' of ?bad.
  const std::string line = excerpt.substr(0, second_newline);
  const std::string caret = excerpt.substr(second_newline + 1);
  REQUIRE(caret.size() <= line.size());
  CHECK(line[caret.size() - 1] == '?');
}

TEST_CASE("SourceExcerpt and PositionOf") {
  CHECK(PositionOf("a\nbc\r\nd", 6).line == 3);
  CHECK(PositionOf("a\nbc\r\nd", 6).column == 1);
  CHECK(PositionOf("ab", 100).column == 3);
  CHECK(SourceExcerpt("x\ny", 2) == "y\n^");
}

TEST_CASE("Deep nesting is refused cleanly") {
  constexpr int kDepth = 100000;
  SUBCASE("brackets") {
    const std::string text =
        "SELECT * { FILTER(" + std::string(kDepth, '(') + "1" + std::string(kDepth, ')') + ") }";
    CHECK(QueryError(text).find("nested too deeply") != std::string::npos);
  }
  SUBCASE("groups") {
    std::string text = "SELECT * ";
    for (int i = 0; i < kDepth; ++i) text += "{ ";
    CHECK(QueryError(text).find("nested too deeply") != std::string::npos);
  }
  SUBCASE("blank node lists and collections") {
    std::string lists = "SELECT * { ?s ex:p ";
    std::string collections = lists;
    for (int i = 0; i < kDepth; ++i) lists += "[ ex:p ";
    for (int i = 0; i < kDepth; ++i) collections += "( ";
    CHECK(QueryError(lists).find("nested too deeply") != std::string::npos);
    CHECK(QueryError(collections).find("nested too deeply") != std::string::npos);
  }
  SUBCASE("paths") {
    const std::string text = "SELECT * { ?s " + std::string(kDepth, '(') + "ex:p }";
    CHECK(QueryError(text).find("nested too deeply") != std::string::npos);
  }
  SUBCASE("long operator chains") {
    std::string text = "SELECT * { FILTER(?a";
    for (int i = 0; i < kDepth; ++i) text += " || ?a";
    text += ") }";
    CHECK(QueryError(text).find("nested too deeply") != std::string::npos);
  }
  SUBCASE("a thousand levels inside EXISTS inside expressions") {
    std::string text = "SELECT * { ";
    for (int i = 0; i < 1000; ++i) text += "FILTER(?a || EXISTS { ";
    CHECK(QueryError(text).find("nested too deeply") != std::string::npos);
  }
  SUBCASE("moderate nesting still works") {
    const std::string text =
        "SELECT * { FILTER(" + std::string(50, '(') + "1" + std::string(50, ')') + ") }";
    CHECK(QueryError(text).empty());
    std::string chain = "SELECT * { FILTER(?a";
    for (int i = 0; i < 500; ++i) chain += " || ?a";
    CHECK(QueryError(chain + ") }").empty());
  }
}

// Random token soup and random bytes: every input either parses or returns an error.
TEST_CASE("Garbage input never crashes") {
  const std::vector<std::string> pieces = {
      "SELECT",   "*",           "{",     "}",      "(",     ")",   "[",      "]",     "?x",
      "ex:p",     "<http://a/>", "\"s\"", "1",      "-2.5",  ".",   ";",      ",",     "FILTER",
      "OPTIONAL", "UNION",       "GRAPH", "a",      "^",     "/",   "|",      "!",     "+",
      "||",       "&&",          "=",     "EXISTS", "NOT",   "IN",  "VALUES", "UNDEF", "BIND",
      "AS",       "INSERT",      "DATA",  "DELETE", "WHERE", "_:b", "~p",     "@en",   "^^",
      "COUNT",    "GROUP",       "BY",    "LIMIT",  "()"};
  std::mt19937 random(42);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int length = static_cast<int>(random() % 40);
    for (int i = 0; i < length; ++i) text += pieces[random() % pieces.size()] + " ";
    (void)ParseQuery(text, testing::TestOptions());
    (void)ParseUpdate(text, testing::TestOptions(true));
  }
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(random() % 60, '\0');
    for (char& c : bytes) c = static_cast<char>(random() % 256);
    (void)ParseQuery("SELECT * { " + bytes, testing::TestOptions());
    (void)ParseUpdate(bytes, testing::TestOptions());
  }
  CHECK(true);  // reaching here without a crash or sanitizer report is the test
}

}  // namespace
}  // namespace quarry::sparql
