#include "extract/core/serialize.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "extract/core/rdf_text.h"
#include "extract/core/vocab.h"

namespace quarry::extract {
namespace {

// The update writes onto a resource the store already holds (the miner's): see serialize.h.
bool OntoStoredFile(const FileResult& result) {
  return !result.file_iri.empty() && result.file_iri != result.file_url;
}

// The file's own triples in the layout: what links it to the element it holds. Onto the
// miner's resource only the link: its type and nie:url are there (issue 5: restating them cost
// the store four no-op type rows and a same-value nie:url UPDATE per file).
Description FileLinks(const FileResult& result, bool full) {
  Description file;
  if (full) {
    file.AddType(vocab::Nfo("FileDataObject"));
    file.Add(vocab::Nie("url"), result.file_url);
  }
  file.Add(vocab::Nie("interpretedAs"), Iri{result.element_iri});
  for (const PropertyValue& state : result.file_state.values) file.values.push_back(state);
  return file;
}

// " <file> a nfo:FileDataObject" for a WHERE: the file still exists.
void AppendFileExists(const FileResult& result, std::string& out) {
  out += ' ';
  rdf_text::AppendIri(FileIri(result), out);
  out += " a ";
  rdf_text::AppendIri(vocab::Nfo("FileDataObject"), out);
}

Description ElementLinks(const FileResult& result) {
  Description links;
  links.Add(vocab::Nie("isStoredAs"), Iri{FileIri(result)});
  links.Add(vocab::Nie("mimeType"), result.mime_type);
  return links;
}

bool IsEmpty(const Description& description) {
  return description.types.empty() && description.values.empty();
}

size_t TextSize(const Extraction& extraction) {
  size_t size = 0;
  for (const PropertyValue& value : extraction.element.values) {
    if (const auto* text = std::get_if<std::string>(&value.value)) size += text->size();
  }
  return size;
}

nlohmann::ordered_json JsonValue(const Value& value) {
  return std::visit(
      [](const auto& v) -> nlohmann::ordered_json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Iri>) {
          return {{"@id", v.value}};
        } else if constexpr (std::is_same_v<T, DateTime>) {
          return {{"@value", v.lexical}, {"@type", "xsd:dateTime"}};
        } else {
          return v;
        }
      },
      value);
}

nlohmann::ordered_json JsonDescription(std::string_view iri, const Description& description,
                                       const Description* extra) {
  nlohmann::ordered_json json;
  json["iri"] = iri;
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (const std::string& type : description.types) types.push_back(rdf_text::CompactIri(type));
  json["types"] = std::move(types);
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  const auto add_values = [&values](const Description& from) {
    for (const PropertyValue& property_value : from.values) {
      values[rdf_text::CompactIri(property_value.property)].push_back(
          JsonValue(property_value.value));
    }
  };
  if (extra) add_values(*extra);
  add_values(description);
  json["values"] = std::move(values);
  return json;
}

// The PREFIX lines of the prefixes `body` may use: every one whose "name:" occurs in it (a
// literal that happens to hold one only adds an unused line). The store parses each line of a
// prologue (issue 5: all 13 were ~2,000 instructions each per file, most of them unused).
std::string UsedPrefixes(std::string_view body) {
  std::string prologue;
  for (const vocab::Prefix& prefix : vocab::kPrefixes) {
    const std::string name = std::string(prefix.name) + ':';
    if (body.find(name) == std::string_view::npos) continue;
    prologue += fmt::format("PREFIX {} <{}>\n", name, prefix.iri);
  }
  return prologue;
}

}  // namespace

std::string ToSparqlUpdate(const FileResult& result) {
  const Extraction& extraction = result.extraction;
  const bool onto_stored = OntoStoredFile(result);
  std::string out;
  out.reserve(TextSize(extraction) + 4096);
  out += "DELETE DATA { ";
  rdf_text::AppendIri(result.element_iri, out);
  out += " a rdfs:Resource } ;\n";
  for (const Description& related : extraction.related) {
    if (IsEmpty(related)) continue;
    out += "INSERT {\n";
    rdf_text::AppendDescription(related.iri, related, nullptr, out);
    out += "} WHERE {";
    if (onto_stored) AppendFileExists(result, out);
    if (!related.types.empty()) {
      out += " FILTER NOT EXISTS { ";
      rdf_text::AppendIri(related.iri, out);
      out += " a ";
      rdf_text::AppendIri(related.types.front(), out);
      out += " } ";
    }
    out += "} ;\n";
  }
  out += "INSERT OR REPLACE {\n";
  rdf_text::AppendDescription(FileIri(result), FileLinks(result, !onto_stored), nullptr, out);
  const Description element_links = ElementLinks(result);
  rdf_text::AppendDescription(result.element_iri, extraction.element, &element_links, out);
  out += "} WHERE {";
  if (onto_stored) AppendFileExists(result, out);
  out += onto_stored ? " }\n" : "}\n";
  // In front of the body, inside the buffer reserved with room for it: no second allocation,
  // one memmove of the body by the prologue's length (~0.1 ms for a megabyte of extracted text,
  // against the milliseconds its extraction took; writing the prologue first would need the
  // used prefixes known before the body is written).
  out.insert(0, UsedPrefixes(out));
  return out;
}

std::string ToTurtle(const FileResult& result) {
  const Extraction& extraction = result.extraction;
  std::string out;
  out.reserve(TextSize(extraction) + 4096);
  rdf_text::AppendPrefixes(/*sparql=*/false, out);
  out += '\n';
  rdf_text::AppendDescription(FileIri(result), FileLinks(result, /*full=*/true), nullptr, out);
  out += '\n';
  const Description element_links = ElementLinks(result);
  rdf_text::AppendDescription(result.element_iri, extraction.element, &element_links, out);
  for (const Description& related : extraction.related) {
    if (IsEmpty(related)) continue;
    out += '\n';
    rdf_text::AppendDescription(related.iri, related, nullptr, out);
  }
  return out;
}

std::string ToJson(const FileResult& result) {
  nlohmann::ordered_json json;
  json["file"] = result.file_url;
  json["mime_type"] = result.mime_type;
  json["extractor"] = result.extraction.extractor;
  json["element"] = JsonDescription(result.element_iri, result.extraction.element, nullptr);
  nlohmann::ordered_json related = nlohmann::ordered_json::array();
  for (const Description& description : result.extraction.related) {
    related.push_back(JsonDescription(description.iri, description, nullptr));
  }
  json["related"] = std::move(related);
  // Invalid UTF-8 in a tag must not make dump() throw: replace it.
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace quarry::extract
