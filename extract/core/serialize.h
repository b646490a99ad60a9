// What one file's extraction becomes: a SPARQL update in Tracker 3's resource layout, Turtle
// or JSON. Pure functions of a FileResult; thread-safe.
//
// Layout (Tracker 3): the file is a nfo:FileDataObject whose IRI is its file:// URL, with
// nie:url and nie:interpretedAs the element; the element (ElementIri of the URL) carries the
// module's types and values plus nie:isStoredAs the file and nie:mimeType.
#pragma once

#include <string>
#include <string_view>

#include "extract/core/extraction.h"

namespace quarry::extract {

struct FileResult {
  std::string file_url;     // FileUrl(absolute path): the nie:DataObject's IRI by default
  // The file resource to write onto when it is not named by its URL: quarry-extract sets the
  // miner's urn:quarry:file:<hex> resource found by nie:url. Empty: the file_url. When set (and
  // not the URL) the update writes onto it only while it exists (ToSparqlUpdate).
  std::string file_iri;
  std::string element_iri;  // ElementIri(file_url)
  std::string mime_type;
  Extraction extraction;
  // More properties of the file resource, written with its links in the file's template (3.
  // below), so under its WHERE: quarry-extract's extraction state (qxo:extractedMtime,
  // service/extract_state.h SuccessState), which then costs the store no operation of its own
  // (issue 5). Its `iri` is not used.
  Description file_state;
};

// One SPARQL update request (operations separated by ';', one transaction in the store):
//   1. DELETE DATA { <element> a rdfs:Resource }: re-extraction drops every old value of the
//      element (Quarry's SPARQL has no variable predicates in updates, and deleting the
//      rdfs:Resource type deletes the resource, Tracker's idiom);
//   2. per related resource: INSERT … WHERE { FILTER NOT EXISTS { <r> a <its first type> } },
//      so an artist named by many files is written once and keeps its first spelling;
//   3. INSERT OR REPLACE of the file's link triples and the element.
// Onto a stored resource (file_iri set, not the URL: the miner's) the file's type and nie:url,
// which it has, are not restated (issue 5: four no-op type rows and a same-value UPDATE per
// file in the store), and 2. and 3. have WHERE { <file> a nfo:FileDataObject }: a file the
// miner deleted meanwhile leaves nothing behind. Otherwise the file is written whole.
// The prologue declares only the prefixes the text uses (issue 5: the store parses every one):
// an operation appended to the text later names IRIs in full or brings its own PREFIX.
std::string ToSparqlUpdate(const FileResult& result);

// The same triples as Turtle (file, element, related resources), with @prefix lines.
std::string ToTurtle(const FileResult& result);

// {"file", "mime_type", "extractor", "element": {"iri", "types", "values"}, "related": […]};
// values map a prefixed property name to an array of values: strings, numbers and booleans as
// JSON, {"@id": iri} for resources, {"@value": lexical, "@type": "xsd:dateTime"} for dates.
std::string ToJson(const FileResult& result);

// result.file_iri when set, else result.file_url.
inline const std::string& FileIri(const FileResult& result) {
  return result.file_iri.empty() ? result.file_url : result.file_iri;
}

}  // namespace quarry::extract
