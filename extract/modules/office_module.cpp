#include "extract/modules/office_module.h"

#include <libxml/parser.h>

#include <charconv>
#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "extract/core/vocab.h"
#include "extract/modules/office_body.h"
#include "extract/modules/related.h"
#include "extract/modules/text_reader.h"
#include "extract/modules/xml_util.h"
#include "extract/modules/zip_archive.h"

namespace quarry::extract {
namespace {

constexpr std::string_view kDcNs = "http://purl.org/dc/elements/1.1/";
constexpr std::string_view kDcTermsNs = "http://purl.org/dc/terms/";
constexpr std::string_view kOdfMetaNs = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0";
constexpr std::string_view kCorePropsNs =
    "http://schemas.openxmlformats.org/package/2006/metadata/core-properties";
constexpr std::string_view kAppPropsNs =
    "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties";
// Metadata members are a few KiB; anything bigger is not a real document.
constexpr uint64_t kMaxMetadataBytes = 4 << 20;

struct DocumentFacts {
  std::string title, subject, description, creator, contributor, created, modified, generator;
  std::vector<std::string> keywords;
  std::optional<int64_t> pages, words;
};

std::optional<int64_t> ParseCount(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

Result<XmlDocHandle> ParseMember(const ZipArchive& archive, std::string_view member) {
  QUARRY_ASSIGN_OR_RETURN(const std::string data,
                          archive.ReadMember(member, kMaxMetadataBytes));
  XmlDocHandle doc(xmlReadMemory(data.data(), static_cast<int>(data.size()), nullptr, nullptr,
                                 XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (!doc || xmlDocGetRootElement(doc.get()) == nullptr) {
    return Error(Errc::kParse,
                 fmt::format("{}: {} is not well-formed XML", archive.path(), member));
  }
  return doc;
}

// <office:document-meta><office:meta> dc:title, meta:initial-creator … </office:meta>
void ReadOdfMeta(const xmlNode* root, DocumentFacts& facts) {
  for (const xmlNode* meta = root->children; meta != nullptr; meta = meta->next) {
    if (meta->type != XML_ELEMENT_NODE || NodeName(meta) != "meta") continue;
    for (const xmlNode* item = meta->children; item != nullptr; item = item->next) {
      if (item->type != XML_ELEMENT_NODE) continue;
      const std::string_view ns = NodeNamespace(item);
      const std::string_view name = NodeName(item);
      std::string value = CollapseSpaces(NodeText(item));
      if (ns == kDcNs && name == "title") facts.title = std::move(value);
      if (ns == kDcNs && name == "subject") facts.subject = std::move(value);
      if (ns == kDcNs && name == "description") facts.description = std::move(value);
      if (ns == kDcNs && name == "creator") facts.contributor = std::move(value);
      if (ns == kDcNs && name == "date") facts.modified = std::move(value);
      if (ns == kOdfMetaNs && name == "initial-creator") facts.creator = std::move(value);
      if (ns == kOdfMetaNs && name == "creation-date") facts.created = std::move(value);
      if (ns == kOdfMetaNs && name == "generator") facts.generator = std::move(value);
      if (ns == kOdfMetaNs && name == "keyword" && !value.empty()) {
        facts.keywords.push_back(std::move(value));
      }
      if (ns == kOdfMetaNs && name == "document-statistic") {
        facts.pages = ParseCount(Attribute(item, "page-count"));
        facts.words = ParseCount(Attribute(item, "word-count"));
      }
    }
  }
  // dc:creator is whoever saved last; the author is meta:initial-creator when there is one.
  if (facts.creator.empty()) std::swap(facts.creator, facts.contributor);
}

// docProps/core.xml: <cp:coreProperties> dc:title, dc:creator, dcterms:created …
void ReadOoxmlCore(const xmlNode* root, DocumentFacts& facts) {
  for (const xmlNode* item = root->children; item != nullptr; item = item->next) {
    if (item->type != XML_ELEMENT_NODE) continue;
    const std::string_view ns = NodeNamespace(item);
    const std::string_view name = NodeName(item);
    std::string value = CollapseSpaces(NodeText(item));
    if (ns == kDcNs && name == "title") facts.title = std::move(value);
    if (ns == kDcNs && name == "subject") facts.subject = std::move(value);
    if (ns == kDcNs && name == "description") facts.description = std::move(value);
    if (ns == kDcNs && name == "creator") facts.creator = std::move(value);
    if (ns == kCorePropsNs && name == "lastModifiedBy") facts.contributor = std::move(value);
    if (ns == kCorePropsNs && name == "keywords") facts.keywords = SplitList(value, ",;");
    if (ns == kDcTermsNs && name == "created") facts.created = std::move(value);
    if (ns == kDcTermsNs && name == "modified") facts.modified = std::move(value);
  }
}

// docProps/app.xml: <Properties> Pages, Words, Application
void ReadOoxmlApp(const xmlNode* root, DocumentFacts& facts) {
  for (const xmlNode* item = root->children; item != nullptr; item = item->next) {
    if (item->type != XML_ELEMENT_NODE || NodeNamespace(item) != kAppPropsNs) continue;
    const std::string_view name = NodeName(item);
    const std::string value = CollapseSpaces(NodeText(item));
    if (name == "Pages") facts.pages = ParseCount(value);
    if (name == "Words") facts.words = ParseCount(value);
    if (name == "Application") facts.generator = value;
  }
}

Result<DocumentFacts> ReadFacts(const ZipArchive& archive, OfficeFormat format) {
  DocumentFacts facts;
  if (format == OfficeFormat::kOpenDocument) {
    if (archive.Contains("meta.xml")) {
      QUARRY_ASSIGN_OR_RETURN(const XmlDocHandle meta, ParseMember(archive, "meta.xml"));
      ReadOdfMeta(xmlDocGetRootElement(meta.get()), facts);
    }
    return facts;
  }
  if (archive.Contains("docProps/core.xml")) {
    QUARRY_ASSIGN_OR_RETURN(const XmlDocHandle core, ParseMember(archive, "docProps/core.xml"));
    ReadOoxmlCore(xmlDocGetRootElement(core.get()), facts);
  }
  if (archive.Contains("docProps/app.xml")) {
    QUARRY_ASSIGN_OR_RETURN(const XmlDocHandle app, ParseMember(archive, "docProps/app.xml"));
    ReadOoxmlApp(xmlDocGetRootElement(app.get()), facts);
  }
  return facts;
}

void AddString(Description& element, std::string property, std::string value) {
  if (!value.empty()) element.Add(std::move(property), std::move(value));
}

void AddFacts(DocumentFacts& facts, BodyText& body, Extraction& out) {
  Description& element = out.element;
  element.AddType(vocab::Nfo("PaginatedTextDocument"));
  AddString(element, vocab::Nie("title"), std::move(facts.title));
  AddString(element, vocab::Nie("subject"), std::move(facts.subject));
  AddString(element, vocab::Nie("description"), std::move(facts.description));
  AddString(element, vocab::Nie("generator"), std::move(facts.generator));
  for (std::string& keyword : facts.keywords) element.Add(vocab::Nie("keyword"), keyword);
  if (const auto created = CheckedDateTime(facts.created)) {
    element.Add(vocab::Nie("contentCreated"), *created);
  }
  if (const auto modified = CheckedDateTime(facts.modified)) {
    element.Add(vocab::Nie("contentLastModified"), *modified);
  }
  if (facts.pages) element.Add(vocab::Nfo("pageCount"), *facts.pages);
  if (!facts.words && body.is_complete) facts.words = CountText(body.text).words;
  if (facts.words) element.Add(vocab::Nfo("wordCount"), *facts.words);
  if (!facts.creator.empty()) AddRelated(out, vocab::Nco("creator"), MakeContact(facts.creator));
  if (!facts.contributor.empty() && facts.contributor != facts.creator) {
    AddRelated(out, vocab::Nco("contributor"), MakeContact(facts.contributor));
  }
  AddString(element, vocab::Nie("plainTextContent"), std::move(body.text));
}

class OfficeModule final : public Module {
 public:
  std::string_view name() const override { return "office"; }
  std::vector<std::string> mime_types() const override {
    return {"application/vnd.oasis.opendocument.text",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"};
  }
  std::vector<std::string> extensions() const override { return {"odt", "docx"}; }

  Result<void> Extract(const FileInput& file, const Limits& limits,
                       Extraction& out) const override {
    QUARRY_ASSIGN_OR_RETURN(const ZipArchive archive,
                            ZipArchive::Open(file.path, limits.max_unpacked_bytes));
    // The members decide the format, not the name: a .docx may be any zip.
    OfficeFormat format = OfficeFormat::kOpenDocument;
    if (archive.Contains("word/document.xml")) {
      format = OfficeFormat::kOoxml;
    } else if (!archive.Contains("content.xml")) {
      return Error(Errc::kUnsupported,
                   fmt::format("{}: a zip but not a text document (neither content.xml nor "
                               "word/document.xml inside)",
                               file.path));
    }
    QUARRY_ASSIGN_OR_RETURN(DocumentFacts facts, ReadFacts(archive, format));
    QUARRY_ASSIGN_OR_RETURN(BodyText body,
                            ReadBodyText(archive, format, limits.max_text_bytes));
    AddFacts(facts, body, out);
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakeOfficeModule() { return std::make_unique<OfficeModule>(); }

}  // namespace quarry::extract
