#include "extract/modules/office_body.h"

#include <libxml/xmlreader.h>

#include <climits>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "extract/modules/xml_util.h"

namespace quarry::extract {
namespace {

constexpr std::string_view kOdfTextNs = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
constexpr std::string_view kWordNs = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

struct ReaderDeleter {
  void operator()(xmlTextReader* reader) const noexcept { xmlFreeTextReader(reader); }
};

// Feeds libxml2 from the zip member and keeps the first error for the caller.
struct MemberInput {
  ZipMemberReader reader;
  std::optional<Error> error;
};

int ReadCallback(void* context, char* buffer, int length) {
  auto* input = static_cast<MemberInput*>(context);
  Result<size_t> got = input->reader.Read(buffer, static_cast<size_t>(length));
  if (!got) {
    input->error = std::move(got).error();
    return -1;
  }
  return static_cast<int>(*got);
}

int CloseCallback(void*) { return 0; }

std::string_view Str(const xmlChar* text) {
  return text == nullptr ? std::string_view() : reinterpret_cast<const char*>(text);
}

// What an element means for the text: a paragraph break, a tab, a space, text to keep.
void OnElement(std::string_view ns, std::string_view name, OfficeFormat format,
               TextCollector& text, bool& in_text_run) {
  if (format == OfficeFormat::kOpenDocument) {
    if (ns != kOdfTextNs) return;
    if (name == "p" || name == "h" || name == "list-item") text.Break();
    if (name == "tab") text.AppendRaw('\t');
    if (name == "line-break") text.AppendRaw('\n');
    if (name == "s") text.Append(" ");
    return;
  }
  if (ns != kWordNs) return;
  if (name == "t") in_text_run = true;
  if (name == "p") text.Break();
  if (name == "tab") text.AppendRaw('\t');
  if (name == "br" || name == "cr") text.AppendRaw('\n');
}

}  // namespace

Result<BodyText> ReadBodyText(const ZipArchive& archive, OfficeFormat format,
                              size_t max_text_bytes) {
  const std::string_view member =
      format == OfficeFormat::kOpenDocument ? "content.xml" : "word/document.xml";
  QUARRY_ASSIGN_OR_RETURN(ZipMemberReader reader, archive.OpenMember(member));
  MemberInput input{std::move(reader), std::nullopt};
  const std::unique_ptr<xmlTextReader, ReaderDeleter> xml(
      xmlReaderForIO(ReadCallback, CloseCallback, &input, nullptr, nullptr,
                     XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (!xml) return Error(Errc::kInternal, "libxml2: cannot create a streaming reader");
  TextCollector text(max_text_bytes);
  bool in_text_run = false;  // OOXML keeps text only inside <w:t>
  int status = 0;
  while (!text.is_full() && (status = xmlTextReaderRead(xml.get())) == 1) {
    const int type = xmlTextReaderNodeType(xml.get());
    if (type == XML_READER_TYPE_ELEMENT) {
      OnElement(Str(xmlTextReaderConstNamespaceUri(xml.get())),
                Str(xmlTextReaderConstLocalName(xml.get())), format, text, in_text_run);
      if (xmlTextReaderIsEmptyElement(xml.get()) == 1) in_text_run = false;
    } else if (type == XML_READER_TYPE_END_ELEMENT) {
      in_text_run = false;
    } else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
               type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
      if (format == OfficeFormat::kOpenDocument || in_text_run) {
        text.Append(Str(xmlTextReaderConstValue(xml.get())));
      }
    }
  }
  if (input.error) return std::move(*input.error);
  if (status < 0) {
    return Error(Errc::kParse,
                 fmt::format("{}: {} is not well-formed XML", archive.path(), member));
  }
  BodyText body;
  body.is_complete = !text.is_full();
  body.text = std::move(text).Take();
  return body;
}

}  // namespace quarry::extract
