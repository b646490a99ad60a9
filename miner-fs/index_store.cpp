#include "miner-fs/index_store.h"

#include <fmt/format.h>

#include "miner-fs/sparql_updates.h"

namespace quarry::miner {
namespace {

// Columns from `first`: mtime, size, folder (bound for a folder).
Result<KnownChild> ReadChild(Cursor& cursor, int first, std::string iri) {
  KnownChild child{std::move(iri)};
  if (cursor.IsBound(first)) {
    QUARRY_ASSIGN_OR_RETURN(child.mtime_us, ParseDateTime(cursor.GetString(first)));
  }
  if (cursor.IsBound(first + 1)) child.size = cursor.GetInteger(first + 1);
  child.kind = cursor.IsBound(first + 2) ? EntryKind::kFolder : EntryKind::kFile;
  return child;
}

// KnownChildrenQuery without the files' IRIs: IF evaluates the IRI's look-up (a correlated
// subquery on the Resource table) only for the folders' rows, so a crawl's comparison costs
// the store no IRI per file; a change that needs one asks Children() for its folder.
std::string ChildrenToCompareQuery(const std::vector<std::string>& folder_iris) {
  std::string folders;
  folders.reserve(folder_iris.size() * 64);
  for (size_t i = 0; i < folder_iris.size(); ++i) fmt::format_to(std::back_inserter(folders), " (<{}> {})", folder_iris[i], i);
  return fmt::format(
      "SELECT ?k ?name (IF(BOUND(?folder), STR(?r), \"\") AS ?iri) ?mtime ?size (BOUND(?folder) AS ?isFolder) {{ "
      "VALUES (?c ?k) {{{} }} ?r nfo:belongsToContainer ?c ; nfo:fileName ?name ; "
      "nfo:fileLastModified ?mtime . OPTIONAL {{ ?r nfo:fileSize ?size }} "
      "OPTIONAL {{ ?r a ?folder FILTER (?folder = nfo:Folder) }} }}",
      folders);
}

}  // namespace

ConnectionIndexStore::ConnectionIndexStore(Connection& connection) : connection_(connection) {
  connection_.SetUpdateSource("miner");
}

Result<std::unordered_map<std::string, KnownChildren>> ConnectionIndexStore::Children(
    const std::vector<std::string>& folder_iris) {
  return Ask(folder_iris, true);
}

Result<std::unordered_map<std::string, KnownChildren>> ConnectionIndexStore::ChildrenToCompare(
    const std::vector<std::string>& folder_iris) {
  return Ask(folder_iris, false);
}

Result<std::unordered_map<std::string, KnownChildren>> ConnectionIndexStore::Ask(
    const std::vector<std::string>& folder_iris, bool file_iris) {
  std::unordered_map<std::string, KnownChildren> children;
  if (folder_iris.empty()) return children;
  std::vector<KnownChildren*> by_index;  // the query names each folder by its index
  by_index.reserve(folder_iris.size());
  for (const std::string& iri : folder_iris) by_index.push_back(&children[iri]);
  auto cursor = connection_.Query(file_iris ? KnownChildrenQuery(folder_iris) : ChildrenToCompareQuery(folder_iris));
  if (!cursor) {
    return std::move(cursor).error().WithContext(
        fmt::format("children of {} and {} more folders", folder_iris.front(), folder_iris.size() - 1));
  }
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor->Next());
    if (!has_row) break;
    const int64_t index = cursor->GetInteger(0);
    if (index < 0 || static_cast<size_t>(index) >= by_index.size()) {
      return Error(Errc::kInternal, fmt::format("children query: unexpected folder index {}", index));
    }
    KnownChild child{std::string(cursor->GetString(2))};
    if (cursor->IsBound(3)) {
      QUARRY_ASSIGN_OR_RETURN(child.mtime_us, ParseDateTime(cursor->GetString(3)));
    }
    if (cursor->IsBound(4)) child.size = cursor->GetInteger(4);
    child.kind = cursor->GetBoolean(5) ? EntryKind::kFolder : EntryKind::kFile;
    by_index[static_cast<size_t>(index)]->emplace(std::string(cursor->GetString(1)), std::move(child));
  }
  return children;
}

Result<std::optional<KnownChild>> ConnectionIndexStore::Lookup(const std::string& uri) {
  auto cursor = connection_.Query(LookupQuery(uri));
  if (!cursor) return std::move(cursor).error().WithContext("lookup of " + uri);
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor->Next());
  if (!has_row) return std::optional<KnownChild>();
  QUARRY_ASSIGN_OR_RETURN(KnownChild child, ReadChild(*cursor, 1, std::string(cursor->GetString(0))));
  return std::optional<KnownChild>(std::move(child));
}

Result<void> ConnectionIndexStore::Apply(const std::vector<std::string>& updates) {
  if (updates.empty()) return Ok();
  Batch batch = connection_.CreateBatch();
  for (const std::string& update : updates) batch.Add(update);
  return batch.Execute();
}

Result<void> ConnectionIndexStore::Ping() {
  auto cursor = connection_.Query("ASK {}");
  if (!cursor) return std::move(cursor).error();
  QUARRY_TRY(cursor->Next());
  return Ok();
}

}  // namespace quarry::miner
