#include "miner-fs/folder_diff.h"

#include <unordered_set>

namespace quarry::miner {

FolderChanges DiffFolder(const KnownChildren& known, const std::vector<DiskChild>& disk) {
  FolderChanges changes;
  std::unordered_set<std::string_view> still_present;
  still_present.reserve(disk.size());
  for (const DiskChild& child : disk) {
    const auto stored = known.find(child.name);
    if (stored == known.end() || stored->second.kind != child.kind) {
      changes.created.push_back(&child);
      continue;
    }
    still_present.insert(stored->first);
    const KnownChild& record = stored->second;
    const bool is_modified = record.mtime_us != child.mtime_us ||
                             (child.kind == EntryKind::kFile && record.size != child.size);
    if (is_modified) changes.changed.emplace_back(&child, &record);
    if (child.kind == EntryKind::kFolder) changes.descend.emplace_back(&child, &record);
  }
  for (const auto& [name, record] : known) {
    if (!still_present.contains(name)) changes.deleted.emplace_back(name, &record);
  }
  return changes;
}

}  // namespace quarry::miner
