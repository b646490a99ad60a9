#include "miner-fs/sparql_updates.h"

#include <fmt/format.h>

#include <iterator>
#include <random>

#include "miner-fs/file_uri.h"
#include "store/common/datetime.h"

namespace quarry::miner {

std::string NewResourceIri() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return fmt::format("urn:quarry:file:{:016x}{:016x}", generator(), generator());
}

std::string DateTimeLiteral(int64_t micros) {
  auto stored = EncodeUnixMicros(micros);
  // Outside years 0000-9999 (a corrupt mtime): clamp to the epoch rather than fail the batch.
  if (!stored) stored = EncodeUnixMicros(0);
  return DecodeDateTime(*stored);
}

Result<int64_t> ParseDateTime(std::string_view lexical) {
  // One per known child in a crawl (20,000 in a restart): the common form is read in place.
  return LexicalUnixMicros(lexical);
}

namespace {

std::string Facts(const FileFacts& facts) {
  std::string text = fmt::format(
      " ; nie:url {} ; nfo:fileName {} ; nfo:fileLastModified \"{}\"^^xsd:dateTime ; "
      "nfo:fileSize {}",
      SparqlString(facts.uri), SparqlString(facts.name), DateTimeLiteral(facts.mtime_us),
      facts.size);
  if (facts.created_us != 0) {
    text += fmt::format(" ; nfo:fileCreated \"{}\"^^xsd:dateTime", DateTimeLiteral(facts.created_us));
  }
  if (!facts.mime_type.empty()) text += " ; nie:mimeType " + SparqlString(facts.mime_type);
  if (!facts.parent_iri.empty()) text += fmt::format(" ; nfo:belongsToContainer <{}>", facts.parent_iri);
  return text;
}

// A file is also its own nie:InformationElement (33-nfo.ontology: one resource per file) so
// that nie:mimeType fits its domain; a folder is an nfo:Folder, itself an information element.
std::string_view Types(EntryKind kind) {
  return kind == EntryKind::kFolder ? "nfo:FileDataObject, nfo:Folder"
                                    : "nfo:FileDataObject, nie:InformationElement";
}

// ?folder is bound for a folder. Not EXISTS { ?r a nfo:Folder }: the store compiles that to a
// scan of the nfo:Folder table per row (a no-change restart at 20,000 files spent ~0.8 s of
// store CPU in it); this OPTIONAL is one index lookup per row.
constexpr std::string_view kFolderColumn = "OPTIONAL { ?r a ?folder FILTER (?folder = nfo:Folder) }";

std::string UnderPrefix(std::string_view uri) {
  std::string prefix(uri);
  if (prefix.empty() || prefix.back() != '/') prefix += '/';
  return prefix;
}

}  // namespace

std::string InsertResource(const FileFacts& facts) {
  return fmt::format("INSERT DATA {{ <{}> a {}{} }}", facts.iri, Types(facts.kind), Facts(facts));
}

std::string UpdateResource(const FileFacts& facts) {
  return fmt::format("INSERT OR REPLACE {{ <{}> a {}{} }} WHERE {{}}", facts.iri, Types(facts.kind),
                     Facts(facts));
}

std::string DeleteResource(std::string_view iri, std::string_view uri, EntryKind kind) {
  std::string text;
  if (kind == EntryKind::kFolder) {
    text = fmt::format(
        "DELETE {{ ?r a rdfs:Resource }} WHERE {{ ?r nie:url ?u FILTER(STRSTARTS(?u, {})) }} ; ",
        SparqlString(UnderPrefix(uri)));
  }
  return text + fmt::format("DELETE DATA {{ <{}> a rdfs:Resource }}", iri);
}

std::string MoveResource(std::string_view iri, std::string_view old_uri, const FileFacts& to) {
  std::string text;
  if (to.kind == EntryKind::kFolder) {
    const std::string old_prefix = SparqlString(UnderPrefix(old_uri));
    text = fmt::format(
        "DELETE {{ ?r nie:url ?u }} INSERT {{ ?r nie:url ?moved }} WHERE {{ ?r nie:url ?u "
        "FILTER(STRSTARTS(?u, {0})) BIND(CONCAT({1}, STRAFTER(?u, {0})) AS ?moved) }} ; ",
        old_prefix, SparqlString(UnderPrefix(to.uri)));
  }
  text += fmt::format("INSERT OR REPLACE {{ <{}> nie:url {} ; nfo:fileName {}", iri,
                      SparqlString(to.uri), SparqlString(to.name));
  if (!to.parent_iri.empty()) text += fmt::format(" ; nfo:belongsToContainer <{}>", to.parent_iri);
  return text + " } WHERE {}";
}

const std::string& ChildrenSlotName(size_t slot) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all(kMaxChildrenSlots);
    for (size_t i = 0; i < all.size(); ++i) all[i] = fmt::format("f{}", i);
    return all;
  }();
  return names.at(slot);
}

std::string KnownChildrenQuery(size_t slots, bool file_iris) {
  // One branch per folder slot, each an index search on nfo:belongsToContainer for the bound
  // IRI's ID; the slot as an integer, so the miner compares no IRI strings. A fixed text per
  // slot count: the store compiles it once and keeps it (a text naming the folders, as the
  // VALUES form before, was translated for every query: ~470 K instructions each, ~20 % of
  // the store's work in a no-change restart). The type test as BOUND: no IRI look-up per row.
  std::string branches;
  branches.reserve(slots * 64);
  for (size_t i = 0; i < slots; ++i) {
    if (i > 0) branches += " UNION";
    fmt::format_to(std::back_inserter(branches), " {{ ?r nfo:belongsToContainer ~{} BIND ({} AS ?k) }}",
                   ChildrenSlotName(i), i);
  }
  // Without the files' IRIs, IF evaluates the IRI's look-up (a correlated subquery on the
  // Resource table) only for the folders' rows.
  return fmt::format(
      "SELECT ?k ?name {} ?mtime ?size (BOUND(?folder) AS ?isFolder) {{{} ?r nfo:fileName ?name ; "
      "nfo:fileLastModified ?mtime . OPTIONAL {{ ?r nfo:fileSize ?size }} {} }}",
      file_iris ? "?r" : "(IF(BOUND(?folder), STR(?r), \"\") AS ?iri)", branches, kFolderColumn);
}

std::string LookupQuery(std::string_view uri) {
  return fmt::format(
      "SELECT ?r ?mtime ?size (BOUND(?folder) AS ?isFolder) {{ ?r nie:url {} . "
      "OPTIONAL {{ ?r nfo:fileLastModified ?mtime }} OPTIONAL {{ ?r nfo:fileSize ?size }} {} }}",
      SparqlString(uri), kFolderColumn);
}

}  // namespace quarry::miner
