// The office-document module on .odt and .docx files built here with libzip (the corpus has
// none): metadata, body text, and zip bombs refused with a clear error.
#include <doctest/doctest.h>
#include <zip.h>

#include <utility>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/office_module.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

using testing::One;
using Members = std::vector<std::pair<std::string, std::string>>;

// Writes a zip with the given members (deflated), as office suites do.
std::string WriteZip(const testing::TempDir& dir, const std::string& name, const Members& members) {
  const std::string path = (dir / name).string();
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(archive != nullptr);
  for (const auto& [member, data] : members) {
    zip_source_t* source = zip_source_buffer(archive, data.data(), data.size(), 0);
    REQUIRE(source != nullptr);
    REQUIRE(zip_file_add(archive, member.c_str(), source, ZIP_FL_ENC_UTF_8) >= 0);
  }
  REQUIRE(zip_close(archive) == 0);  // reads the buffers, which `members` still holds
  return path;
}

Result<Extraction> RunOffice(const std::string& path, const Limits& limits = {}) {
  Extraction out;
  out.extractor = "office";
  QUARRY_TRY(MakeOfficeModule()->Extract({path, "application/zip"}, limits, out));
  return out;
}

const Members kOdt = {
    {"mimetype", "application/vnd.oasis.opendocument.text"},
    {"meta.xml",
     R"(<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
  xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta>
 <meta:generator>LibreOffice/7.4</meta:generator>
 <dc:title>Quarterly Report</dc:title><dc:subject>Sales</dc:subject>
 <meta:initial-creator>Ana Souza</meta:initial-creator><dc:creator>Bob Editor</dc:creator>
 <meta:creation-date>2023-04-05T10:11:12.123456789</meta:creation-date>
 <dc:date>2023-05-06T07:08:09Z</dc:date>
 <meta:keyword>sales</meta:keyword><meta:keyword>Q1</meta:keyword>
 <meta:document-statistic meta:page-count="3" meta:word-count="7"/>
</office:meta></office:document-meta>)"},
    {"content.xml",
     R"(<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>
<text:h>Heading zqxodtaa</text:h><text:p>First<text:s/>para<text:tab/>graph with
 caf&#233;</text:p><text:p>Second<text:line-break/>line</text:p>
</office:text></office:body></office:document-content>)"}};

TEST_CASE("office: an OpenDocument text, metadata and body") {
  const testing::TempDir dir;
  auto extraction = RunOffice(WriteZip(dir, "report.odt", kOdt));
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  const Description& element = extraction->element;
  CHECK(element.types == std::vector<std::string>{vocab::Nfo("PaginatedTextDocument")});
  CHECK(One<std::string>(element, vocab::Nie("title")) == "Quarterly Report");
  CHECK(One<std::string>(element, vocab::Nie("subject")) == "Sales");
  CHECK(One<std::string>(element, vocab::Nie("generator")) == "LibreOffice/7.4");
  CHECK(One<DateTime>(element, vocab::Nie("contentCreated")) ==
        DateTime{"2023-04-05T10:11:12.123456789"});
  CHECK(One<DateTime>(element, vocab::Nie("contentLastModified")) ==
        DateTime{"2023-05-06T07:08:09Z"});
  CHECK(One<int64_t>(element, vocab::Nfo("pageCount")) == 3);
  CHECK(One<int64_t>(element, vocab::Nfo("wordCount")) == 7);
  CHECK(testing::Values(element, vocab::Nie("keyword")) ==
        std::vector<Value>{std::string("sales"), std::string("Q1")});
  CHECK(One<Iri>(element, vocab::Nco("creator")) == Iri{DeterministicIri("contact", {"Ana Souza"})});
  CHECK(One<Iri>(element, vocab::Nco("contributor")) ==
        Iri{DeterministicIri("contact", {"Bob Editor"})});
  CHECK(One<std::string>(element, vocab::Nie("plainTextContent")) ==
        "Heading zqxodtaa\nFirst para\tgraph with caf\xC3\xA9\nSecond\nline");
}

TEST_CASE("office: an OOXML word document, metadata and body") {
  const testing::TempDir dir;
  const Members docx = {
      {"[Content_Types].xml", "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"},
      {"docProps/core.xml",
       R"(<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <dc:title>Letter</dc:title><dc:creator>Chidi Okafor</dc:creator>
 <cp:keywords>alpha, beta; gamma</cp:keywords><cp:lastModifiedBy>Chidi Okafor</cp:lastModifiedBy>
 <dcterms:created xsi:type="dcterms:W3CDTF">2021-01-02T03:04:05Z</dcterms:created>
 <dcterms:modified xsi:type="dcterms:W3CDTF">not a date</dcterms:modified>
</cp:coreProperties>)"},
      {"docProps/app.xml",
       R"(<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">
 <Pages>2</Pages><Application>Microsoft Office Word</Application></Properties>)"},
      {"word/document.xml",
       R"(<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>Dear</w:t></w:r><w:r><w:t xml:space="preserve"> reader,</w:t></w:r></w:p>
<w:p><w:r><w:instrText>PAGE \* MERGEFORMAT</w:instrText><w:t>zqxdocxa</w:t><w:tab/><w:t>end</w:t></w:r></w:p>
</w:body></w:document>)"}};
  auto extraction = RunOffice(WriteZip(dir, "letter.docx", docx));
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  const Description& element = extraction->element;
  CHECK(One<std::string>(element, vocab::Nie("title")) == "Letter");
  CHECK(One<std::string>(element, vocab::Nie("generator")) == "Microsoft Office Word");
  CHECK(One<DateTime>(element, vocab::Nie("contentCreated")) == DateTime{"2021-01-02T03:04:05Z"});
  CHECK(testing::Values(element, vocab::Nie("contentLastModified")).empty());  // "not a date"
  CHECK(One<int64_t>(element, vocab::Nfo("pageCount")) == 2);
  CHECK(testing::Values(element, vocab::Nie("keyword")).size() == 3);
  CHECK(One<Iri>(element, vocab::Nco("creator")) ==
        Iri{DeterministicIri("contact", {"Chidi Okafor"})});
  CHECK(testing::Values(element, vocab::Nco("contributor")).empty());  // same person
  CHECK(One<std::string>(element, vocab::Nie("plainTextContent")) ==
        "Dear reader,\nzqxdocxa\tend");
  CHECK(One<int64_t>(element, vocab::Nfo("wordCount")) == 4);  // counted: app.xml has none
}

TEST_CASE("office: zip bombs are refused with a clear error") {
  const testing::TempDir dir;
  SUBCASE("a member that inflates 1000x") {
    Members bomb = kOdt;
    bomb.emplace_back("Pictures/bomb.xml", std::string(8 << 20, ' '));
    auto extraction = RunOffice(WriteZip(dir, "bomb.odt", bomb));
    REQUIRE_FALSE(extraction.ok());
    CHECK(extraction.error().message().find("zip bomb refused") != std::string::npos);
    CHECK(extraction.error().message().find("Pictures/bomb.xml") != std::string::npos);
  }
  SUBCASE("members declaring more than max_unpacked_bytes") {
    Limits limits;
    limits.max_unpacked_bytes = 1000;
    auto extraction = RunOffice(WriteZip(dir, "big.odt", kOdt), limits);
    REQUIRE_FALSE(extraction.ok());
    CHECK(extraction.error().message().find("limit 1000") != std::string::npos);
  }
}

TEST_CASE("office: not a text document, broken XML, not a zip: clear errors") {
  const testing::TempDir dir;
  auto plain_zip = RunOffice(testing::kCorpusDir + "/hostile/wrong-ext/zip-not-docx.docx");
  REQUIRE_FALSE(plain_zip.ok());
  CHECK(plain_zip.error().message().find("not a text document") != std::string::npos);

  Members broken = kOdt;
  broken.back().second = "<office:document-content><unclosed>";
  auto bad_xml = RunOffice(WriteZip(dir, "broken.odt", broken));
  REQUIRE_FALSE(bad_xml.ok());
  CHECK(bad_xml.error().message().find("content.xml is not well-formed XML") != std::string::npos);

  auto not_zip = RunOffice(dir.Write("fake.docx", "plain text").string());
  REQUIRE_FALSE(not_zip.ok());
  CHECK(not_zip.error().message().find("not a readable zip archive") != std::string::npos);
}

TEST_CASE("office: the body text cap holds") {
  const testing::TempDir dir;
  Members long_doc = kOdt;
  std::string body = R"(<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>)";
  for (int i = 0; i < 5000; ++i) body += "<text:p>some words here</text:p>";
  body += "</office:body></office:document-content>";
  long_doc.back().second = body;
  Limits limits;
  limits.max_text_bytes = 2000;
  auto extraction = RunOffice(WriteZip(dir, "long.odt", long_doc), limits);
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  const auto text = One<std::string>(extraction->element, vocab::Nie("plainTextContent"));
  REQUIRE(text.has_value());
  CHECK(text->size() <= 2000);
  CHECK(text->size() > 1900);
}

}  // namespace
}  // namespace quarry::extract
