#include "store/ontology/source_text.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace quarry::ontology {
namespace {

std::vector<std::string> TermsOf(const SourceText& source, size_t from, size_t to) {
  std::vector<std::string> terms;
  for (const size_t start : source.TermStarts(from, to)) {
    terms.push_back(std::string(source.text().substr(start, 6)));
  }
  return terms;
}

TEST_CASE("SourceText: offsets become 1-based lines and character columns") {
  const std::string text = "ab\n\tcé d\n";
  const SourceText source("f.ontology", text);
  CHECK(source.Locate(0).ToString() == "f.ontology:1:1");
  CHECK(source.Locate(2).ToString() == "f.ontology:1:3");
  CHECK(source.Locate(3).ToString() == "f.ontology:2:1");
  CHECK(source.Locate(4).ToString() == "f.ontology:2:2");
  // "é" is two bytes but one column.
  CHECK(source.Locate(text.find('d')).ToString() == "f.ontology:2:5");
  CHECK(source.Locate(text.size()).ToString() == "f.ontology:3:1");
  CHECK(source.Locate(text.size() + 10).ToString() == "f.ontology:3:1");
}

TEST_CASE("SourceText: SkipSpace skips blanks and comments") {
  const std::string text = "  # a comment <x> \"\n\t\n  ex:A";
  const SourceText source("f", text);
  CHECK(source.SkipSpace(0) == text.find("ex:A"));
  CHECK(source.SkipSpace(text.size()) == text.size());
}

TEST_CASE("SourceText: TermStarts finds subjects, predicates and objects") {
  SUBCASE("prefixed names and a trailing dot") {
    const std::string text = "ex:A a ex:B.";
    const SourceText source("f", text);
    CHECK(TermsOf(source, 0, text.size()) == std::vector<std::string>{"ex:A a", "a ex:B", "ex:B."});
  }
  SUBCASE("punctuation separates, literals keep their datatype and language") {
    const std::string text = R"(; ex:p "a\"b;"^^xsd:int , 'x'@en-GB ; ex:q """long
"quoted" text""" ; ex:r <http://a/b#c> ; ex:s 1.5e3.)";
    const SourceText source("f", text);
    const std::vector<size_t> starts = source.TermStarts(0, text.size());
    std::vector<std::string> terms;
    for (size_t i = 0; i < starts.size(); ++i) {
      const size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
      terms.push_back(std::string(text.substr(starts[i], end - starts[i])));
    }
    CHECK(terms == std::vector<std::string>{"ex:p ", "\"a\\\"b;\"^^xsd:int , ", "'x'@en-GB ; ",
                                            "ex:q ", "\"\"\"long\n\"quoted\" text\"\"\" ; ",
                                            "ex:r ", "<http://a/b#c> ; ", "ex:s ", "1.5e3."});
  }
  SUBCASE("brackets open terms, comments are skipped") {
    const std::string text = "ex:p [ # note\n ex:q ( ex:a ) ]";
    const SourceText source("f", text);
    CHECK(TermsOf(source, 0, text.size()) ==
          std::vector<std::string>{"ex:p [", "[ # no", "ex:q (", "( ex:a", "ex:a )"});
  }
  SUBCASE("a range ending inside the text only sees terms that start before its end") {
    const std::string text = "ex:A ex:p ex:B ; ex:q ex:C .";
    const SourceText source("f", text);
    CHECK(source.TermStarts(text.find(';'), text.size()).size() == 2);
    CHECK(source.TermStarts(0, text.find(';')).size() == 3);
  }
}

}  // namespace
}  // namespace quarry::ontology
