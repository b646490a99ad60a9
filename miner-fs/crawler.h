// Crawler: brings the store in step with index roots, one folder per Step() so the miner's loop
// can pause, throttle and serve the monitor between folders (issue 5 "Crawl and decide").
//
// Breadth-first; each folder is opened relative to its parent's fd (openat) and its entries
// stat'ed relative to it, so no path is rebuilt per file; a path string is built per folder
// (for the monitor and URIs) and per new or changed file only. The children the store knows
// are asked for the folder being processed and the known folders queued behind it together,
// up to kFoldersPerQuery in one query (IndexStore::ChildrenToCompare: the files without their
// IRIs), so a restart costs one query per batch of folders, not one per folder; then
// DiffFolder against the listing, and the resulting writes queued on the UpdateBatcher (a
// folder with a changed or deleted file asks IndexStore::Children for its IRIs first). Given a second IndexStore (`ahead`: its own
// connection), a thread of the crawler asks it for the folders queued so far while the crawler
// lists and stats the current ones, so a restart waits for the store only where the crawl
// outruns it (one query at a time, each taking every folder queued since the last, up to
// kFoldersPerQuery). What was asked ahead is valid as long as only the crawler writes: whoever
// else writes calls ForgetKnown() (answers still on their way are dropped; the queued folders
// are asked again at the next Step(), once the caller's writes are in). A vanished or unreadable folder or file, a
// folder reached twice (bind mount loop), a name that is not UTF-8 and a path at PATH_MAX are
// logged once and skipped; symlinks are never followed.
// Thread-safety: the miner thread only (the asking thread is internal; `ahead` is used by it
// alone).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "miner-fs/config.h"
#include "miner-fs/file_system.h"
#include "miner-fs/folder_diff.h"
#include "miner-fs/ignore_rules.h"
#include "miner-fs/index_store.h"
#include "miner-fs/mime_types.h"
#include "miner-fs/update_batcher.h"

namespace quarry::miner {

struct CrawlStats {
  uint64_t folders = 0;    // folders listed
  uint64_t files = 0;      // files seen on disk (after the ignore rules)
  uint64_t created = 0;
  uint64_t changed = 0;
  uint64_t deleted = 0;
  uint64_t skipped = 0;    // entries left out for a problem (logged once each)
  std::chrono::microseconds store_wait{0};  // waited for the store's known children
};

class Crawler {
 public:
  // Small batches: the crawl waits at a batch's first folder for the whole batch's answer, so
  // 256 folders a query (a level of a tree queued at once) left the crawl waiting 10-25 ms per
  // no-change restart of the 20,001-file bench corpus; 16 (75 queries) about 3 ms, and the
  // store keeps up query for query (issue 5, measured in session 25).
  static constexpr size_t kFoldersPerQuery = 16;

  // Called for every folder that is indexed (to watch it): its path, resource IRI, and whether
  // its sub-folders are indexed too.
  using FolderListener =
      std::function<void(const std::string& path, const std::string& iri, bool recursive)>;

  // `ahead` (optional, must outlive the crawler): a second store connection for the asking
  // thread; null: the known children are asked on the caller's thread when needed.
  Crawler(FileSystem& file_system, IndexStore& store, UpdateBatcher& batcher,
          const IgnoreRules& rules, MimeDetector& mime, IndexStore* ahead = nullptr);
  ~Crawler();

  // Queues `root` (its folder resource is looked up or created now).
  Result<void> AddRoot(const IndexRoot& root);
  // Queues one folder below a root whose resource `iri` exists or is queued for writing
  // (`is_new`: the store knows none of its children yet). The monitor's re-crawls.
  // `with_iris`: the folder's known children are expected to be written (a marker appeared:
  // they all go), so they are asked with their IRIs (IndexStore::Children) in the first place
  // and the write needs no second query.
  void AddFolder(std::string path, std::string iri, bool recursive, bool is_new = false,
                 bool with_iris = false);
  // Processes one folder; false when nothing is queued. An error means the store failed.
  Result<bool> Step();
  // Drops the known children asked ahead (someone else wrote to the store).
  void ForgetKnown();
  bool idle() const { return queue_.empty(); }
  size_t queued() const { return queue_.size(); }
  const CrawlStats& stats() const { return stats_; }
  void SetFolderListener(FolderListener listener) { on_folder_ = std::move(listener); }
  const std::string& current_folder() const { return current_; }

 private:
  struct GitChain;
  class Asker;
  struct Item {
    std::unique_ptr<Folder> folder;  // opened through the parent's fd; null: open by path
    std::string path;
    std::string uri;
    std::string iri;
    bool is_new = false;
    bool recursive = true;
    std::shared_ptr<const GitChain> git;  // the .gitignore files above and in this folder
    bool with_iris = false;               // its known children asked with their IRIs
  };

  Result<void> Process(Item& item);
  Result<KnownChildren> Known(const Item& item);
  std::vector<DiskChild> Listing(Item& item, std::vector<RawEntry>& entries);
  bool Admit(const Item& item, const RawEntry& entry);
  Result<void> Write(Item& item, const FolderChanges& changes);
  void Queue(Item& parent, const DiskChild& child, std::string iri, bool is_new);
  void LogOnce(const std::string& path, std::string_view reason);

  FileSystem& file_system_;
  IndexStore& store_;
  UpdateBatcher& batcher_;
  const IgnoreRules& rules_;
  MimeDetector& mime_;
  std::deque<Item> queue_;
  std::unique_ptr<Asker> asker_;         // the known children asked ahead, by folder IRI
  std::vector<std::string> to_ask_;     // known folders queued by the current Step()
  bool reask_ = false;                  // ForgetKnown(): ask for the queued folders again
  std::set<std::pair<uint64_t, uint64_t>> visited_;
  std::unordered_set<std::string> logged_;
  size_t open_folders_ = 0;
  CrawlStats stats_;
  FolderListener on_folder_;
  std::string current_;
};

// True when `text` is valid UTF-8 (no overlongs, no surrogates).
bool IsValidUtf8(std::string_view text);

}  // namespace quarry::miner
