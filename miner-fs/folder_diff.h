// DiffFolder: the pure decision at the heart of the crawl (ARCHITECTURE.md §6). Given what the
// store knows about a folder's children (name -> resource, mtime, size, kind) and what the
// folder holds now, it returns the created, changed and deleted sets. An unchanged file lands
// in no set, so it costs no write and no extraction; a restart with nothing changed gives
// three empty sets. Sub-folders that exist on both sides are listed in `descend` because a
// file deep inside may have changed without touching any folder's mtime.
// Thread-safety: pure function.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace quarry::miner {

enum class EntryKind { kFile, kFolder };

// A child as the store knows it.
struct KnownChild {
  std::string iri;
  int64_t mtime_us = 0;
  int64_t size = 0;
  EntryKind kind = EntryKind::kFile;
};
using KnownChildren = std::unordered_map<std::string, KnownChild>;  // by file name

// A child as the folder holds it now (after the ignore rules).
struct DiskChild {
  std::string name;
  EntryKind kind = EntryKind::kFile;
  int64_t mtime_us = 0;
  int64_t size = 0;
  int64_t created_us = 0;  // 0 when the file system does not record creation
};

struct FolderChanges {
  std::vector<const DiskChild*> created;
  // Changed entries, with the resource they keep.
  std::vector<std::pair<const DiskChild*, const KnownChild*>> changed;
  // Gone from the folder (or now ignored): the store's entries to delete, with their names.
  std::vector<std::pair<std::string, const KnownChild*>> deleted;
  // Known sub-folders still present: crawl into them.
  std::vector<std::pair<const DiskChild*, const KnownChild*>> descend;

  bool has_writes() const { return !created.empty() || !changed.empty() || !deleted.empty(); }
};

// Pointers in the result point into `known` and `disk`, which must outlive it. A child whose
// kind changed (a file replaced by a folder of the same name) is deleted and created again.
// A folder counts as changed when its mtime moved (its own row is updated; children are
// compared on their own).
FolderChanges DiffFolder(const KnownChildren& known, const std::vector<DiskChild>& disk);

}  // namespace quarry::miner
