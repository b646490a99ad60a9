// Small helpers over libxml2 shared by the HTML and office-document modules: the one owner of
// an xmlDoc, node name/text access as std::string, and a capped text collector that collapses
// whitespace the way a browser shows it.
// Thread-safety: values only; libxml2 itself is used from one thread per document.
#pragma once

#include <libxml/tree.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace quarry::extract {

struct XmlDocDeleter {
  void operator()(xmlDoc* doc) const noexcept { xmlFreeDoc(doc); }
};
using XmlDocHandle = std::unique_ptr<xmlDoc, XmlDocDeleter>;

// The element's local name (no prefix), "" for unnamed nodes.
std::string_view NodeName(const xmlNode* node);
// The element's namespace URI, "" when it has none.
std::string_view NodeNamespace(const xmlNode* node);
// A text node's own content (not its children's).
std::string_view NodeContent(const xmlNode* node);
// All text below the node, concatenated.
std::string NodeText(const xmlNode* node);
// An attribute's value, "" when absent.
std::string Attribute(const xmlNode* node, const char* name);

std::string AsciiLower(std::string_view text);
// Whitespace runs become one space; leading and trailing whitespace goes.
std::string CollapseSpaces(std::string_view text);
// Splits on any of `separators`, trims, drops empty items.
std::vector<std::string> SplitList(std::string_view text, std::string_view separators);

// Builds the plain text of a document: runs of whitespace become one space, Break() starts a
// new line (once, however many blocks close), and nothing beyond `max_bytes` is kept.
class TextCollector {
 public:
  explicit TextCollector(size_t max_bytes) : max_bytes_(max_bytes) {}
  void Append(std::string_view text);
  void Break();
  // Appends a literal tab or newline (ODF <text:tab/>, <text:line-break/>).
  void AppendRaw(char c);
  bool is_full() const { return is_full_; }
  std::string Take() &&;

 private:
  void Push(char c);

  std::string text_;
  size_t max_bytes_;
  bool pending_space_ = false;
  bool pending_break_ = false;
  bool is_full_ = false;
};

}  // namespace quarry::extract
