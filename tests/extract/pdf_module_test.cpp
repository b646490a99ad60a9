// The PDF module against gen-corpus ground truth: every PDF of the corpus, field by field.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <poppler-page.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/pdf_text.h"
#include "tests/extract/extract_test_util.h"

namespace quarry::extract {
namespace {

using testing::One;
using testing::Values;

// Whitespace-separated words, as the manifest counts them.
size_t CountWords(std::string_view text) {
  size_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

// A PDF whose pages draw `contents` (content streams) in Helvetica (base 14: no font file), A4.
std::string MakePdf(const std::vector<std::string>& contents) {
  std::string pdf = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  const auto add = [&](const std::string& body) {
    offsets.push_back(pdf.size());
    pdf += fmt::format("{} 0 obj\n{}\nendobj\n", offsets.size(), body);
  };
  std::string kids;
  for (size_t page = 0; page < contents.size(); ++page)
    kids += fmt::format("{} 0 R ", 4 + 2 * page);
  add("<</Type/Catalog/Pages 2 0 R>>");
  add(fmt::format("<</Type/Pages/Kids[{}]/Count {}>>", kids, contents.size()));
  add("<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>");
  for (size_t page = 0; page < contents.size(); ++page) {
    add(
        fmt::format("<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]"
                    "/Resources<</Font<</F1 3 0 R>>>>/Contents {} 0 R>>",
                    5 + 2 * page));
    add(fmt::format("<</Length {}>>\nstream\n{}\nendstream", contents[page].size(),
                    contents[page]));
  }
  const size_t xref = pdf.size();
  pdf += fmt::format("xref\n0 {}\n0000000000 65535 f \n", offsets.size() + 1);
  for (const size_t offset : offsets) pdf += fmt::format("{:010} 00000 n \n", offset);
  pdf += fmt::format("trailer\n<</Size {}/Root 1 0 R>>\nstartxref\n{}\n%%EOF\n", offsets.size() + 1,
                     xref);
  return pdf;
}

// One line of 12-point text at (x, y).
std::string Line(int x, int y, std::string_view text) {
  return fmt::format("BT /F1 12 Tf {} {} Td ({}) Tj ET\n", x, y, text);
}

std::string PdfTextOf(const std::string& pdf) {
  PdfSource source;
  source.bytes = pdf;
  source.in_memory = true;
  const auto document = source.Open();
  REQUIRE(document != nullptr);
  auto text = ExtractPdfText(*document, source, {1u << 20, 1});
  REQUIRE(text.ok());
  return *text;
}

std::vector<std::string> Words(const std::string& text) {
  std::istringstream stream(text);  // >> splits on ' ', '\n', '\f' alike
  return {std::istream_iterator<std::string>(stream), {}};
}

// Lines "{prefix}{line}w0 ... {prefix}{line}w3" at x for lines [0, count), top down.
std::string Column(int x, std::string_view prefix, int count, std::vector<std::string>& words) {
  std::string content;
  for (int line = 0; line < count; ++line) {
    std::string text;
    for (int word = 0; word < 4; ++word) {
      words.push_back(fmt::format("{}{}w{}", prefix, line, word));
      text += (word == 0 ? "" : " ") + words.back();
    }
    content += Line(x, 780 - 16 * line, text);
  }
  return content;
}

void CheckPdf(const nlohmann::json& entry, const Registry& registry) {
  const std::string path = testing::CorpusPath(entry);
  INFO(path);
  auto result = ExtractFile(registry, path, Limits{});
  INFO((result ? std::string() : result.error().ToString()));
  REQUIRE(result.ok());
  const Extraction& extraction = result->extraction;
  const Description& element = extraction.element;
  CHECK(result->mime_type == "application/pdf");
  CHECK(extraction.extractor == "pdf");
  CHECK(element.types == std::vector<std::string>{vocab::Nfo("PaginatedTextDocument")});
  CHECK(One<std::string>(element, vocab::Nie("title")) == entry["title"].get<std::string>());
  CHECK(One<std::string>(element, vocab::Nie("subject")) == entry["subject"].get<std::string>());
  CHECK(One<int64_t>(element, vocab::Nfo("pageCount")) == entry["pages"].get<int64_t>());
  CHECK(One<DateTime>(element, vocab::Nie("contentCreated")) ==
        DateTime{entry["created"].get<std::string>()});
  CHECK(One<std::string>(element, vocab::Nie("generator")) == "gen-corpus");
  CHECK(One<std::string>(element, vocab::Nfo("producer")).has_value());
  // A4 in points.
  CHECK(One<double>(element, vocab::Nfo("pageWidth")).value_or(0) ==
        doctest::Approx(595).epsilon(0.01));
  CHECK(One<double>(element, vocab::Nfo("pageHeight")).value_or(0) ==
        doctest::Approx(842).epsilon(0.01));

  std::vector<Value> expected_keywords;
  for (const auto& keyword : entry["keywords"])
    expected_keywords.emplace_back(keyword.get<std::string>());
  CHECK(Values(element, vocab::Nie("keyword")) == expected_keywords);

  // The author is a nco:Contact named once, however many documents name it.
  const auto creator = One<Iri>(element, vocab::Nco("creator"));
  REQUIRE(creator.has_value());
  CHECK(creator->value == DeterministicIri("contact", {entry["author"].get<std::string>()}));
  const Description* contact = testing::Related(extraction, creator->value);
  REQUIRE(contact != nullptr);
  CHECK(One<std::string>(*contact, vocab::Nco("fullname")) == entry["author"].get<std::string>());

  const auto text = One<std::string>(element, vocab::Nie("plainTextContent"));
  REQUIRE(text.has_value());
  CHECK(text->find(entry["needle"].get<std::string>()) != std::string::npos);
  for (const auto& marker : entry["markers"]) {
    CHECK(text->find(marker.get<std::string>()) != std::string::npos);
  }
  const double words = static_cast<double>(CountWords(*text));
  CHECK(words == doctest::Approx(entry["words"].get<double>()).epsilon(0.02));
}

TEST_CASE("PDF module: every corpus PDF matches its manifest") {
  const Registry registry = BuiltinRegistry();
  const auto pdfs = testing::Entries({"pdf"});
  REQUIRE(pdfs.size() >= 5);
  for (const auto& entry : pdfs) CheckPdf(entry, registry);
}

TEST_CASE("PDF module: the text cap holds, cut on a code point, with one or two threads") {
  const Registry registry = BuiltinRegistry();
  const auto pdfs = testing::Entries({"pdf"});
  nlohmann::json longest = pdfs.front();
  for (const auto& entry : pdfs) {
    if (entry["pages"].get<int>() > longest["pages"].get<int>()) longest = entry;
  }
  REQUIRE(longest["pages"].get<int>() >= 6);  // enough pages for the two-thread path
  const std::string path = testing::CorpusPath(longest);
  Limits one_thread;
  one_thread.max_threads = 1;
  Limits two_threads;
  two_threads.max_threads = 2;
  auto single = ExtractFile(registry, path, one_thread);
  auto parallel = ExtractFile(registry, path, two_threads);
  REQUIRE(single.ok());
  REQUIRE(parallel.ok());
  CHECK(One<std::string>(single->extraction.element, vocab::Nie("plainTextContent")) ==
        One<std::string>(parallel->extraction.element, vocab::Nie("plainTextContent")));

  for (const unsigned threads : {1u, 2u}) {
    Limits capped;
    capped.max_text_bytes = 1001;
    capped.max_threads = threads;
    auto result = ExtractFile(registry, path, capped);
    REQUIRE(result.ok());
    const auto text = One<std::string>(result->extraction.element, vocab::Nie("plainTextContent"));
    REQUIRE(text.has_value());
    CHECK(text->size() <= 1001);
    CHECK(text->size() >= 995);
    const auto full = One<std::string>(single->extraction.element, vocab::Nie("plainTextContent"));
    CHECK(full->compare(0, text->size(), *text) == 0);  // a prefix, in page order
  }
}

TEST_CASE("PDF text: read into memory or from the file, the same text, one or two threads") {
  const auto pdfs = testing::Entries({"pdf"});
  REQUIRE_FALSE(pdfs.empty());
  for (const auto& entry : pdfs) {
    const std::string path = testing::CorpusPath(entry);
    INFO(path);
    auto in_memory = ReadPdfSource(path);
    auto from_file = ReadPdfSource(path, 0);  // nothing fits in memory: poppler reads the file
    REQUIRE(in_memory.ok());
    REQUIRE(from_file.ok());
    CHECK(in_memory->in_memory);
    CHECK_FALSE(from_file->in_memory);
    CHECK(from_file->bytes.empty());
    std::ifstream file(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(file), {}};
    CHECK(in_memory->bytes == bytes);  // the whole file, not a prefix
    const auto memory_document = in_memory->Open();
    const auto file_document = from_file->Open();
    REQUIRE(memory_document != nullptr);
    REQUIRE(file_document != nullptr);
    CHECK(memory_document->pages() == entry["pages"].get<int>());
    for (const unsigned threads : {1u, 2u}) {
      auto memory_text = ExtractPdfText(*memory_document, *in_memory, {1u << 20, threads});
      auto file_text = ExtractPdfText(*file_document, *from_file, {1u << 20, threads});
      REQUIRE(memory_text.ok());
      REQUIRE(file_text.ok());
      CHECK(*memory_text == *file_text);
      CHECK(memory_text->find(entry["needle"].get<std::string>()) != std::string::npos);
    }
  }
}

TEST_CASE("PDF text: an empty or missing file is an error, not a document") {
  const std::string empty = testing::kCorpusDir + "/../pdf_text_empty_test.pdf";
  std::ofstream(empty).close();
  auto read = ReadPdfSource(empty);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().code() == Errc::kCorrupt);
  std::remove(empty.c_str());
  auto missing = ReadPdfSource(empty);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code() == Errc::kNotFound);
}

TEST_CASE("PDF text: poppler's globals are held by one document that stays open") {
  CHECK(HoldPopplerGlobals());
  CHECK(HoldPopplerGlobals());  // idempotent
  // The process's documents come and go while the keeper stays: extraction still works after.
  const auto pdfs = testing::Entries({"pdf"});
  REQUIRE_FALSE(pdfs.empty());
  auto source = ReadPdfSource(testing::CorpusPath(pdfs.front()));
  REQUIRE(source.ok());
  for (int round = 0; round < 2; ++round) {
    const auto document = source->Open();
    REQUIRE(document != nullptr);
    auto text = ExtractPdfText(*document, *source, {1u << 20, 1});
    REQUIRE(text.ok());
    CHECK(text->find(pdfs.front()["needle"].get<std::string>()) != std::string::npos);
  }
}

// Issue 5: pages are taken in content-stream order (no block and column analysis), which is
// reading order for what generators write; these pin what that order must keep.
TEST_CASE("PDF text: two columns written one after the other read column by column") {
  std::vector<std::string> expected;
  std::string content = Column(50, "left", 10, expected);
  content += Column(320, "right", 10, expected);
  const std::string text = PdfTextOf(MakePdf({content}));
  INFO(text);
  CHECK(Words(text) == expected);  // in order, none glued to the next
}

TEST_CASE("PDF text: a line ending in a hyphen joins the next, as reading order does") {
  std::string content;
  content += Line(50, 780, "The first line ends in a broken exam-");
  content += Line(50, 764, "ple and goes on with more words");
  content += Line(50, 748, "until the last line of the page ends with a dash-");
  const std::string text = PdfTextOf(MakePdf({content, Line(50, 780, "next page words here")}));
  INFO(text);
  CHECK(text.find("broken example and goes") != std::string::npos);
  CHECK(text.find("exam-") == std::string::npos);
  // Not across the end of a page: the hyphen stays.
  CHECK(text.find("with a dash-\n") != std::string::npos);
  CHECK(text.find("\fnext page") != std::string::npos);
}

// Width in points of lower-case ASCII letters and digits in 12-point Helvetica (its AFM).
double HelveticaWidth(std::string_view word) {
  constexpr int kLetters[26] = {556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833,
                                556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500};
  int units = 0;
  for (const char c : word) units += c >= 'a' && c <= 'z' ? kLetters[c - 'a'] : 556;
  return units * 12 / 1000.0;
}

TEST_CASE("PDF text: a page whose words are drawn right to left is read left to right") {
  // Each line's words drawn from the last to the first, one space apart: in stream order every
  // word would be a line of its own, backwards.
  std::vector<std::string> expected;
  std::string content;
  for (int line = 0; line < 6; ++line) {
    std::vector<std::pair<double, std::string>> words;
    double x = 50;
    for (const char* stem : {"alpha", "bravo", "charlie", "delta"}) {
      words.emplace_back(x, fmt::format("{}{}", stem, line));
      expected.push_back(words.back().second);
      x += HelveticaWidth(words.back().second) + 278 * 12 / 1000.0;  // a space
    }
    for (auto word = words.rbegin(); word != words.rend(); ++word) {
      content += fmt::format("BT /F1 12 Tf {:.3f} {} Td ({}) Tj ET\n", word->first, 780 - 16 * line,
                             word->second);
    }
  }
  const std::string text = PdfTextOf(MakePdf({content}));
  INFO(text);
  CHECK(Words(text) == expected);
}

// The price of stream order (issue 5), pinned so a change of it is seen: a generator that writes
// both columns' lines in turn (left line, right line, ...) gets them interleaved line by line, as
// `pdftotext -raw` does (reading order gave column by column). No word is lost or glued.
TEST_CASE("PDF text: two columns written line by line across come out interleaved by line") {
  std::vector<std::string> left;
  std::vector<std::string> right;
  const std::string left_content = Column(50, "left", 10, left);
  const std::string right_content = Column(320, "right", 10, right);
  std::string content;
  std::istringstream left_lines(left_content);
  std::istringstream right_lines(right_content);
  for (std::string a, b; std::getline(left_lines, a) && std::getline(right_lines, b);) {
    content += a + "\n" + b + "\n";
  }
  std::vector<std::string> expected;  // Column() writes 4 words a line
  for (size_t line = 0; line * 4 < left.size(); ++line) {
    expected.insert(expected.end(), left.begin() + line * 4, left.begin() + line * 4 + 4);
    expected.insert(expected.end(), right.begin() + line * 4, right.begin() + line * 4 + 4);
  }
  const std::string text = PdfTextOf(MakePdf({content}));
  INFO(text);
  CHECK(Words(text) == expected);
}

}  // namespace
}  // namespace quarry::extract
