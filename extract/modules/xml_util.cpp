#include "extract/modules/xml_util.h"

#include <algorithm>

#include "extract/modules/text_reader.h"

namespace quarry::extract {
namespace {

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

struct XmlCharDeleter {
  void operator()(xmlChar* text) const noexcept { xmlFree(text); }
};
using XmlString = std::unique_ptr<xmlChar, XmlCharDeleter>;

std::string FromXml(const xmlChar* text) {
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

}  // namespace

std::string_view NodeName(const xmlNode* node) {
  if (node->name == nullptr) return {};
  return reinterpret_cast<const char*>(node->name);
}

std::string_view NodeNamespace(const xmlNode* node) {
  if (node->ns == nullptr || node->ns->href == nullptr) return {};
  return reinterpret_cast<const char*>(node->ns->href);
}

std::string_view NodeContent(const xmlNode* node) {
  if (node->content == nullptr) return {};
  return reinterpret_cast<const char*>(node->content);
}

std::string NodeText(const xmlNode* node) {
  const XmlString text(xmlNodeGetContent(node));
  return FromXml(text.get());
}

std::string Attribute(const xmlNode* node, const char* name) {
  const XmlString value(xmlGetProp(node, reinterpret_cast<const xmlChar*>(name)));
  return FromXml(value.get());
}

std::string AsciiLower(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return lower;
}

std::string CollapseSpaces(std::string_view text) {
  std::string collapsed;
  collapsed.reserve(text.size());
  bool pending_space = false;
  for (const char c : text) {
    if (IsXmlSpace(c)) {
      pending_space = !collapsed.empty();
      continue;
    }
    if (pending_space) collapsed.push_back(' ');
    pending_space = false;
    collapsed.push_back(c);
  }
  return collapsed;
}

std::vector<std::string> SplitList(std::string_view text, std::string_view separators) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(separators, start);
    if (end == std::string_view::npos) end = text.size();
    std::string item = CollapseSpaces(text.substr(start, end - start));
    if (!item.empty()) items.push_back(std::move(item));
    start = end + 1;
  }
  return items;
}

void TextCollector::Push(char c) {
  if (is_full_) return;
  if (text_.size() >= max_bytes_) {
    is_full_ = true;
    TruncateUtf8(text_, max_bytes_);
    return;
  }
  text_.push_back(c);
}

void TextCollector::Append(std::string_view text) {
  for (const char c : text) {
    if (is_full_) return;
    if (IsXmlSpace(c)) {
      pending_space_ = true;
      continue;
    }
    if (!text_.empty()) {
      if (pending_break_) {
        Push('\n');
      } else if (pending_space_) {
        Push(' ');
      }
    }
    pending_break_ = false;
    pending_space_ = false;
    Push(c);
  }
}

void TextCollector::Break() { pending_break_ = true; }

void TextCollector::AppendRaw(char c) {
  pending_space_ = false;
  pending_break_ = false;
  Push(c);
}

std::string TextCollector::Take() && {
  // A byte-wise cap may have cut a character whose remaining bytes never arrived.
  if (!text_.empty()) {
    size_t lead = text_.size();
    while (lead > 0 && (static_cast<unsigned char>(text_[lead - 1]) & 0xC0) == 0x80) --lead;
    if (lead > 0) {
      const auto byte = static_cast<unsigned char>(text_[lead - 1]);
      const size_t length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
      if (lead - 1 + length > text_.size()) text_.resize(lead - 1);
    }
  }
  return std::move(text_);
}

}  // namespace quarry::extract
