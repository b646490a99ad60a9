#include "miner-fs/folder_diff.h"

#include <string_view>
#include <unordered_map>

namespace quarry::miner {

FolderChanges DiffFolder(const KnownChildren& known, const std::vector<DiskChild>& disk) {
  FolderChanges changes;
  // Names are unique on both sides, so each known child matches at most one disk child: when
  // every known child matched, none was deleted (a no-change restart's case) and no set of
  // the names still present is needed.
  size_t matched = 0;
  for (const DiskChild& child : disk) {
    const auto stored = known.find(child.name);
    if (stored == known.end() || stored->second.kind != child.kind) {
      changes.created.push_back(&child);
      continue;
    }
    ++matched;
    const KnownChild& record = stored->second;
    const bool is_modified = record.mtime_us != child.mtime_us ||
                             (child.kind == EntryKind::kFile && record.size != child.size);
    if (is_modified) changes.changed.emplace_back(&child, &record);
    if (child.kind == EntryKind::kFolder) changes.descend.emplace_back(&child, &record);
  }
  if (matched == known.size()) return changes;
  // A known child is kept when the folder holds its name with the same kind.
  std::unordered_map<std::string_view, EntryKind> on_disk;
  on_disk.reserve(disk.size());
  for (const DiskChild& child : disk) on_disk.emplace(child.name, child.kind);
  for (const auto& [name, record] : known) {
    const auto present = on_disk.find(name);
    if (present == on_disk.end() || present->second != record.kind) changes.deleted.emplace_back(name, &record);
  }
  return changes;
}

}  // namespace quarry::miner
