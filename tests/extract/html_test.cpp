// The HTML module against the corpus pages (title, author, keywords, needle, markers) and built
// pages: script/style dropped, legacy encodings, deep nesting, the text cap.
#include <doctest/doctest.h>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/html_module.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

using testing::One;
using testing::Values;

Result<Extraction> RunHtml(const std::string& path, const Limits& limits = {}) {
  Extraction out;
  out.extractor = "html";
  QUARRY_TRY(MakeHtmlModule()->Extract({path, "text/html"}, limits, out));
  return out;
}

TEST_CASE("html: corpus pages, field by field against MANIFEST.json") {
  const Registry registry = BuiltinRegistry();
  const auto entries = testing::Entries({"html"});
  REQUIRE(!entries.empty());
  for (const auto& entry : entries) {
    const std::string path = testing::CorpusPath(entry);
    CAPTURE(path);
    auto result = ExtractFile(registry, path, Limits{});
    REQUIRE_MESSAGE(result.ok(), result.error().ToString());
    CHECK(result->extraction.extractor == "html");
    const Extraction& extraction = result->extraction;
    const Description& element = extraction.element;
    CHECK(element.types == std::vector<std::string>{vocab::Nfo("HtmlDocument")});
    CHECK(One<std::string>(element, vocab::Nie("title")) == entry["title"].get<std::string>());
    const std::string author = entry["author"];
    CHECK(One<Iri>(element, vocab::Nco("creator")) == Iri{DeterministicIri("contact", {author})});
    const Description* contact = testing::Related(extraction, DeterministicIri("contact", {author}));
    REQUIRE(contact != nullptr);
    CHECK(One<std::string>(*contact, vocab::Nco("fullname")) == author);
    std::vector<Value> keywords;
    for (const auto& keyword : entry["keywords"]) keywords.emplace_back(keyword.get<std::string>());
    CHECK(Values(element, vocab::Nie("keyword")) == keywords);
    const auto text = One<std::string>(element, vocab::Nie("plainTextContent"));
    REQUIRE(text.has_value());
    CHECK(text->find(entry["needle"].get<std::string>()) != std::string::npos);
    for (const auto& marker : entry["markers"]) {
      CHECK(text->find(marker.get<std::string>()) != std::string::npos);
    }
    CHECK(text->find("font-family") == std::string::npos);  // <style> is not visible text
    CHECK(text->find('<') == std::string::npos);
  }
}

TEST_CASE("html: only visible text, blocks on their own lines, whitespace collapsed") {
  const testing::TempDir dir;
  const auto path = dir.Write("p.html",
                              "<html><head><title> A\n title </title>"
                              "<script>var hidden = 'zzscript';</script></head><body>"
                              "<p>one   two</p><div>three<span> four</span></div>"
                              "<style>.x{color:red}</style><noscript>zznoscript</noscript>"
                              "<ul><li>five</li><li>six</li></ul></body></html>");
  auto extraction = RunHtml(path.string());
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  CHECK(One<std::string>(extraction->element, vocab::Nie("title")) == "A title");
  CHECK(One<std::string>(extraction->element, vocab::Nie("plainTextContent")) ==
        "one two\nthree four\nfive\nsix");
  CHECK(One<int64_t>(extraction->element, vocab::Nfo("wordCount")) == 6);
}

TEST_CASE("html: a Windows-1252 page without a charset declaration becomes UTF-8") {
  const testing::TempDir dir;
  const auto path = dir.Write("l.html",
                              "<html><body><p>Caf\xE9 cr\xE8me br\xFBl\xE9" "e, d\xE9j\xE0 vu, "
                              "na\xEFve fa\xE7" "ade</p></body></html>");
  auto extraction = RunHtml(path.string());
  REQUIRE(extraction.ok());
  CHECK(One<std::string>(extraction->element, vocab::Nie("plainTextContent")) ==
        "Caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9" "e, d\xC3\xA9j\xC3\xA0 vu, na\xC3\xAFve "
        "fa\xC3\xA7" "ade");
}

TEST_CASE("html: the text cap holds and drops the counts") {
  const testing::TempDir dir;
  std::string page = "<html><body>";
  for (int i = 0; i < 2000; ++i) page += "<p>word</p>";
  page += "</body></html>";
  Limits limits;
  limits.max_text_bytes = 1000;
  auto extraction = RunHtml(dir.Write("big.html", page).string(), limits);
  REQUIRE(extraction.ok());
  const auto text = One<std::string>(extraction->element, vocab::Nie("plainTextContent"));
  REQUIRE(text.has_value());
  CHECK(text->size() <= 1000);
  CHECK(text->size() > 900);
  CHECK(Values(extraction->element, vocab::Nfo("wordCount")).empty());
}

TEST_CASE("html: hostile pages (deep nesting, unclosed, empty) never crash") {
  const std::string hostile = testing::kCorpusDir + "/hostile/";
  for (const char* name : {"text/deep-html.html", "text/unclosed.html", "empty/empty.html"}) {
    CAPTURE(name);
    auto extraction = RunHtml(hostile + name);
    CHECK_MESSAGE(extraction.ok(), extraction.error().ToString());
  }
  const testing::TempDir dir;
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "<div>";
  deep += "bottom";
  auto extraction = RunHtml(dir.Write("deep.html", deep).string());
  CHECK(extraction.ok());
}

}  // namespace
}  // namespace quarry::extract
