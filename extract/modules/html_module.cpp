#include "extract/modules/html_module.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <climits>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "extract/core/vocab.h"
#include "extract/modules/related.h"
#include "extract/modules/text_reader.h"
#include "extract/modules/xml_util.h"

namespace quarry::extract {
namespace {

// Markup outweighs text: read up to this many times the text budget of the source.
constexpr size_t kSourceBudgetFactor = 8;

constexpr std::array<std::string_view, 5> kInvisible = {"script", "style", "noscript",
                                                        "template", "head"};
constexpr std::array<std::string_view, 28> kBlocks = {
    "p",     "div",     "br",      "li",     "ul",         "ol",     "h1",
    "h2",    "h3",      "h4",      "h5",     "h6",         "tr",     "table",
    "td",    "th",      "section", "article", "header",    "footer", "pre",
    "blockquote", "hr", "dt",      "dd",     "nav",        "aside",  "main"};

template <size_t N>
bool IsOneOf(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct PageFacts {
  std::string title;
  std::string author;
  std::string keywords;
  std::string description;
  std::string text;
  bool text_complete = true;
};

void ReadHeadElement(const xmlNode* node, std::string_view name, PageFacts& facts) {
  if (name == "title" && facts.title.empty()) {
    facts.title = CollapseSpaces(NodeText(node));
    return;
  }
  if (name != "meta") return;
  const std::string meta_name = AsciiLower(Attribute(node, "name"));
  std::string content = CollapseSpaces(Attribute(node, "content"));
  if (meta_name == "author") facts.author = std::move(content);
  if (meta_name == "keywords") facts.keywords = std::move(content);
  if (meta_name == "description") facts.description = std::move(content);
}

// <title> and <meta> are children of <head>, which the text walk skips.
void ReadHead(const xmlNode* root, PageFacts& facts) {
  for (const xmlNode* child = root->children; child != nullptr; child = child->next) {
    if (child->type != XML_ELEMENT_NODE || NodeName(child) != "head") continue;
    for (const xmlNode* item = child->children; item != nullptr; item = item->next) {
      if (item->type == XML_ELEMENT_NODE) ReadHeadElement(item, NodeName(item), facts);
    }
  }
}

// Depth-first without recursion: a page nested 100,000 levels deep must not blow the stack.
void Walk(const xmlNode* root, size_t max_text_bytes, PageFacts& facts) {
  TextCollector text(max_text_bytes);
  const xmlNode* node = root;
  while (node != nullptr) {
    bool descend = true;
    if (node->type == XML_ELEMENT_NODE) {
      const std::string_view name = NodeName(node);
      if (IsOneOf(name, kInvisible)) descend = false;
      if (IsOneOf(name, kBlocks)) text.Break();
    } else if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
      text.Append(NodeContent(node));
    }
    if (text.is_full()) break;
    if (descend && node->children != nullptr) {
      node = node->children;
      continue;
    }
    // Up to the next sibling, closing the blocks left on the way.
    for (;;) {
      if (node == root) {
        node = nullptr;
        break;
      }
      if (node->next != nullptr) {
        node = node->next;
        break;
      }
      node = node->parent;
      if (node == nullptr) break;
      if (node->type == XML_ELEMENT_NODE && IsOneOf(NodeName(node), kBlocks)) text.Break();
    }
  }
  facts.text_complete = !text.is_full();
  facts.text = std::move(text).Take();
}

void AddFacts(PageFacts& facts, Extraction& out) {
  Description& element = out.element;
  element.AddType(vocab::Nfo("HtmlDocument"));
  if (!facts.title.empty()) element.Add(vocab::Nie("title"), std::move(facts.title));
  if (!facts.description.empty()) {
    element.Add(vocab::Nie("description"), std::move(facts.description));
  }
  if (!facts.author.empty()) AddRelated(out, vocab::Nco("creator"), MakeContact(facts.author));
  for (std::string& keyword : SplitList(facts.keywords, ",;")) {
    element.Add(vocab::Nie("keyword"), std::move(keyword));
  }
  if (facts.text_complete) {
    const TextCounts counts = CountText(facts.text);
    element.Add(vocab::Nfo("wordCount"), counts.words);
    element.Add(vocab::Nfo("characterCount"), counts.characters);
  }
  if (!facts.text.empty()) element.Add(vocab::Nie("plainTextContent"), std::move(facts.text));
}

class HtmlModule final : public Module {
 public:
  std::string_view name() const override { return "html"; }
  std::vector<std::string> mime_types() const override {
    return {"text/html", "application/xhtml+xml"};
  }
  std::vector<std::string> extensions() const override {
    return {"html", "htm", "xhtml", "shtml"};
  }

  Result<void> Extract(const FileInput& file, const Limits& limits,
                       Extraction& out) const override {
    const size_t source_budget = limits.max_text_bytes * kSourceBudgetFactor;
    QUARRY_ASSIGN_OR_RETURN(const FilePrefix source, ReadFilePrefix(file.path, source_budget));
    QUARRY_ASSIGN_OR_RETURN(
        const DecodedText decoded,
        DecodeText(source.bytes, source.is_complete, source_budget, file.path));
    if (decoded.utf8.size() > static_cast<size_t>(INT_MAX)) {
      return Error(Errc::kUnsupported, fmt::format("{}: page too large", file.path));
    }
    // Already UTF-8, so libxml2 is told so; NONET keeps it off the network whatever the page says.
    const int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                        HTML_PARSE_NONET | HTML_PARSE_COMPACT;
    const XmlDocHandle doc(htmlReadMemory(decoded.utf8.data(),
                                          static_cast<int>(decoded.utf8.size()), nullptr,
                                          "UTF-8", options));
    PageFacts facts;
    if (doc) {
      const xmlNode* root = xmlDocGetRootElement(doc.get());
      if (root != nullptr) {
        ReadHead(root, facts);
        Walk(root, limits.max_text_bytes, facts);
      }
    } else if (!decoded.utf8.empty()) {
      return Error(Errc::kParse, fmt::format("{}: libxml2 cannot parse it as HTML", file.path));
    }
    if (!source.is_complete) facts.text_complete = false;
    AddFacts(facts, out);
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakeHtmlModule() { return std::make_unique<HtmlModule>(); }

}  // namespace quarry::extract
