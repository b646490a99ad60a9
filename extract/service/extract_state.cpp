#include "extract/service/extract_state.h"

#include <fmt/format.h>

#include "extract/core/serialize.h"
#include "store/common/datetime.h"
#include "store/common/sparql_quote.h"

namespace quarry::extract::service {
namespace {

constexpr std::string_view kPrefixes =
    "PREFIX nie: <http://tracker.api.gnome.org/ontology/v3/nie#>\n"
    "PREFIX nfo: <http://tracker.api.gnome.org/ontology/v3/nfo#>\n"
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n";

// Full IRIs: these operations follow the core's update, whose prologue has no qxo: prefix.
constexpr std::string_view kExtractedMtimeIri =
    "http://quarry.gnome.invalid/ontology/v1/qxo#extractedMtime";
constexpr std::string_view kExtractedMtime =
    "<http://quarry.gnome.invalid/ontology/v1/qxo#extractedMtime>";
constexpr std::string_view kExtractionFailure =
    "<http://quarry.gnome.invalid/ontology/v1/qxo#extractionFailure>";
constexpr std::string_view kFailedExtractor =
    "<http://quarry.gnome.invalid/ontology/v1/qxo#failedExtractor>";

// The state is written only onto a file resource that exists (issue 5): one the miner deleted
// while the file was extracted is not brought back as a bare resource.
constexpr std::string_view kFileExists =
    "a <http://tracker.api.gnome.org/ontology/v3/nfo#FileDataObject>";

}  // namespace

// The old failure goes in the same request; DELETE … WHERE matches nothing when there is none.
std::string ClearFailure(std::string_view file_iri) {
  return fmt::format(
      "DELETE {{ <{0}> {1} ?f }} WHERE {{ <{0}> {1} ?f }} ;\n"
      "DELETE {{ <{0}> {2} ?e }} WHERE {{ <{0}> {2} ?e }}",
      file_iri, kExtractionFailure, kFailedExtractor);
}

void AppendClearFailure(std::string& update, std::string_view file_iri) {
  update.append(" ;\n").append(ClearFailure(file_iri));
}

std::string LookupQuery(const std::vector<std::string>& urls) {
  std::string text(kPrefixes);
  text += "SELECT ?u ?r ?m WHERE { VALUES ?u {";
  for (const std::string& url : urls) text += " " + SparqlString(url);
  text += fmt::format(" }} ?r nie:url ?u . OPTIONAL {{ ?r {} ?m }} }}", kExtractedMtime);
  return text;
}

std::string PendingQuery() {
  return std::string(kPrefixes) +
         fmt::format(
             "SELECT ?u WHERE {{ ?r a nfo:FileDataObject ; nie:url ?u ; nfo:fileLastModified ?t . "
             "FILTER NOT EXISTS {{ ?r a nfo:Folder }} "
             "OPTIONAL {{ ?r {} ?m }} FILTER (!BOUND(?m) || ?m != ?t) }}",
             kExtractedMtime);
}

std::string MtimeLiteral(int64_t mtime_us) {
  auto stored = EncodeUnixMicros(mtime_us);
  // A corrupt mtime outside years 1-9999: the epoch, as miner-fs does, rather than no update.
  if (!stored) stored = EncodeUnixMicros(0);
  return DecodeDateTime(*stored);
}

Result<int64_t> ParseMtime(std::string_view lexical) {
  QUARRY_ASSIGN_OR_RETURN(const std::string stored, EncodeDateTime(lexical));
  return UnixMicros(stored);
}

Description SuccessState(int64_t mtime_us) {
  Description state;
  state.Add(std::string(kExtractedMtimeIri), DateTime{MtimeLiteral(mtime_us)});
  return state;
}

std::string StateOnlyUpdate(std::string_view file_iri, std::string_view url, int64_t mtime_us,
                            std::string_view reason, std::string_view module,
                            bool clear_failure) {
  std::string text(kPrefixes);
  if (clear_failure) text += ClearFailure(file_iri) + " ;\n";
  // The miner's resource (named otherwise than by its URL) has its type and nie:url: only the
  // state, while it exists. A file known by its URL alone is created as the core names it.
  const bool onto_stored = file_iri != url;
  text += fmt::format("INSERT OR REPLACE {{ <{}> ", file_iri);
  if (!onto_stored) text += fmt::format("a nfo:FileDataObject ; nie:url {} ; ", SparqlString(url));
  text += fmt::format("{} \"{}\"^^xsd:dateTime", kExtractedMtime, MtimeLiteral(mtime_us));
  if (!reason.empty()) {
    text += fmt::format(" ; {} {}", kExtractionFailure, SparqlString(reason));
    if (!module.empty()) text += fmt::format(" ; {} {}", kFailedExtractor, SparqlString(module));
  }
  text += onto_stored ? fmt::format(" }} WHERE {{ <{}> {} }}\n", file_iri, kFileExists)
                      : std::string(" } WHERE {}\n");
  return text;
}

}  // namespace quarry::extract::service
