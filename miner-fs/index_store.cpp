#include "miner-fs/index_store.h"

#include <fmt/format.h>

#include "miner-fs/sparql_updates.h"

namespace quarry::miner {
namespace {

// Columns from `first`: mtime, size, is-folder.
Result<KnownChild> ReadChild(Cursor& cursor, int first, std::string iri) {
  KnownChild child{std::move(iri)};
  if (cursor.IsBound(first)) {
    QUARRY_ASSIGN_OR_RETURN(child.mtime_us, ParseDateTime(cursor.GetString(first)));
  }
  if (cursor.IsBound(first + 1)) child.size = cursor.GetInteger(first + 1);
  const std::string_view is_folder = cursor.GetString(first + 2);
  child.kind = is_folder == "true" || is_folder == "1" ? EntryKind::kFolder : EntryKind::kFile;
  return child;
}

}  // namespace

ConnectionIndexStore::ConnectionIndexStore(Connection& connection) : connection_(connection) {
  connection_.SetUpdateSource("miner");
}

Result<KnownChildren> ConnectionIndexStore::Children(const std::string& folder_iri) {
  auto cursor = connection_.Query(KnownChildrenQuery(folder_iri));
  if (!cursor) return std::move(cursor).error().WithContext("children of " + folder_iri);
  KnownChildren children;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor->Next());
    if (!has_row) break;
    std::string name(cursor->GetString(0));
    QUARRY_ASSIGN_OR_RETURN(KnownChild child, ReadChild(*cursor, 2, std::string(cursor->GetString(1))));
    children.emplace(std::move(name), std::move(child));
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

}  // namespace quarry::miner
