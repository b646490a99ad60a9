#include "miner-fs/sparql_updates.h"

#include <fmt/format.h>

#include <iterator>
#include <optional>
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

namespace {

// Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// The digits at [at, at + count) as a number; -1 when one is not a digit.
int Digits(std::string_view text, size_t at, size_t count) {
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// The form the store answers for the miner's own values, "YYYY-MM-DDTHH:MM:SS[.f{1,6}]Z" (or
// without zone, which counts as UTC): read in place. nullopt for anything else (offsets, longer
// fractions, 24:00:00, an invalid date), which goes through the full codec.
std::optional<int64_t> ParseUtcDateTime(std::string_view text) {
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  const int year = Digits(text, 0, 4);
  const int month = Digits(text, 5, 2);
  const int day = Digits(text, 8, 2);
  const int hour = Digits(text, 11, 2);
  const int minute = Digits(text, 14, 2);
  const int second = Digits(text, 17, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 59) {
    return std::nullopt;
  }
  static constexpr int kMonthDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool is_leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kMonthDays[month - 1] + (month == 2 && is_leap ? 1 : 0)) return std::nullopt;
  size_t at = 19;
  int64_t fraction = 0;
  if (at < text.size() && text[at] == '.') {
    const size_t digits_from = ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') fraction = fraction * 10 + (text[at++] - '0');
    const size_t digits = at - digits_from;
    if (digits == 0 || digits > 6) return std::nullopt;
    for (size_t i = digits; i < 6; ++i) fraction *= 10;
  }
  if (at < text.size() && text[at] == 'Z') ++at;
  if (at != text.size()) return std::nullopt;
  const int64_t seconds = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return seconds * 1'000'000 + fraction;
}

}  // namespace

Result<int64_t> ParseDateTime(std::string_view lexical) {
  // The crawl reads one per known child (20,000 in a restart): the full codec formats a stored
  // form and parses it back, ~6x the instructions of reading the common form in place.
  if (const std::optional<int64_t> micros = ParseUtcDateTime(lexical)) return *micros;
  QUARRY_ASSIGN_OR_RETURN(const std::string stored, EncodeDateTime(lexical));
  return UnixMicros(stored);
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

std::string KnownChildrenQuery(const std::vector<std::string>& folder_iris) {
  std::string folders;
  folders.reserve(folder_iris.size() * 64);
  for (size_t i = 0; i < folder_iris.size(); ++i) fmt::format_to(std::back_inserter(folders), " (<{}> {})", folder_iris[i], i);
  // The folder as its position in VALUES and the type test as BOUND: the store looks up no IRI
  // for them per row (two correlated subqueries per child; ~35% of the store's CPU in a
  // no-change restart at 20,000 files), and the miner compares integers, not IRI strings.
  return fmt::format(
      "SELECT ?k ?name ?r ?mtime ?size (BOUND(?folder) AS ?isFolder) {{ "
      "VALUES (?c ?k) {{{} }} ?r nfo:belongsToContainer ?c ; nfo:fileName ?name ; "
      "nfo:fileLastModified ?mtime . OPTIONAL {{ ?r nfo:fileSize ?size }} {} }}",
      folders, kFolderColumn);
}

std::string LookupQuery(std::string_view uri) {
  return fmt::format(
      "SELECT ?r ?mtime ?size ?folder {{ ?r nie:url {} . "
      "OPTIONAL {{ ?r nfo:fileLastModified ?mtime }} OPTIONAL {{ ?r nfo:fileSize ?size }} {} }}",
      SparqlString(uri), kFolderColumn);
}

}  // namespace quarry::miner
