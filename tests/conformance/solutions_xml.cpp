// SPARQL Query Results XML Format (.srx) with expat: head/variable, boolean, and
// results/result/binding holding uri, bnode or literal (datatype, xml:lang).
#include <expat.h>
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "tests/conformance/solutions.h"

namespace quarry::conformance {
namespace {

struct SrxState {
  Solutions solutions;
  std::string binding;  // current binding's variable
  std::string element;  // uri, bnode, literal or boolean while inside one
  std::string text;
  std::string datatype;
  std::string lang;
};

std::string LocalName(const char* name) {
  const std::string full(name);
  const size_t separator = full.rfind('|');  // expat namespace separator
  return separator == std::string::npos ? full : full.substr(separator + 1);
}

const char* Attribute(const char** attributes, std::string_view local) {
  for (int i = 0; attributes[i]; i += 2) {
    if (LocalName(attributes[i]) == local) return attributes[i + 1];
  }
  return nullptr;
}

void OnStart(void* data, const char* raw_name, const char** attributes) {
  auto* state = static_cast<SrxState*>(data);
  const std::string name = LocalName(raw_name);
  if (name == "variable") {
    if (const char* variable = Attribute(attributes, "name"))
      state->solutions.variables.push_back(variable);
  } else if (name == "result") {
    state->solutions.rows.emplace_back();
  } else if (name == "binding") {
    const char* variable = Attribute(attributes, "name");
    state->binding = variable ? variable : "";
  } else if (name == "uri" || name == "bnode" || name == "literal" || name == "boolean") {
    state->element = name;
    state->text.clear();
    const char* datatype = Attribute(attributes, "datatype");
    const char* lang = Attribute(attributes, "lang");
    state->datatype = datatype ? datatype : "";
    state->lang = lang ? lang : "";
  }
}

void OnEnd(void* data, const char* raw_name) {
  auto* state = static_cast<SrxState*>(data);
  const std::string name = LocalName(raw_name);
  if (name != state->element) return;
  state->element.clear();
  if (name == "boolean") {
    state->solutions.boolean = state->text.find("true") != std::string::npos;
    return;
  }
  if (state->solutions.rows.empty()) return;
  RdfTerm term = name == "uri"     ? RdfTerm::Iri(state->text)
                 : name == "bnode" ? RdfTerm::Blank(state->text)
                                   : RdfTerm::Literal(state->text, state->datatype, state->lang);
  state->solutions.rows.back()[state->binding] = Normalized(std::move(term));
}

void OnText(void* data, const char* text, int length) {
  auto* state = static_cast<SrxState*>(data);
  if (!state->element.empty()) state->text.append(text, static_cast<size_t>(length));
}

struct ParserFree {
  void operator()(XML_Parser parser) const { XML_ParserFree(parser); }
};

}  // namespace

Result<Solutions> ReadSrx(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error(Errc::kIo, fmt::format("cannot read {}", file.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string xml = buffer.str();
  std::unique_ptr<std::remove_pointer_t<XML_Parser>, ParserFree> parser(
      XML_ParserCreateNS(nullptr, '|'));
  SrxState state;
  XML_SetUserData(parser.get(), &state);
  XML_SetElementHandler(parser.get(), OnStart, OnEnd);
  XML_SetCharacterDataHandler(parser.get(), OnText);
  if (XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_ERROR) {
    return Error(Errc::kParse,
                 fmt::format("{}:{}: {}", file.string(), XML_GetCurrentLineNumber(parser.get()),
                             XML_ErrorString(XML_GetErrorCode(parser.get()))));
  }
  return std::move(state.solutions);
}

}  // namespace quarry::conformance
