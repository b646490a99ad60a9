// PDF: document info (title, author, subject, keywords, creator, producer, dates), pages and
// their size, and the page text. poppler's error chatter goes nowhere: a broken file is one
// Error returned to the caller, not lines on stderr.
#include "extract/modules/pdf_module.h"

#include <fmt/format.h>
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <ctime>
#include <mutex>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/pdf_text.h"

namespace quarry::extract {
namespace {

void SilencePoppler() {
  static std::once_flag once;
  std::call_once(once, [] {
    poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr);
    (void)HoldPopplerGlobals();
  });
}

std::string Utf8(const poppler::ustring& text) {
  const poppler::byte_array bytes = text.to_utf8();
  std::string utf8(bytes.begin(), bytes.end());
  // Info strings sometimes carry a trailing NUL or padding; it is not part of the value.
  while (!utf8.empty() && (utf8.back() == '\0' || utf8.back() == ' ')) utf8.pop_back();
  return utf8;
}

void AddString(Description& element, std::string property, const poppler::ustring& text) {
  std::string value = Utf8(text);
  if (!value.empty()) element.Add(std::move(property), std::move(value));
}

void AddDate(Description& element, std::string property, time_t when) {
  if (when == static_cast<time_t>(-1)) return;  // poppler's "absent or unparsable"
  std::tm utc{};
  if (gmtime_r(&when, &utc) == nullptr) return;
  char lexical[32];
  if (std::strftime(lexical, sizeof lexical, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) return;
  element.Add(std::move(property), DateTime{lexical});
}

// "a, b; c" → one nie:keyword per entry, as Tracker stores them.
void AddKeywords(Description& element, const std::string& keywords) {
  size_t start = 0;
  while (start <= keywords.size()) {
    size_t end = keywords.find_first_of(",;", start);
    if (end == std::string::npos) end = keywords.size();
    size_t first = keywords.find_first_not_of(" \t", start);
    size_t last = end;
    while (last > start && (keywords[last - 1] == ' ' || keywords[last - 1] == '\t')) --last;
    if (first != std::string::npos && first < last) {
      element.Add(vocab::Nie("keyword"), keywords.substr(first, last - first));
    }
    start = end + 1;
  }
}

void AddAuthor(const std::string& author, Extraction& out) {
  if (author.empty()) return;
  Description contact;
  contact.iri = DeterministicIri("contact", {author});
  contact.AddType(vocab::Nco("Contact"));
  contact.Add(vocab::Nco("fullname"), author);
  out.element.Add(vocab::Nco("creator"), Iri{contact.iri});
  out.related.push_back(std::move(contact));
}

void AddInfo(const poppler::document& document, Extraction& out) {
  Description& element = out.element;
  AddString(element, vocab::Nie("title"), document.get_title());
  AddAuthor(Utf8(document.get_author()), out);
  AddString(element, vocab::Nie("subject"), document.get_subject());
  AddKeywords(element, Utf8(document.get_keywords()));
  AddString(element, vocab::Nie("generator"), document.get_creator());
  AddString(element, vocab::Nfo("producer"), document.get_producer());
  AddDate(element, vocab::Nie("contentCreated"), document.get_creation_date_t());
  AddDate(element, vocab::Nie("contentLastModified"), document.get_modification_date_t());
}

void AddPages(const poppler::document& document, Description& element) {
  const int pages = document.pages();
  element.Add(vocab::Nfo("pageCount"), int64_t{pages});
  if (pages == 0) return;
  const std::unique_ptr<poppler::page> first(document.create_page(0));
  if (!first) return;
  const poppler::rectf box = first->page_rect(poppler::media_box);
  if (box.width() > 0 && box.height() > 0) {
    element.Add(vocab::Nfo("pageWidth"), box.width());
    element.Add(vocab::Nfo("pageHeight"), box.height());
  }
}

class PdfModule final : public Module {
 public:
  std::string_view name() const override { return "pdf"; }
  std::vector<std::string> mime_types() const override {
    return {"application/pdf", "application/x-pdf"};
  }
  std::vector<std::string> extensions() const override { return {"pdf"}; }

  Result<void> Extract(const FileInput& file, const Limits& limits,
                       Extraction& out) const override {
    SilencePoppler();
    QUARRY_ASSIGN_OR_RETURN(const PdfSource source, ReadPdfSource(file.path));
    const std::unique_ptr<poppler::document> document = source.Open();
    if (!document) {
      return Error(
          Errc::kCorrupt,
          fmt::format("{}: not a readable PDF (damaged, truncated or not a PDF)", file.path));
    }
    if (document->is_locked()) {
      return Error(Errc::kUnsupported,
                   fmt::format("{}: the PDF is encrypted and needs a password", file.path));
    }
    out.element.AddType(vocab::Nfo("PaginatedTextDocument"));
    AddInfo(*document, out);
    AddPages(*document, out.element);
    QUARRY_ASSIGN_OR_RETURN(
        std::string text,
        ExtractPdfText(*document, source, {limits.max_text_bytes, limits.max_threads}));
    if (!text.empty()) out.element.Add(vocab::Nie("plainTextContent"), std::move(text));
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakePdfModule() { return std::make_unique<PdfModule>(); }

}  // namespace quarry::extract
