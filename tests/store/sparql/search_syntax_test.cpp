// The search box syntax of fts:match → FTS5 MATCH expressions
// (store/sparql/translate/search_syntax.h).
#include "store/sparql/translate/search_syntax.h"

#include <doctest/doctest.h>

namespace quarry::sparql {
namespace {

std::string Fts(std::string_view search) {
  auto expression = SearchToFts5(search);
  INFO(search);
  INFO((expression ? std::string() : expression.error().ToString()));
  REQUIRE(expression.ok());
  return *expression;
}

std::string FtsError(std::string_view search) {
  auto expression = SearchToFts5(search);
  INFO(search);
  REQUIRE_FALSE(expression.ok());
  CHECK(expression.error().code() == Errc::kParse);
  return expression.error().message();
}

TEST_CASE("search syntax: words are ANDed, each quoted") {
  CHECK(Fts("cats") == "\"cats\"");
  CHECK(Fts("cats dogs") == "\"cats\" AND \"dogs\"");
  CHECK(Fts("  cats \t dogs  ") == "\"cats\" AND \"dogs\"");
  CHECK(Fts("cats AND dogs") == "\"cats\" AND \"dogs\"");
}

TEST_CASE("search syntax: OR groups alternatives and binds tighter than AND") {
  CHECK(Fts("cats OR dogs") == "(\"cats\" OR \"dogs\")");
  CHECK(Fts("pets cats OR dogs") == "\"pets\" AND (\"cats\" OR \"dogs\")");
  CHECK(Fts("a OR b OR c") == "(\"a\" OR \"b\" OR \"c\")");
  SUBCASE("lower-case or is a word") {
    CHECK(Fts("cats or dogs") == "\"cats\" AND \"or\" AND \"dogs\"");
  }
}

TEST_CASE("search syntax: -word and NOT exclude") {
  CHECK(Fts("report -draft") == "(\"report\") NOT \"draft\"");
  CHECK(Fts("report NOT draft") == "(\"report\") NOT \"draft\"");
  CHECK(Fts("report -draft -old") == "(\"report\") NOT (\"draft\" OR \"old\")");
  CHECK(Fts("-draft report") == "(\"report\") NOT \"draft\"");
  SUBCASE("a hyphen inside a word is no operator") { CHECK(Fts("e-mail") == "\"e-mail\""); }
}

TEST_CASE("search syntax: phrases and prefixes") {
  CHECK(Fts("\"annual report\"") == "\"annual report\"");
  CHECK(Fts("\"annual report\" 2024") == "\"annual report\" AND \"2024\"");
  CHECK(Fts("rep*") == "\"rep\" *");
  CHECK(Fts("\"annual rep\"*") == "\"annual rep\" *");
  CHECK(Fts("-\"first draft\" report") == "(\"report\") NOT \"first draft\"");
  SUBCASE("an unterminated phrase runs to the end") {
    CHECK(Fts("\"annual report") == "\"annual report\"");
  }
}

TEST_CASE("search syntax: folded like the index (case, Latin accents)") {
  CHECK(Fts("Résumé") == "\"resume\"");
  CHECK(Fts("ÉCOLE Straße") == "\"ecole\" AND \"strasse\"");
  CHECK(FoldForSearch("Crème Brûlée") == "creme brulee");
  SUBCASE("marks of other scripts are part of the word") {
    CHECK(FoldForSearch("मराठी") == "मराठी");
  }
}

TEST_CASE("search syntax: FTS5 syntax typed by the user stays text") {
  CHECK(Fts("NEAR(a b)") == "\"near(a\" AND \"b)\"");
  CHECK(Fts("title:report") == "\"title:report\"");
  CHECK(Fts("^start") == "\"^start\"");
  CHECK(Fts("foo\"bar") == "\"foo\" AND \"bar\"");
  CHECK(Fts("a + b") == "\"a\" AND \"b\"");  // '+' alone has no word: dropped
}

TEST_CASE("search syntax: dangling operators are ignored while typing") {
  CHECK(Fts("cats OR") == "\"cats\"");
  CHECK(Fts("OR cats") == "\"cats\"");
  CHECK(Fts("cats AND") == "\"cats\"");
  CHECK(Fts("cats NOT") == "\"cats\"");
}

TEST_CASE("search syntax: nothing to look for is an error") {
  CHECK(FtsError("").find("no word") != std::string::npos);
  CHECK(FtsError("   ").find("no word") != std::string::npos);
  CHECK(FtsError("!!! ???").find("no word") != std::string::npos);
  CHECK(FtsError("-draft").find("only excludes") != std::string::npos);
  CHECK(FtsError("NOT draft -old").find("only excludes") != std::string::npos);
}

}  // namespace
}  // namespace quarry::sparql
