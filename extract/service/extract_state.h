// The SPARQL text of quarry-extract's bookkeeping (ontology/40-qxo.ontology): finding the file
// resources a batch of URLs names (one query per batch), the files the store marks as not yet
// extracted (picked up on start), and the state written with each file's one update.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/core/extraction.h"
#include "quarry/result.h"

namespace quarry::extract::service {

// What the store knows of one file URL.
struct StoredFile {
  std::string iri;                           // the file resource (the miner's, or the URL)
  std::optional<int64_t> extracted_mtime_us;  // qxo:extractedMtime, when recorded
  // qxo:extractedMtime is bound (whatever its form): the file was extracted or tried before,
  // so a failure may be recorded on it. A failure is only ever written with an extractedMtime
  // (StateOnlyUpdate), so a file without one has none to clear.
  bool tried = false;
};

// Rows (url, resource, extractedMtime or unbound) for every resource whose nie:url is one of
// `urls` (file:// URLs as FileUrl spells them).
std::string LookupQuery(const std::vector<std::string>& urls);

// Rows (url): files (not folders) whose qxo:extractedMtime is missing or differs from their
// nfo:fileLastModified: new or changed since their last extraction.
std::string PendingQuery();

// xsd:dateTime lexical form of a Unix time in microseconds (UTC), as miner-fs writes mtimes.
std::string MtimeLiteral(int64_t mtime_us);
// Microseconds of a dateTime lexical form read back from the store.
Result<int64_t> ParseMtime(std::string_view lexical);

// Two operations (no prologue, full IRIs) removing a recorded failure and its module; each is a
// DELETE ... WHERE, which the store translates and runs as a query, so they are written only
// when the file may carry a failure (`clear_failure` below).
std::string ClearFailure(std::string_view file_iri);
// `update` followed by ClearFailure's operations (after the file's own, which never touch the
// failure).
void AppendClearFailure(std::string& update, std::string_view file_iri);

// What a successful extraction records on the file resource: qxo:extractedMtime, the mtime
// extracted. It goes into FileResult::file_state, so the worker's ToSparqlUpdate writes it in the
// file's template, only while the file resource exists and with no operation of its own (issue
// 5); the worker gets the mtime with the job (worker_protocol.h).
Description SuccessState(int64_t mtime_us);

// The whole update for a file whose extraction failed or found nothing to extract (`reason`
// empty): the file resource (created as the core names it when the miner has none, i.e.
// `file_iri` is the URL) keeps its facts and gets the mtime tried, the reason and the module;
// the miner's resource gets them only while it exists (issue 5). An earlier failure is removed
// first with `clear_failure`.
std::string StateOnlyUpdate(std::string_view file_iri, std::string_view url, int64_t mtime_us,
                            std::string_view reason, std::string_view module,
                            bool clear_failure = true);

}  // namespace quarry::extract::service
