// The PDF module against gen-corpus ground truth: every PDF of the corpus, field by field.
#include <doctest/doctest.h>
#include <poppler-page.h>

#include <cstdio>
#include <fstream>

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

}  // namespace
}  // namespace quarry::extract
