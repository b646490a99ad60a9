#include "miner-fs/index_store.h"

#include <fmt/format.h>

#include <algorithm>

#include "miner-fs/sparql_updates.h"

namespace quarry::miner {
namespace {

// Columns from `first`: ?mtime, ?size, ?isFolder (a boolean), as KnownChildrenQuery and
// LookupQuery both select them.
Result<KnownChild> ReadChild(Cursor& cursor, int first, std::string iri) {
  KnownChild child{std::move(iri)};
  if (cursor.IsBound(first)) {
    QUARRY_ASSIGN_OR_RETURN(child.mtime_us, ParseDateTime(cursor.GetString(first)));
  }
  if (cursor.IsBound(first + 1)) child.size = cursor.GetInteger(first + 1);
  child.kind = cursor.GetBoolean(first + 2) ? EntryKind::kFolder : EntryKind::kFile;
  return child;
}

// The slot counts children queries are prepared for: a batch takes the smallest that holds it
// (at most 3 unused slots up to 16 folders, where a no-change restart's batches mostly are).
size_t SlotsFor(size_t folders) {
  for (const size_t slots : {4, 8, 12, 16, 32, 64, 128}) {
    if (folders <= slots) return slots;
  }
  return kMaxChildrenSlots;
}

// An IRI for unused slots: no resource has it, so its branch gives no rows.
constexpr const char* kNoFolder = "urn:quarry:miner:no-folder";

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

Result<Statement*> ConnectionIndexStore::ChildrenStatement(size_t slots, bool file_iris) {
  const auto key = std::make_pair(slots, file_iris);
  if (auto found = statements_.find(key); found != statements_.end()) return &found->second;
  QUARRY_ASSIGN_OR_RETURN(Statement statement, connection_.Prepare(KnownChildrenQuery(slots, file_iris)));
  return &statements_.emplace(key, std::move(statement)).first->second;
}

Result<std::unordered_map<std::string, KnownChildren>> ConnectionIndexStore::Ask(
    const std::vector<std::string>& folder_iris, bool file_iris) {
  std::unordered_map<std::string, KnownChildren> children;
  if (folder_iris.empty()) return children;
  std::vector<KnownChildren*> by_index;  // the query names each folder by its slot
  by_index.reserve(folder_iris.size());
  for (const std::string& iri : folder_iris) by_index.push_back(&children[iri]);
  for (size_t first = 0; first < folder_iris.size(); first += kMaxChildrenSlots) {
    const size_t count = std::min(kMaxChildrenSlots, folder_iris.size() - first);
    const size_t slots = SlotsFor(count);
    QUARRY_ASSIGN_OR_RETURN(Statement * statement, ChildrenStatement(slots, file_iris));
    for (size_t slot = 0; slot < slots; ++slot) {
      statement->BindIri(ChildrenSlotName(slot), slot < count ? folder_iris[first + slot] : kNoFolder);
    }
    auto cursor = statement->Execute();
    if (!cursor) {
      return std::move(cursor).error().WithContext(
          fmt::format("children of {} and {} more folders", folder_iris[first], count - 1));
    }
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor->Next());
      if (!has_row) break;
      const int64_t slot = cursor->GetInteger(0);
      if (slot < 0 || static_cast<size_t>(slot) >= count) {
        return Error(Errc::kInternal, fmt::format("children query: unexpected folder slot {}", slot));
      }
      QUARRY_ASSIGN_OR_RETURN(KnownChild child, ReadChild(*cursor, 3, std::string(cursor->GetString(2))));
      by_index[first + static_cast<size_t>(slot)]->emplace(std::string(cursor->GetString(1)), std::move(child));
    }
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
